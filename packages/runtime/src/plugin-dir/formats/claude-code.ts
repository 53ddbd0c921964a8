// A Claude Code plugin folder: `.claude-plugin/plugin.json`, `agents/*.md` (subagents: front
// matter and a body that is the system prompt), `commands/*.md` (slash commands: a prompt a
// person runs with arguments, which oz0 runs as an agent whose input is the arguments),
// `skills/<name>/SKILL.md` and `.mcp.json`. Each part is mapped onto oz0's loaded-plugin model;
// what oz0 cannot honour (hooks, a command's shell lines, Claude Code's own tools) is refused,
// naming the file and field and saying why.
import { stat } from "node:fs/promises";
import { join } from "node:path";
import { type AgentDefinition, isOz0Error, parsePluginManifest } from "@oz0/sdk";
import { parseYaml, stringifyYaml, YAML_LIMITS } from "@oz0/sdk/internal";
import { listInPlugin, readInPlugin } from "../confine.js";
import type { LoadedAgent, LoadedPlugin, LoadedSkill } from "../load.js";
import { importMcpServers } from "../mcp-servers.js";
import { frontMatter, Refusals, readForeignSkill } from "./common.js";

export const CLAUDE_CODE_FORMAT = "Claude Code plugin";
const MANIFEST = ".claude-plugin/plugin.json";

/** Whether `root` is a Claude Code plugin: it has `.claude-plugin/plugin.json`. */
export async function isClaudeCodePlugin(root: string): Promise<boolean> {
  return (await stat(join(root, MANIFEST)).catch(() => undefined))?.isFile() === true;
}

/** plugin.json keys that only describe the plugin: oz0 keeps them in the bundle, and they change nothing. */
const DESCRIPTIVE = new Set(["author", "homepage", "repository", "license", "keywords"]);
/** plugin.json keys that move a component from its default place, which oz0 does not follow. */
const PLACES = new Set([
  "commands",
  "agents",
  "skills",
  "hooks",
  "mcpServers",
  "outputStyles",
  "lspServers",
  "monitors",
  "userConfig",
  "channels",
  "dependencies",
]);

/** Folders and files with a Claude Code meaning that oz0 has not, and why each is refused. */
const REFUSED_PLACES: readonly [string, string][] = [
  [
    "hooks",
    "runs shell commands on Claude Code events (PreToolUse, Stop, ...); oz0 has no hook point that runs a shell command, and its hooks are code a plugin registers (host.addHook). Remove hooks/, or write the hook as oz0 plugin code",
  ],
  ["output-styles", "changes Claude Code's system prompt style; oz0 has no output styles"],
  [".lsp.json", "starts language servers for Claude Code's editor features; oz0 has none"],
  ["settings.json", "sets Claude Code settings; oz0 has no such settings"],
  ["bin", "adds executables to Claude Code's Bash tool; oz0 has no Bash tool"],
  ["monitors", "runs background monitors in Claude Code; oz0 has none"],
];

/** Subagent front matter keys, each mapped or refused. */
const AGENT_REFUSED: Readonly<Record<string, string>> = {
  permissionMode: "sets Claude Code's permission mode; oz0's policy rules decide what an agent may do",
  mcpServers:
    "starts MCP servers for the subagent; declare them as an oz0 plugin (oz0 mcp import) and name its tools",
  hooks: "runs shell commands on the subagent's events; oz0 has no such hook point",
  skills: "preloads skills into the subagent's context; an oz0 agent reads its plugin's skills with oz.skill",
  memory: "gives the subagent Claude Code's memory folder; oz0 has no such folder",
  background:
    "runs the subagent in the background of a Claude Code session; oz0 has no session to run it beside",
  isolation: "runs the subagent in a git worktree; oz0 has no worktree to give it",
  disallowedTools: "takes tools away from Claude Code's set; an oz0 agent has only the tools it lists",
  maxTurns: "is Claude Code's turn limit; set limits in an oz0 agent file",
  effort: "is Claude Code's effort level; oz0 takes model options from the tenant's alias",
  initialPrompt:
    "is sent by Claude Code when the subagent starts a session; oz0 agents start from their input",
};
/** Slash command front matter keys oz0 refuses, and why. */
const COMMAND_REFUSED: Readonly<Record<string, string>> = {
  "allowed-tools":
    "grants Claude Code's tools (Bash, Read, ...) to the command, which oz0 does not have; the command's agent gets oz0's built-ins only. Remove allowed-tools:, or write the command as an oz0 agent that lists oz0 tools",
  "disable-model-invocation":
    "keeps models from running the command; oz0 cannot keep another plugin's agents from delegating to a command's agent, so it does not take the promise. Remove the key",
};

/** Claude Code's model shorthands, taken as tenant model aliases of the same name. */
const MODEL_ALIASES = new Set(["sonnet", "opus", "haiku"]);

/** Skill front matter keys Claude Code adds to Agent Skills, and why oz0 refuses each. */
const SKILL_EXTRA: Readonly<Record<string, string>> = {
  version: "",
  "argument-hint": "is the hint for a slash command a person types; oz0 has no slash commands",
  "disable-model-invocation":
    "makes the skill a slash command only; oz0 skills are read by agents, so remove it",
  "user-invocable": "hides the skill from Claude Code's / menu; oz0 has no such menu",
  model: "switches Claude Code's model while the skill is active; an oz0 skill does not choose the model",
  effort: "switches Claude Code's effort level while the skill is active; an oz0 skill does not",
  context: "runs the skill in a forked Claude Code subagent; oz0 skills are read, not run",
  agent: "names the subagent a forked skill runs in; oz0 skills are read, not run",
  hooks: "runs shell commands while the skill is active; oz0 has no such hook point",
  paths: "activates the skill for matching files in Claude Code; oz0 agents choose skills by description",
  shell: "is the shell for the skill's !`command` lines; oz0 runs no shell from a skill",
};

/** Reads the Claude Code plugin at `root`; throws INVALID_PLUGIN listing each refusal. */
export async function loadClaudeCodePlugin(root: string): Promise<LoadedPlugin> {
  const refusals = new Refusals();
  const meta = await readManifest(root, refusals);
  for (const [place, why] of REFUSED_PLACES) {
    if ((await stat(join(root, place)).catch(() => undefined)) !== undefined) refusals.add(place, "", why);
  }
  const subagents = await readAgents(root, refusals);
  const agents = [...subagents, ...(await readCommands(root, subagents, refusals))];
  const tools = typeof meta.name === "string" ? await readMcpServers(root, meta.name, refusals) : [];
  const skills: LoadedSkill[] = [];
  for (const name of await listInPlugin(root, "skills")) {
    const dir = `skills/${name}`;
    if ((await stat(join(root, dir, "SKILL.md")).catch(() => undefined))?.isFile() !== true) continue;
    const skill = await readForeignSkill(root, dir, refusals, SKILL_EXTRA);
    if (skill !== undefined) skills.push(skill);
  }
  refusals.throwIfAny(root, CLAUDE_CODE_FORMAT);
  let manifest: LoadedPlugin["manifest"];
  try {
    const tooled = tools.length === 0 ? meta : { ...meta, tools };
    manifest = parsePluginManifest(
      stringifyYaml({ ...tooled, agents: agents.map((agent) => agent.definition) }),
      {
        file: MANIFEST,
      },
    );
  } catch (error) {
    if (!isOz0Error(error)) throw error;
    const issues = error.data?.issues as { path: (string | number)[]; message: string }[] | undefined;
    for (const issue of issues ?? [{ path: [], message: error.message }]) {
      const [top, index, field] = issue.path;
      const agent = top === "agents" && typeof index === "number" ? agents[index] : undefined;
      if (agent !== undefined) refusals.add(agent.file, String(field ?? ""), issue.message);
      else refusals.add(MANIFEST, String(top ?? ""), issue.message);
    }
    refusals.throwIfAny(root, CLAUDE_CODE_FORMAT);
    throw error;
  }
  // The parsed definitions carry the schema's defaults; the agents stay defined by their files.
  const parsed = manifest.agents ?? [];
  const loaded = agents.map((agent, index) => ({ ...agent, definition: parsed[index] ?? agent.definition }));
  return {
    dir: root,
    manifest: { ...manifest, agents: undefined },
    agents: loaded,
    skills,
    code: undefined,
    toolManifests: [],
  };
}

async function readManifest(root: string, refusals: Refusals): Promise<Record<string, unknown>> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readInPlugin(root, MANIFEST, { maxBytes: YAML_LIMITS.maxBytes }));
  } catch (error) {
    refusals.add(MANIFEST, "", `is not JSON: ${(error as Error).message}`);
    return {};
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    refusals.add(MANIFEST, "", "is not a JSON object");
    return {};
  }
  const meta: Record<string, unknown> = { version: "1.0.0" };
  for (const [key, value] of Object.entries(parsed)) {
    if (key === "name" || key === "version" || key === "description") meta[key] = value;
    else if (DESCRIPTIVE.has(key)) continue;
    else if (PLACES.has(key))
      refusals.add(
        MANIFEST,
        key,
        "names a place or setting for components that oz0 does not read; oz0 reads agents/*.md, commands/*.md and skills/<name>/SKILL.md at their default places",
      );
    else refusals.add(MANIFEST, key, "is not a plugin.json field oz0 knows; remove it");
  }
  if (typeof meta.name !== "string") refusals.add(MANIFEST, "name", "is missing; a plugin needs a name");
  return meta;
}

const MCP_FILE = ".mcp.json";

/**
 * The plugin's `.mcp.json` as MCP-backed tools, one per server, mapped as `oz0 mcp import` maps
 * them. The file stays in the plugin's bundle, so a server whose spec holds a secret, or a
 * `${VAR}` Claude Code would expand, is refused: oz0 keeps MCP secrets in the tenant, encrypted.
 */
async function readMcpServers(root: string, plugin: string, refusals: Refusals): Promise<unknown[]> {
  if ((await stat(join(root, MCP_FILE)).catch(() => undefined)) === undefined) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readInPlugin(root, MCP_FILE, { maxBytes: YAML_LIMITS.maxBytes }));
  } catch (error) {
    refusals.add(MCP_FILE, "", `is not JSON: ${(error as Error).message}`);
    return [];
  }
  // Claude Code takes the servers at the top or under mcpServers.
  const wrapped =
    parsed !== null && typeof parsed === "object" && !Array.isArray(parsed) && !("mcpServers" in parsed)
      ? { mcpServers: parsed }
      : parsed;
  const text = JSON.stringify(wrapped);
  const expansion = /\$\{[^}]*\}/.exec(text);
  if (expansion !== null) {
    refusals.add(
      MCP_FILE,
      "",
      `holds ${expansion[0]}, which Claude Code expands when it starts the server and oz0 does not; write the value itself, or for a secret leave it out and set it in the tenant after install (oz0 mcp secret set ${plugin}/<tool> env NAME)`,
    );
    return [];
  }
  try {
    const imported = importMcpServers(text, { file: MCP_FILE, plugin, env: {} });
    if (imported.secrets.length > 0) {
      const named = imported.secrets.map(
        (secret) => `${secret.tool} ${secret.kind} ${secret.name} (${secret.why})`,
      );
      refusals.add(
        MCP_FILE,
        "",
        `holds secrets in clear: ${named.join(", ")}. oz0 keeps MCP secrets in the tenant, encrypted, never in a plugin's files: remove them from the file, install, then set each with oz0 mcp secret set ${plugin}/<tool> <env|header> <name>`,
      );
      return [];
    }
    return ((parseYaml(imported.manifest) as { tools?: unknown[] }).tools ?? []) as unknown[];
  } catch (error) {
    if (!isOz0Error(error)) throw error;
    refusals.add(MCP_FILE, "", error.message.replace(/^\.mcp\.json:? ?/, ""));
    return [];
  }
}

async function readAgents(root: string, refusals: Refusals): Promise<LoadedAgent[]> {
  const agents: LoadedAgent[] = [];
  for (const name of await listInPlugin(root, "agents")) {
    if (!/\.md$/i.test(name)) continue;
    const file = `agents/${name}`;
    const read = frontMatter(
      await readInPlugin(root, file, { maxBytes: YAML_LIMITS.maxBytes }),
      file,
      refusals,
    );
    if (read === undefined) continue;
    const { fields, lines } = read;
    const definition: Record<string, unknown> = { input: "text", output: "text" };
    for (const [key, value] of Object.entries(fields)) {
      const line = lines[key] ?? 1;
      if (key === "name" || key === "description") definition[key] = value;
      else if (key === "color") continue;
      else if (key === "model") mapModel(definition, value, { file, line }, refusals);
      else if (key === "tools") {
        const tools = typeof value === "string" ? value.split(",").map((tool) => tool.trim()) : value;
        const list = Array.isArray(tools) ? tools.filter((tool) => tool !== "") : [];
        if (list.length > 0)
          refusals.add(
            file,
            key,
            `names Claude Code's tools (${list.join(", ")}), which oz0 does not have; an oz0 agent is granted oz0 tools by address. Remove tools: and grant oz0 tools in an oz0 agent file`,
            line,
          );
      } else if (AGENT_REFUSED[key] !== undefined) refusals.add(file, key, AGENT_REFUSED[key] ?? "", line);
      else refusals.add(file, key, "is not a subagent field oz0 knows; remove it", line);
    }
    if (read.body.trim() === "")
      refusals.add(file, "", "has an empty body; a subagent's body is its system prompt");
    agents.push({ definition: definition as unknown as AgentDefinition, file, prompt: read.body });
  }
  return agents;
}

/** `model:` of a subagent or a command: inherit (the plugin's model), or a tenant alias sonnet, opus, haiku. */
function mapModel(
  definition: Record<string, unknown>,
  value: unknown,
  where: { readonly file: string; readonly line: number },
  refusals: Refusals,
): void {
  if (value === "inherit") return;
  if (typeof value === "string" && MODEL_ALIASES.has(value)) definition.model = { use: value };
  else
    refusals.add(
      where.file,
      "model",
      `is ${JSON.stringify(value)}; oz0 takes inherit (the plugin's model) or sonnet, opus, haiku, each the tenant's model alias of that name`,
      where.line,
    );
}

/** Where a command's arguments go in its prompt, now that they are the job's input. */
const ARGUMENTS_IN_PROMPT = "the arguments the person gave (the user message)";

/**
 * `commands/<name>.md`: each slash command becomes agent `<name>`, which a person runs with
 * `oz0 run <plugin>/<name> "arguments"`. The body is its system prompt, `$ARGUMENTS` standing
 * for the job's input; what Claude Code does to a body before the model reads it (run !`shell`
 * lines, read @files, split $1 $2 ...) oz0 does not, so a body that needs it is refused.
 */
async function readCommands(
  root: string,
  subagents: readonly LoadedAgent[],
  refusals: Refusals,
): Promise<LoadedAgent[]> {
  const commands: LoadedAgent[] = [];
  const taken = new Map(subagents.map((agent) => [agent.definition.name, agent.file]));
  for (const entry of await listInPlugin(root, "commands")) {
    const file = `commands/${entry}`;
    if ((await stat(join(root, file)).catch(() => undefined))?.isDirectory() === true) {
      refusals.add(
        file,
        "",
        "is a folder of namespaced commands; oz0 reads commands/*.md at the top, one agent each: move the files up, each named for its agent",
      );
      continue;
    }
    if (!/\.md$/i.test(entry)) continue;
    const text = await readInPlugin(root, file, { maxBytes: YAML_LIMITS.maxBytes });
    // A command needs no front matter: its first line describes it then.
    const read = text.startsWith("---")
      ? frontMatter(text, file, refusals)
      : { fields: {}, body: text, lines: {} };
    if (read === undefined) continue;
    const name = entry.replace(/\.md$/i, "");
    const definition: Record<string, unknown> = { name, input: "text", output: "text" };
    let hint: string | undefined;
    for (const [key, value] of Object.entries(read.fields)) {
      const line = read.lines[key] ?? 1;
      if (key === "description") definition.description = value;
      else if (key === "argument-hint") hint = String(value);
      else if (key === "model") mapModel(definition, value, { file, line }, refusals);
      else if (COMMAND_REFUSED[key] !== undefined) refusals.add(file, key, COMMAND_REFUSED[key] ?? "", line);
      else refusals.add(file, key, "is not a slash command field oz0 knows; remove it", line);
    }
    const body = read.body;
    refuseExpansions(file, body, refusals);
    if (body.trim() === "") refusals.add(file, "", "has an empty body; a command's body is its prompt");
    const described = typeof definition.description === "string" ? definition.description : firstLine(body);
    definition.description = hint === undefined ? described : `${described} Arguments: ${hint}`;
    const clash = taken.get(name);
    if (clash !== undefined) {
      refusals.add(
        file,
        "",
        `is agent ${name}, which ${clash} defines too; a command and a subagent share oz0's agent names, so rename one`,
      );
    }
    taken.set(name, file);
    commands.push({
      definition: definition as unknown as AgentDefinition,
      file,
      prompt: body.replaceAll("$ARGUMENTS", ARGUMENTS_IN_PROMPT),
    });
  }
  return commands;
}

/** Refuses what Claude Code expands in a command's body before the model reads it, each by its first line. */
function refuseExpansions(file: string, body: string, refusals: Refusals): void {
  const lines = body.split(/\r?\n/);
  // The body starts after the front matter; its lines are counted within the body.
  const at = (pattern: RegExp) => {
    const index = lines.findIndex((line) => pattern.test(line));
    return index === -1 ? undefined : index + 1;
  };
  const shell = at(/!`[^`]+`/);
  if (shell !== undefined) {
    refusals.add(
      file,
      "",
      `body line ${shell} runs a shell command (!\`...\`) whose output Claude Code puts in the prompt; oz0 runs no shell for a prompt. Have the agent call an oz0 tool for it instead`,
    );
  }
  const positional = at(/\$[1-9]/);
  if (positional !== undefined) {
    refusals.add(
      file,
      "",
      `body line ${positional} takes one argument by position ($1, $2, ...); oz0 gives the command its arguments as one text: use $ARGUMENTS`,
    );
  }
  const reference = at(/(^|\s)@[\w.-]*[/.][\w./-]+/);
  if (reference !== undefined) {
    refusals.add(
      file,
      "",
      `body line ${reference} references a file with @path, which Claude Code reads into the prompt; oz0 reads no file into a prompt. Put the text in a skill the agent reads with oz.skill`,
    );
  }
}

/** A Markdown text's first line of words, as Claude Code describes a command without a description. */
function firstLine(body: string): string {
  const line = body.split(/\r?\n/).find((text) => text.trim() !== "") ?? "";
  return line
    .replace(/^#+\s*/, "")
    .trim()
    .slice(0, 1024);
}
