// Reads a plugin folder into memory: plugin.yaml, its agents (inline, YAML or Markdown files),
// skills, and its code entry run against a recording host. Every path the plugin names is
// confined to its folder, and the code's registrations must match the manifest's claims.
import { stat } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import {
  type AgentDefinition,
  isOz0Error,
  Oz0Error,
  type PluginManifest,
  parseAgentFile,
  parsePluginManifest,
  parseSkillFile,
  type SkillFile,
  toOz0Error,
} from "@oz0/sdk";
import {
  assertPluginObject,
  capabilityMismatch,
  createRecordingHost,
  type RecordingHost,
  YAML_LIMITS,
} from "@oz0/sdk/internal";
import { listInPlugin, readInPlugin, resolveInPlugin } from "./confine.js";
import { foreignFormat, loadForeignPlugin } from "./formats/index.js";
import { checkOwnToolRefs, type LoadedToolManifest, loadToolManifests } from "./tool-manifests.js";

export interface LoadedAgent {
  readonly definition: AgentDefinition;
  /** Where the agent is defined, inside the plugin: `plugin.yaml` or `agents/<file>`. */
  readonly file: string;
  /** The system prompt: the instructions file's text, or a Markdown agent's body. */
  readonly prompt: string;
}

export interface LoadedSkill extends SkillFile {
  readonly file: string;
  /** The skill folder's other text files by path inside it (`references/x.md`), read with oz.skill. */
  readonly files?: Readonly<Record<string, string>>;
}

export interface LoadedPlugin {
  /** The plugin folder's real path. */
  readonly dir: string;
  readonly manifest: PluginManifest;
  readonly agents: readonly LoadedAgent[];
  readonly skills: readonly LoadedSkill[];
  /** What the code entry registered; `undefined` for a plugin without `main:`. */
  readonly code: RecordingHost | undefined;
  /** Its `kind: Tool` manifests (`tools/*.tool.yaml`), each a tool beside the code's. */
  readonly toolManifests: readonly LoadedToolManifest[];
}

/**
 * What an oz0 plugin's files declare, read and checked: its manifest, agents and skills. Plain
 * data, the same whenever the same files are read by the same oz0.
 */
export interface PluginDeclarations {
  readonly manifest: PluginManifest;
  readonly agents: readonly LoadedAgent[];
  readonly skills: readonly LoadedSkill[];
}

export interface LoadOptions {
  /**
   * Where the declarations of a folder that never changes (a bundle) are kept: given how to read
   * them, returns them as kept, or reads them and keeps them. Left out, they are read.
   */
  readonly declarations?: (read: () => Promise<PluginDeclarations>) => Promise<PluginDeclarations>;
}

const MANIFEST_FILE = "plugin.yaml";

/** Loads and checks the plugin folder at `dir`; throws `INVALID_MANIFEST` or `INVALID_PLUGIN`. */
export async function loadPluginDir(dir: string, options: LoadOptions = {}): Promise<LoadedPlugin> {
  const root = await pluginRoot(dir);
  if ((await foreignFormat(root)) !== undefined) return loadForeignPlugin(root);
  const read = () => readDeclarations(root);
  const { manifest, agents, skills } = await (options.declarations?.(read) ?? read());
  const code = manifest.main === undefined ? undefined : await runCodeEntry(root, manifest, manifest.main);
  const toolManifests = await loadToolManifests(root, manifest.name);
  checkCapabilities(manifest, code);
  checkDeclaredTools(manifest, code, toolManifests);
  checkOwnToolRefs(manifest.name, agents, toolManifests);
  checkCodeFlows(manifest, agents, code);
  return { dir: root, manifest, agents, skills, code, toolManifests };
}

/** Reads and checks the manifest, agents and skills of the oz0 plugin folder at `root`, its real path. */
async function readDeclarations(root: string): Promise<PluginDeclarations> {
  const manifest = parsePluginManifest(await readText(root, MANIFEST_FILE, "the plugin manifest"), {
    file: MANIFEST_FILE,
  });
  return { manifest, agents: await loadAgents(root, manifest), skills: await loadSkills(root) };
}

/** The real path of the plugin folder `dir`, or `INVALID_PLUGIN` when it is not one. */
export async function pluginRoot(dir: string): Promise<string> {
  const info = await stat(dir).catch(() => undefined);
  if (!info?.isDirectory()) {
    throw new Oz0Error(
      "INVALID_PLUGIN",
      `${dir} is not a plugin folder: it does not exist or is not a folder`,
      {
        data: { detail: "no such folder" },
      },
    );
  }
  const manifest = await stat(join(dir, MANIFEST_FILE)).catch(() => undefined);
  if (!manifest?.isFile() && (await foreignFormat(dir)) === undefined) {
    throw new Oz0Error(
      "INVALID_PLUGIN",
      `${dir} is not a plugin folder: it has no ${MANIFEST_FILE}, .claude-plugin/plugin.json or SKILL.md. Create a plugin.yaml (oz0 init scaffolds one).`,
      { data: { detail: `no ${MANIFEST_FILE}` } },
    );
  }
  return resolveInPlugin(dir, ".", { file: dir, field: "folder" });
}

/** A manifest file of the plugin, read inside its folder and no further than the size limit. */
async function readText(root: string, path: string, what: string): Promise<string> {
  try {
    return await readInPlugin(root, path, { maxBytes: YAML_LIMITS.maxBytes });
  } catch (cause) {
    if (cause instanceof Oz0Error) throw cause;
    throw new Oz0Error("INVALID_PLUGIN", `cannot read ${what} ${path}: ${(cause as Error).message}`, {
      cause,
      data: { detail: `unreadable ${path}` },
    });
  }
}

async function loadAgents(root: string, manifest: PluginManifest): Promise<LoadedAgent[]> {
  const agents: LoadedAgent[] = [];
  for (const definition of manifest.agents ?? []) {
    agents.push({
      definition,
      file: MANIFEST_FILE,
      prompt: await instructions(root, definition, MANIFEST_FILE),
    });
  }
  for (const name of await listInPlugin(root, "agents")) {
    if (!/\.(ya?ml|md)$/i.test(name)) continue;
    const file = `agents/${name}`;
    const parsed = parseAgentFile(await readText(root, file, "the agent file"), { file });
    const prompt = parsed.prompt ?? (await instructions(root, parsed.definition, file));
    agents.push({ definition: parsed.definition, file, prompt });
  }
  const seen = new Map<string, string>();
  for (const agent of agents) {
    const earlier = seen.get(agent.definition.name);
    if (earlier !== undefined) {
      throw new Oz0Error(
        "INVALID_MANIFEST",
        `agent '${agent.definition.name}' is defined twice, in ${earlier} and in ${agent.file}; keep one`,
        {
          data: {
            issues: [
              { file: agent.file, line: 1, column: 1, path: ["name"], message: "agent defined twice" },
            ],
          },
        },
      );
    }
    seen.set(agent.definition.name, agent.file);
    await checkAgentFiles(root, agent);
  }
  return agents;
}

async function instructions(root: string, definition: AgentDefinition, file: string): Promise<string> {
  if (definition.instructions === undefined) return "";
  return readInPlugin(root, definition.instructions, { where: { file, field: "instructions" } });
}

/** The other files an agent names must exist inside the plugin, so a job never finds them missing. */
async function checkAgentFiles(root: string, agent: LoadedAgent): Promise<void> {
  const { definition, file } = agent;
  const named: [string, string | undefined][] = [
    ["input_schema", definition.input_schema],
    ["output_schema", definition.output_schema],
    ["model.script", definition.model?.script],
  ];
  for (const [field, path] of named) {
    if (path !== undefined) await resolveInPlugin(root, path, { file, field });
  }
}

async function loadSkills(root: string): Promise<LoadedSkill[]> {
  const skills: LoadedSkill[] = [];
  for (const name of await listInPlugin(root, "skills")) {
    const file = `skills/${name}/SKILL.md`;
    const found = await stat(join(root, file)).catch(() => undefined);
    if (!found?.isFile()) continue;
    skills.push({ ...parseSkillFile(await readText(root, file, "the skill"), { file }), file });
  }
  return skills;
}

async function runCodeEntry(root: string, manifest: PluginManifest, main: string): Promise<RecordingHost> {
  const path = await resolveInPlugin(root, main, { file: MANIFEST_FILE, field: "main" });
  // The modification time in the URL makes an updated entry load fresh instead of from
  // the module cache.
  const { mtimeMs } = await stat(path);
  const url = `${pathToFileURL(path).href}?v=${mtimeMs}`;
  let module: { default?: unknown };
  try {
    module = await import(url);
  } catch (cause) {
    throw new Oz0Error(
      "INVALID_PLUGIN",
      `plugin '${manifest.name}': its code entry ${main} failed to load: ${(cause as Error).message}`,
      { cause, data: { plugin: manifest.name, detail: "code entry failed to load" } },
    );
  }
  assertPluginObject(module.default, manifest.name);
  const host = createRecordingHost(manifest.name);
  try {
    await module.default.setup(host);
  } catch (cause) {
    // The plugin's own copy of the SDK makes Oz0Errors of another class: its code still holds.
    if (isOz0Error(cause)) throw toOz0Error(cause);
    throw new Oz0Error(
      "INVALID_PLUGIN",
      `plugin '${manifest.name}': setup(host) in ${main} threw: ${(cause as Error).message}`,
      { cause, data: { plugin: manifest.name, detail: "setup threw" } },
    );
  }
  return host;
}

function checkCapabilities(manifest: PluginManifest, code: RecordingHost | undefined): void {
  const declared = manifest.capabilities ?? [];
  const { undeclared, unregistered } = capabilityMismatch(declared, code?.registrations() ?? []);
  if (undeclared.length === 0 && unregistered.length === 0) return;
  const problems: string[] = [];
  if (undeclared.length > 0)
    problems.push(`its code registers ${undeclared.join(", ")}, which capabilities: does not list`);
  if (unregistered.length > 0)
    problems.push(`capabilities: lists ${unregistered.join(", ")}, which its code never registers`);
  throw new Oz0Error(
    "INVALID_PLUGIN",
    `plugin '${manifest.name}': ${problems.join("; ")}. Make capabilities: in plugin.yaml say what the code registers.`,
    {
      data: {
        plugin: manifest.name,
        detail: "capabilities do not match registrations",
        undeclared,
        unregistered,
      },
    },
  );
}

/**
 * Tool IDs in `tools:` and tools the code registers must be the same set (MCP tools aside). A
 * `kind: Tool` manifest's tool may be declared too, and needs not be; one ID is never both
 * registered by the code and described by a manifest.
 */
function checkDeclaredTools(
  manifest: PluginManifest,
  code: RecordingHost | undefined,
  toolManifests: readonly LoadedToolManifest[],
): void {
  const described = new Map(toolManifests.map((tool) => [tool.manifest.name, tool.file]));
  for (const registration of code?.registrations("tool") ?? []) {
    const file = described.get(registration.spec.name);
    if (file === undefined) continue;
    throw new Oz0Error(
      "INVALID_PLUGIN",
      `plugin '${manifest.name}': its code registers tool ${registration.spec.name}, which ${file} describes too; keep one of them.`,
      { data: { plugin: manifest.name, detail: "tool both registered and described" } },
    );
  }
  const declared = new Set(
    (manifest.tools ?? [])
      .filter((tool) => tool.mcp === undefined && !described.has(tool.id))
      .map((tool) => tool.id),
  );
  const registered = new Set(
    (code?.registrations("tool") ?? []).map((registration) => registration.spec.name),
  );
  const notDeclared = [...registered].filter((id) => !declared.has(id));
  const notBuilt = [...declared].filter((id) => !registered.has(id));
  if (notDeclared.length === 0 && notBuilt.length === 0) return;
  const problems: string[] = [];
  if (notDeclared.length > 0)
    problems.push(`its code registers tool ${notDeclared.join(", ")}, which tools: does not declare`);
  if (notBuilt.length > 0) {
    problems.push(
      `tools: declares ${notBuilt.join(", ")}, which neither its code registers nor an mcp: server provides`,
    );
  }
  throw new Oz0Error("INVALID_PLUGIN", `plugin '${manifest.name}': ${problems.join("; ")}.`, {
    data: {
      plugin: manifest.name,
      detail: "declared tools do not match registered tools",
      notDeclared,
      notBuilt,
    },
  });
}

/** Agents, YAML flows and code flows (`host.addFlow`) share one set of names in a plugin. */
function checkCodeFlows(
  manifest: PluginManifest,
  agents: readonly LoadedAgent[],
  code: RecordingHost | undefined,
): void {
  for (const flow of code?.registrations("flow") ?? []) {
    const agent = agents.find((entry) => entry.definition.name === flow.name);
    const yaml = manifest.flows?.some((entry) => entry.name === flow.name) === true;
    if (agent === undefined && !yaml) continue;
    const other = agent === undefined ? "a flow under flows: in plugin.yaml" : `an agent (${agent.file})`;
    throw new Oz0Error(
      "INVALID_PLUGIN",
      `plugin '${manifest.name}': its code registers flow '${flow.name}', and ${other} has that name too; agents and flows share one set of names, so rename one.`,
      { data: { plugin: manifest.name, detail: `flow '${flow.name}' named twice` } },
    );
  }
}
