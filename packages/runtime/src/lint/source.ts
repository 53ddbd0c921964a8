// The plugin folder as lint's rules see it: every file parsed as far as it could be, each value
// with its place, and the facts about the files the plugin names read from disk beforehand, so
// that the rules are pure functions of this data. Values are read leniently (a rule takes what
// has the right type and leaves the rest to the schema's findings), so one broken field does
// not hide the problems of the others.
import type { Registration, SafeYamlDocument } from "@oz0/sdk/internal";
import type { TestScript } from "../models/index.js";
import type { Place, YamlPath } from "./finding.js";
import type { ToolListing } from "./listing.js";

export type Raw = Readonly<Record<string, unknown>>;

/** A YAML document (a file, or a Markdown file's front matter) and the file it came from. */
export interface YamlSource {
  readonly file: string;
  readonly doc: SafeYamlDocument;
  readonly raw: Raw;
}

/** An agent definition: inline in plugin.yaml, or a file under agents/. */
export interface AgentSource extends YamlSource {
  readonly format: "inline" | "yaml" | "markdown";
  /** The agent's place in `doc`: `["agents", i]` inline in plugin.yaml, `[]` in its own file. */
  readonly base: YamlPath;
  /** The definition itself (for an inline agent, the list item, not the whole manifest). */
  readonly agent: Raw;
}

/** What the disk says about a path the plugin names. */
export type PathStatus = "inside" | "missing" | "not-a-file" | "escapes" | "link-escapes";

/** A JSON file the plugin names (input and output schemas), with the place of each value. */
export interface JsonSource {
  readonly file: string;
  readonly value: unknown;
  readonly doc: SafeYamlDocument | undefined;
}

/** A test-model script the plugin names (`model.script`), when it reads as one. */
export interface ScriptSource {
  readonly file: string;
  readonly doc: SafeYamlDocument;
  readonly script: TestScript;
}

/** What the code entry registered: nothing to load, loaded, or failed (its findings say why). */
export type CodeFacts =
  | { readonly status: "none" }
  | { readonly status: "loaded"; readonly registrations: readonly Registration[] }
  | { readonly status: "failed" };

/** The measured listing lint writes to tools.listing.json, with the place of each value in it. */
export interface ListingSource {
  readonly file: string;
  readonly listing: ToolListing;
  readonly text: string;
  readonly doc: SafeYamlDocument;
}

export interface PluginFiles {
  /** plugin.yaml; `undefined` when it is not YAML at all. */
  readonly manifest: YamlSource | undefined;
  readonly agents: readonly AgentSource[];
  /** `kind: Tool` manifests under tools/. */
  readonly toolManifests: readonly YamlSource[];
  /** Every path named in the plugin's files, by the text written. */
  readonly paths: ReadonlyMap<string, PathStatus>;
  /** The JSON Schema files agents name, by path, when they exist inside the folder. */
  readonly schemas: ReadonlyMap<string, JsonSource>;
  /** The test-model scripts the plugin names, by path, when they exist inside the folder and read. */
  readonly scripts: ReadonlyMap<string, ScriptSource>;
  readonly code: CodeFacts;
  /** `undefined` when the listing could not be measured (no plugin name, or the code failed). */
  readonly listing: ListingSource | undefined;
}

export function asMap(value: unknown): Raw | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Raw) : undefined;
}

export function asString(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

export function asList(value: unknown): readonly unknown[] | undefined {
  return Array.isArray(value) ? value : undefined;
}

/** The strings of a list, each with its index (other items are the schema's to report). */
export function stringItems(value: unknown): { value: string; index: number }[] {
  return (asList(value) ?? []).flatMap((item, index) =>
    typeof item === "string" ? [{ value: item, index }] : [],
  );
}

/** Where the value at `path` (or its key) is written. */
export function placeOf(
  source: Pick<YamlSource, "file" | "doc">,
  path: YamlPath,
  at?: "key" | "value",
): Place {
  const { line, column } = source.doc.locate(path, at);
  return { file: source.file, line, column };
}

/** The plugin's name, when plugin.yaml gives a usable one. */
export function pluginName(files: PluginFiles): string | undefined {
  return asString(files.manifest?.raw.name);
}

/**
 * The manifest format's version from `schema:` ("1.0"); left out, the plugin predates 1.0.
 * From 1.0 on, an agent without its input or output declared is an error, not a warning.
 */
export function schemaAtLeast(files: PluginFiles, major: number): boolean {
  const match = /^(\d+)\.(\d+)$/.exec(asString(files.manifest?.raw.schema) ?? "");
  return match !== null && Number(match[1]) >= major;
}

/** An agent's name, for messages; its file when it has none. */
export function agentLabel(agent: AgentSource): string {
  const name = asString(agent.agent.name);
  return name === undefined ? `the agent in ${agent.file}` : `agent '${name}'`;
}
