// The public entry points: each takes a file's text and its path inside the plugin (the
// runtime reads files; the SDK does no I/O) and returns typed data, or throws one
// INVALID_MANIFEST error listing every problem as file:line:col, or UNSAFE_YAML.
import type * as z from "zod";
import { type AgentDefinition, agentDefinitionSchema } from "./agent.js";
import { splitFrontMatter } from "./front-matter.js";
import { invalidManifest, type ManifestIssue } from "./issues.js";
import { type PluginManifest, pluginManifestSchema } from "./plugin.js";
import { assertManifestSize, parseSafeYaml, type SafeYamlDocument } from "./safe-yaml.js";
import { type SkillFile, skillFrontMatterSchema } from "./skill.js";
import { type ToolManifest, toolManifestSchema } from "./tool-manifest.js";
import { checkSchema } from "./validate.js";

export interface ManifestParseOptions {
  /** The file's path inside its plugin (`plugin.yaml`, `agents/triage.md`), named in every problem. */
  readonly file: string;
}

/** An agent read from `agents/<name>.yaml` or `agents/<name>.md`. */
export interface AgentFile {
  readonly format: "yaml" | "markdown";
  readonly definition: AgentDefinition;
  /** A Markdown agent's body, which is its system prompt; `undefined` for a YAML agent. */
  readonly prompt: string | undefined;
}

/**
 * Reads YAML with the safe reader and checks it against any zod schema, with the same errors
 * as the manifest parsers: for other YAML a plugin ships, such as a test provider script.
 */
export function parseYamlWith<S extends z.ZodType>(
  schema: S,
  text: string,
  options: ManifestParseOptions,
): z.output<S> {
  return orThrow(checkSchema(schema, parseSafeYaml(text, options)));
}

/**
 * Reads plugin.yaml.
 * @example parsePluginManifest("name: support-triage\nversion: 1.2.0\n", { file: "plugin.yaml" }).version // "1.2.0"
 */
export function parsePluginManifest(text: string, options: ManifestParseOptions): PluginManifest {
  return parseYamlWith(pluginManifestSchema, text, options);
}

/** Reads an agent file: YAML (`.yaml`, `.yml`), or Markdown (`.md`) whose body is the prompt. */
export function parseAgentFile(text: string, options: ManifestParseOptions): AgentFile {
  const { file } = options;
  if (/\.ya?ml$/i.test(file)) {
    return {
      format: "yaml",
      definition: parseYamlWith(agentDefinitionSchema, text, options),
      prompt: undefined,
    };
  }
  if (!/\.md$/i.test(file)) {
    throw invalidManifest([
      { file, line: 1, column: 1, path: [], message: "an agent file ends with .yaml, .yml or .md" },
    ]);
  }
  const { doc, body, bodyLine } = readMarkdown(text, file);
  const issues: ManifestIssue[] = [];
  if (isMap(doc.value) && Object.hasOwn(doc.value, "instructions")) {
    issues.push({
      file,
      ...doc.locate(["instructions"], "key"),
      path: ["instructions"],
      message:
        "a Markdown agent has no instructions: its body is the prompt; remove the key, or write the agent as YAML",
    });
  }
  if (body.trim() === "") issues.push(emptyBody(file, bodyLine, "a Markdown agent's body is its prompt"));
  const checked = checkSchema(agentDefinitionSchema, doc);
  if (!checked.ok)
    append(
      issues,
      checked.issues.filter((issue) => issue.path[0] !== "instructions"),
    );
  if (issues.length > 0 || !checked.ok) throw invalidManifest(issues);
  return { format: "markdown", definition: checked.value, prompt: body };
}

/** Reads a skill's SKILL.md: front matter (name, description) and the body agents read. */
export function parseSkillFile(text: string, options: ManifestParseOptions): SkillFile {
  const { file } = options;
  const { doc, body, bodyLine } = readMarkdown(text, file);
  const issues: ManifestIssue[] = [];
  const checked = checkSchema(skillFrontMatterSchema, doc);
  if (!checked.ok) append(issues, checked.issues);
  // The folder names the skill (skills/<name>/SKILL.md), so the two must agree.
  const folder = /(?:^|\/)skills\/([^/]+)\/SKILL\.md$/.exec(file)?.[1];
  if (checked.ok && folder !== undefined && checked.value.name !== folder) {
    issues.push({
      file,
      ...doc.locate(["name"]),
      path: ["name"],
      message: `the skill is named '${checked.value.name}' but sits in skills/${folder}/; rename one to match`,
    });
  }
  if (body.trim() === "") issues.push(emptyBody(file, bodyLine, "a skill's body is what an agent reads"));
  if (issues.length > 0 || !checked.ok) throw invalidManifest(issues);
  return { ...checked.value, body };
}

/** Reads a `kind: Tool` manifest (`tools/<name>.tool.yaml`). */
export function parseToolManifest(text: string, options: ManifestParseOptions): ToolManifest {
  return parseYamlWith(toolManifestSchema, text, options);
}

function readMarkdown(text: string, file: string): { doc: SafeYamlDocument; body: string; bodyLine: number } {
  assertManifestSize(text, file);
  const parts = splitFrontMatter(text, file);
  const doc = parseSafeYaml(parts.yaml, { file, lineOffset: parts.yamlLineOffset });
  return { doc, body: parts.body.replace(/^\r?\n/, ""), bodyLine: parts.bodyLine };
}

function emptyBody(file: string, line: number, why: string): ManifestIssue {
  return {
    file,
    line,
    column: 1,
    path: [],
    message: `${why}, and it is empty; write it below the front matter`,
  };
}

/** Adds `items` one by one: a map of many unknown keys has more issues than push(...) can take. */
function append<T>(list: T[], items: readonly T[]): void {
  for (const item of items) list.push(item);
}

function isMap(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function orThrow<T>(checked: { ok: true; value: T } | { ok: false; issues: ManifestIssue[] }): T {
  if (!checked.ok) throw invalidManifest(checked.issues);
  return checked.value;
}
