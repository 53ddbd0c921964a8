// Reads a plugin folder for lint: every file parsed as far as it goes, with each problem the
// SDK's parsers find turned into a finding instead of stopping at the first; then what the
// rules need from disk (the status of every path named, the JSON Schemas agents name, what
// the code entry registers and the listing of its functions), so the rules need no I/O.
import { realpath, stat } from "node:fs/promises";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";
import {
  type ManifestIssue,
  nameProblem,
  Oz0Error,
  parseAgentFile,
  parsePluginManifest,
  parseSkillFile,
  parseToolManifest,
  type ToolManifest,
} from "@oz0/sdk";
import {
  assertPluginObject,
  checkHookHandlers,
  createRecordingHost,
  formatManifestPath,
  parseSafeYaml,
  type Registration,
  type SafeYamlDocument,
  YAML_LIMITS,
} from "@oz0/sdk/internal";
import { parseTestScript } from "../models/index.js";
import { isEscape, listInPlugin, pluginRoot, readInPlugin } from "../plugin-dir/index.js";
import { classifyIssue, escapesLexically, type FileKind } from "./classify.js";
import { pathReferences } from "./collect.js";
import { finding, type LintFinding, type Place } from "./finding.js";
import { findFrontMatter } from "./front-matter.js";
import { buildListing, listingSource, type ManifestFunction } from "./listing.js";
import {
  type AgentSource,
  asList,
  asMap,
  asString,
  type CodeFacts,
  type JsonSource,
  type ListingSource,
  type PathStatus,
  type PluginFiles,
  placeOf,
  type ScriptSource,
  type YamlSource,
} from "./source.js";

export const MANIFEST_FILE = "plugin.yaml";

export interface ReadResult {
  /** The plugin folder's real path. */
  readonly root: string;
  readonly files: PluginFiles;
  /** Problems found while reading: YAML, schemas, unknown keys, the code entry. */
  readonly findings: readonly LintFinding[];
}

/** One file read: its YAML (when it is YAML), its data when the schema accepted it, and its problems. */
interface FileRead<T> {
  readonly source: YamlSource | undefined;
  readonly parsed: T | undefined;
  readonly findings: LintFinding[];
}

/** Reads the plugin folder at `dir`; throws INVALID_PLUGIN when it is not a plugin folder. */
export async function readPluginFiles(dir: string): Promise<ReadResult> {
  const root = await pluginRoot(dir);
  const findings: LintFinding[] = [];
  const collect = <T>(read: { findings: readonly LintFinding[] } & T): T => {
    append(findings, read.findings);
    return read;
  };
  const { source: manifest } = collect(
    await readYamlFile(root, MANIFEST_FILE, "manifest", (text, file) => parsePluginManifest(text, { file })),
  );
  const folders = collect(await listFolders(root));
  const agents = [...inlineAgents(manifest), ...collect(await readAgentFiles(root, folders.agents)).agents];
  collect(await readSkills(root, folders.skills));
  const { toolManifests, functions } = collect(await readToolManifests(root, folders.tools));

  const references = pathReferences({ manifest, agents, toolManifests });
  const paths = new Map<string, PathStatus>();
  for (const { value } of references) {
    if (!paths.has(value)) paths.set(value, await pathStatus(root, value));
  }
  const schemaPaths = references.filter((ref) => ref.schema && paths.get(ref.value) === "inside");
  const { schemas } = collect(
    await readSchemas(
      root,
      schemaPaths.map((ref) => ref.value),
    ),
  );
  const scriptPaths = references.filter(
    (ref) => ref.field === "model.script" && paths.get(ref.value) === "inside",
  );
  const { scripts } = collect(
    await readScripts(
      root,
      scriptPaths.map((ref) => ref.value),
    ),
  );
  const { code } = collect(await readCode(root, manifest, paths));
  const { listing } = collect(await measureListing(manifest, code, functions));
  collect(await buildHooks(manifest, code));
  return {
    root,
    files: { manifest, agents, toolManifests, paths, schemas, scripts, code, listing },
    findings,
  };
}

function inlineAgents(manifest: YamlSource | undefined): AgentSource[] {
  if (manifest === undefined) return [];
  return (asList(manifest.raw.agents) ?? []).flatMap((item, index) => {
    const agent = asMap(item);
    return agent === undefined
      ? []
      : [{ ...manifest, format: "inline" as const, base: ["agents", index], agent }];
  });
}

/** The folders lint lists, by name: `agents`, `skills`, `tools`. */
type Folders = Record<(typeof FOLDERS)[number], readonly string[]>;

const FOLDERS = ["agents", "skills", "tools"] as const;

/** What each folder holds; a folder that is a link out of the plugin is a finding, and empty. */
async function listFolders(root: string): Promise<{ findings: LintFinding[] } & Folders> {
  const findings: LintFinding[] = [];
  const listed: Partial<Folders> = {};
  for (const folder of FOLDERS) {
    try {
      listed[folder] = await listInPlugin(root, folder);
    } catch (error) {
      if (!isEscape(error)) throw error;
      findings.push(finding("OZ-S001", { file: folder, line: 1, column: 1 }, error.message));
      listed[folder] = [];
    }
  }
  return { findings, ...(listed as Folders) };
}

async function readAgentFiles(
  root: string,
  names: readonly string[],
): Promise<{ agents: AgentSource[]; findings: LintFinding[] }> {
  const agents: AgentSource[] = [];
  const findings: LintFinding[] = [];
  for (const name of names) {
    const markdown = /\.md$/i.test(name);
    if (!markdown && !/\.ya?ml$/i.test(name)) continue;
    const file = `agents/${name}`;
    const read = await readYamlFile(root, file, markdown ? "markdown-agent" : "yaml-agent", (text) =>
      parseAgentFile(text, { file }),
    );
    append(findings, read.findings);
    if (read.source === undefined) continue;
    agents.push({ ...read.source, format: markdown ? "markdown" : "yaml", base: [], agent: read.source.raw });
  }
  return { agents, findings };
}

async function readSkills(root: string, names: readonly string[]): Promise<{ findings: LintFinding[] }> {
  const findings: LintFinding[] = [];
  for (const name of names) {
    const file = `skills/${name}/SKILL.md`;
    if (!(await isFile(join(root, file)))) continue;
    findings.push(
      ...(await readYamlFile(root, file, "skill", (text) => parseSkillFile(text, { file }))).findings,
    );
  }
  return { findings };
}

async function readToolManifests(
  root: string,
  names: readonly string[],
): Promise<{ toolManifests: YamlSource[]; functions: ManifestFunction[]; findings: LintFinding[] }> {
  const toolManifests: YamlSource[] = [];
  const functions: ManifestFunction[] = [];
  const findings: LintFinding[] = [];
  for (const name of names) {
    if (!/\.tool\.ya?ml$/i.test(name)) continue;
    const file = `tools/${name}`;
    const read = await readYamlFile(root, file, "tool-manifest", (text) => parseToolManifest(text, { file }));
    append(findings, read.findings);
    if (read.source !== undefined) toolManifests.push(read.source);
    if (read.parsed !== undefined) functions.push(manifestFunction(read.parsed));
  }
  return { toolManifests, functions, findings };
}

async function readSchemas(
  root: string,
  files: readonly string[],
): Promise<{ schemas: Map<string, JsonSource>; findings: LintFinding[] }> {
  const schemas = new Map<string, JsonSource>();
  const findings: LintFinding[] = [];
  for (const file of new Set(files)) {
    const read = await readJsonFile(root, file);
    append(findings, read.findings);
    if (read.source !== undefined) schemas.set(file, read.source);
  }
  return { schemas, findings };
}

/** The test-model scripts, each read as the test provider reads it; its problems are OZ-S025. */
async function readScripts(
  root: string,
  files: readonly string[],
): Promise<{ scripts: Map<string, ScriptSource>; findings: LintFinding[] }> {
  const scripts = new Map<string, ScriptSource>();
  const findings: LintFinding[] = [];
  for (const file of new Set(files)) {
    const start: Place = { file, line: 1, column: 1 };
    let text: string;
    try {
      text = await readInPlugin(root, file, { maxBytes: YAML_LIMITS.maxBytes });
    } catch (error) {
      findings.push(unreadableFile(error, start));
      continue;
    }
    let doc: SafeYamlDocument;
    try {
      doc = parseSafeYaml(text, { file });
    } catch (error) {
      findings.push(...unreadable(error, start));
      continue;
    }
    try {
      scripts.set(file, { file, doc, script: parseTestScript(text, file) });
    } catch (error) {
      const issues = issuesOf(error);
      if (issues === undefined) throw error;
      for (const issue of issues) {
        findings.push(
          finding("OZ-S025", { file: issue.file, line: issue.line, column: issue.column }, issue.message),
        );
      }
    }
  }
  return { scripts, findings };
}

/** Runs the code entry when plugin.yaml names one inside the folder and a valid plugin name. */
async function readCode(
  root: string,
  manifest: YamlSource | undefined,
  paths: ReadonlyMap<string, PathStatus>,
): Promise<{ code: CodeFacts; findings: LintFinding[] }> {
  const main = asString(manifest?.raw.main);
  if (manifest === undefined || main === undefined) return { code: { status: "none" }, findings: [] };
  const plugin = asString(manifest.raw.name);
  // A bad path or name has its own finding; the code cannot be run without them.
  if (paths.get(main) !== "inside" || plugin === undefined || nameProblem("plugin", plugin) !== undefined) {
    return { code: { status: "failed" }, findings: [] };
  }
  return loadCode(root, main, plugin, placeOf(manifest, ["main"]));
}

/** The listing of every function, unless the code failed (then it cannot be measured). */
async function measureListing(
  manifest: YamlSource | undefined,
  code: CodeFacts,
  functions: readonly ManifestFunction[],
): Promise<{ listing: ListingSource | undefined; findings: LintFinding[] }> {
  const plugin = asString(manifest?.raw.name);
  if (manifest === undefined || plugin === undefined || code.status === "failed") {
    return { listing: undefined, findings: [] };
  }
  const tools = code.status === "loaded" ? code.registrations.filter(isTool) : [];
  const built = await buildListing(plugin, tools, functions);
  const findings = built.problems.map((problem) =>
    finding(
      "OZ-E004",
      placeOf(manifest, ["main"]),
      `tool '${problem.tool}' failed to build: ${messageOf(problem.error)}`,
    ),
  );
  return { listing: findings.length === 0 ? listingSource(built.listing) : undefined, findings };
}

/**
 * Builds each hook spec the code registers, as a job's hook table does (with the config's
 * defaults), and checks what it builds: a handler under a name that is no hook point would
 * never run. A `build` that throws is left to run time, where it may need the config an
 * operator sets after install.
 */
async function buildHooks(
  manifest: YamlSource | undefined,
  code: CodeFacts,
): Promise<{ findings: LintFinding[] }> {
  if (manifest === undefined || code.status !== "loaded") return { findings: [] };
  const findings: LintFinding[] = [];
  // The config a tenant starts with: the admin specs' defaults, as a job's table builds with.
  const config: Record<string, unknown> = {};
  for (const registration of code.registrations) {
    if (registration.kind === "admin")
      Object.assign(config, (registration as Registration<"admin">).spec.defaultConfig);
  }
  for (const registration of code.registrations) {
    if (registration.kind !== "hook") continue;
    const spec = (registration as Registration<"hook">).spec;
    let handlers: unknown;
    try {
      handlers = await spec.build({ pluginId: spec.pluginId, config });
    } catch {
      continue;
    }
    try {
      checkHookHandlers(handlers, `hook '${spec.name}' of plugin '${spec.pluginId}'`);
    } catch (error) {
      findings.push(
        finding(
          "OZ-E004",
          placeOf(manifest, ["main"]),
          `hook '${registration.name}' builds a handler oz0 would never run: ${messageOf(error)}`,
        ),
      );
    }
  }
  return { findings };
}

function isTool(registration: Registration): registration is Registration<"tool"> {
  return registration.kind === "tool";
}

function manifestFunction(tool: ToolManifest): ManifestFunction {
  return {
    tool: tool.name,
    function: tool.spec.function,
    description: tool.description,
    parameters: tool.spec.parameters as ManifestFunction["parameters"],
  };
}

async function isFile(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isFile() === true;
}

/**
 * Reads one YAML file, or a Markdown file's front matter: the document with positions, then
 * the SDK's parser for its schema. Both kinds of problem become findings.
 */
async function readYamlFile<T>(
  root: string,
  file: string,
  kind: FileKind,
  parse: (text: string, file: string) => T,
): Promise<FileRead<T>> {
  const start: Place = { file, line: 1, column: 1 };
  let text: string;
  try {
    text = await readInPlugin(root, file, { maxBytes: YAML_LIMITS.maxBytes });
  } catch (error) {
    return { source: undefined, parsed: undefined, findings: [unreadableFile(error, start)] };
  }
  let yaml = text;
  let lineOffset = 0;
  if (kind === "markdown-agent" || kind === "skill") {
    const range = findFrontMatter(text);
    if ("problem" in range)
      return { source: undefined, parsed: undefined, findings: [finding("OZ-E002", start, range.problem)] };
    yaml = text.slice(range.start, range.end).replace(/\r$/gm, "");
    lineOffset = range.lineOffset;
  }
  let doc: SafeYamlDocument;
  try {
    doc = parseSafeYaml(yaml, { file, lineOffset });
  } catch (error) {
    return { source: undefined, parsed: undefined, findings: unreadable(error, start) };
  }
  const source: YamlSource = { file, doc, raw: asMap(doc.value) ?? {} };
  try {
    return { source, parsed: parse(text, file), findings: [] };
  } catch (error) {
    const issues = issuesOf(error);
    if (issues === undefined) return { source, parsed: undefined, findings: unreadable(error, start) };
    return {
      source,
      parsed: undefined,
      findings: issues.map((issue) =>
        finding(
          classifyIssue(issue, kind, doc.value),
          { file: issue.file, line: issue.line, column: issue.column },
          issueMessage(issue),
        ),
      ),
    };
  }
}

/**
 * A schema problem's message for a finding. A missing field sits at its map, so the message
 * names the field, as the loader's does (`version: required, but missing`).
 */
function issueMessage(issue: ManifestIssue): string {
  return issue.message === MISSING && issue.path.length > 0
    ? `${formatManifestPath(issue.path)}: ${issue.message}`
    : issue.message;
}

const MISSING = "required, but missing";

/**
 * Adds `items` to `list` one by one: a file of many keys has as many findings, more than a
 * spread into push() can pass as arguments.
 */
function append<T>(list: T[], items: readonly T[]): void {
  for (const item of items) list.push(item);
}

/** A file that cannot be opened: a link out of the folder (OZ-S001), or unreadable. */
function unreadableFile(error: unknown, start: Place): LintFinding {
  if (isEscape(error)) return finding("OZ-S001", start, error.message);
  return finding("OZ-E002", start, `cannot read the file: ${messageOf(error)}`);
}

/** The problems of an INVALID_MANIFEST error, each with its place. */
function issuesOf(error: unknown): readonly ManifestIssue[] | undefined {
  if (!(error instanceof Oz0Error) || error.code !== "INVALID_MANIFEST") return undefined;
  const issues = error.data?.issues;
  return Array.isArray(issues) ? (issues as ManifestIssue[]) : undefined;
}

/** A file that cannot be read as YAML: every syntax problem, or the construct refused. */
function unreadable(error: unknown, start: Place): LintFinding[] {
  const issues = issuesOf(error);
  if (issues !== undefined) {
    return issues.map((issue) =>
      finding("OZ-E002", { file: issue.file, line: issue.line, column: issue.column }, issue.message),
    );
  }
  if (error instanceof Oz0Error && error.code === "UNSAFE_YAML") {
    const line = typeof error.data?.line === "number" ? error.data.line : 1;
    const column = typeof error.data?.column === "number" ? error.data.column : 1;
    // The message starts with file:line:col already; the finding carries those itself.
    const message = error.message.replace(/^[^:]*:\d+:\d+: /, "");
    return [finding("OZ-E002", { file: start.file, line, column }, message)];
  }
  throw error;
}

/** A JSON file an agent names (a JSON Schema): its value, with positions where it reads as YAML. */
async function readJsonFile(
  root: string,
  file: string,
): Promise<{ source?: JsonSource; findings: LintFinding[] }> {
  const start: Place = { file, line: 1, column: 1 };
  let text: string;
  try {
    text = await readInPlugin(root, file);
  } catch (error) {
    return { findings: [unreadableFile(error, start)] };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { findings: [finding("OZ-E002", start, `not JSON: ${messageOf(error)}`)] };
  }
  let doc: SafeYamlDocument | undefined;
  try {
    doc = parseSafeYaml(text, { file });
  } catch {
    // Positions are a convenience: JSON the YAML reader refuses is still read, at line 1.
    doc = undefined;
  }
  return { source: { file, value, doc }, findings: [] };
}

function isInside(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

/** Where a path named in the plugin leads, following links. */
async function pathStatus(root: string, path: string): Promise<PathStatus> {
  if (escapesLexically(path)) return "escapes";
  let real: string;
  try {
    real = await realpath(resolve(root, path));
  } catch {
    return "missing";
  }
  if (!isInside(root, real)) return "link-escapes";
  return (await isFile(real)) ? "inside" : "not-a-file";
}

/** Runs the code entry's setup against a recording host, as the loader does. */
async function loadCode(
  root: string,
  main: string,
  plugin: string,
  place: Place,
): Promise<{ code: CodeFacts; findings: LintFinding[] }> {
  const failed = (message: string) => ({
    code: { status: "failed" } as const,
    findings: [finding("OZ-E004", place, message)],
  });
  const path = await realpath(join(root, main));
  // The modification time in the URL loads an edited entry fresh instead of from the module cache.
  const { mtimeMs } = await stat(path);
  let module: { default?: unknown };
  try {
    module = await import(`${pathToFileURL(path).href}?v=${mtimeMs}`);
  } catch (error) {
    return failed(`the code entry ${main} failed to load: ${messageOf(error)}`);
  }
  let host: ReturnType<typeof createRecordingHost>;
  try {
    assertPluginObject(module.default, plugin);
    host = createRecordingHost(plugin);
    await module.default.setup(host);
  } catch (error) {
    return failed(`setup(host) in ${main} failed: ${messageOf(error)}`);
  }
  return { code: { status: "loaded", registrations: host.registrations() }, findings: [] };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
