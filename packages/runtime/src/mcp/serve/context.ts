// What `oz0 mcp serve` offers beside tools: resources (a job's output and trace, a plugin's
// skills), prompts (an agent's instructions with the task, for a client's model to act as that
// agent) and completions of their arguments. Everything is the served scope's: with --agent, that
// agent's jobs, its plugin's skills and itself; without, the tenant's. Reading something outside
// it is the same "unknown" a missing thing is, so a client learns nothing about the rest.
import type {
  GetPromptResult,
  Prompt,
  ReadResourceResult,
  Resource,
} from "@modelcontextprotocol/sdk/types.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { Catalog } from "../../catalog/index.js";
import type { JobStore } from "../../jobs/index.js";

/** Who the resources and prompts are for. */
export interface ContextScope {
  readonly tenant: string;
  readonly agent?: { readonly plugin: string; readonly name: string } | undefined;
}

export const JOB_OUTPUT_TEMPLATE = "oz0://jobs/{id}/output";
export const JOB_TRACE_TEMPLATE = "oz0://jobs/{id}/trace";
export const SKILL_TEMPLATE = "oz0://skills/{plugin}/{skill}";

/** The argument of an agent's prompt: the task. */
export const PROMPT_ARGUMENT = "input";

/** How many values a completion offers at most, as the MCP spec allows. */
const COMPLETION_LIMIT = 100;

const JOB_URI = /^oz0:\/\/jobs\/([^/]+)\/(output|trace)$/;
const SKILL_URI = /^oz0:\/\/skills\/([^/]+)\/([^/]+)$/;

/** The resource templates served: a job's output and trace, a skill. */
export function resourceTemplates() {
  return [
    {
      uriTemplate: JOB_OUTPUT_TEMPLATE,
      name: "job-output",
      title: "A job's status and output",
      description:
        "The status, output and failure of one job (an MCP call's job ID is in its result's _meta).",
      mimeType: "application/json",
    },
    {
      uriTemplate: JOB_TRACE_TEMPLATE,
      name: "job-trace",
      title: "A job's trace",
      description: "Every event of one job, in order, as `oz0 job trace --json` shows them.",
      mimeType: "application/json",
    },
    {
      uriTemplate: SKILL_TEMPLATE,
      name: "skill",
      title: "A plugin's skill",
      description: "A skill's Markdown, as an agent reads it with oz.skill.",
      mimeType: "text/markdown",
    },
  ];
}

/** The skills of the scope's plugins, as resources. */
export async function listSkills(catalog: Catalog, scope: ContextScope): Promise<Resource[]> {
  const entries = await catalog.entries(scope.tenant);
  return entries
    .filter((entry) => entry.kind === "skill" && inScope(scope, entry.plugin))
    .map((entry) => ({
      uri: `oz0://skills/${entry.plugin}/${entry.name}`,
      name: entry.address,
      description: entry.description ?? `skill ${entry.address}`,
      mimeType: "text/markdown",
    }));
}

/** Reads a job's output or trace, or a skill; an unknown URI (or one outside the scope) is InvalidParams. */
export async function readResource(
  catalog: Catalog,
  jobs: JobStore,
  scope: ContextScope,
  uri: string,
): Promise<ReadResourceResult> {
  const job = JOB_URI.exec(uri);
  if (job !== null) {
    const [, id = "", part] = job;
    const row = await jobs.get(decoded(id));
    if (row === undefined || row.tenant !== scope.tenant || !jobInScope(scope, row)) throw unknown(uri);
    const body =
      part === "trace"
        ? await jobs.events(row.id)
        : {
            id: row.id,
            status: row.status,
            output: row.output === null ? null : JSON.parse(row.output),
            failure: row.failure === null ? null : JSON.parse(row.failure),
          };
    return { contents: [{ uri, mimeType: "application/json", text: JSON.stringify(body) }] };
  }
  const skill = SKILL_URI.exec(uri);
  if (skill !== null) {
    const [, plugin = "", name = ""] = skill.map(decoded);
    if (!inScope(scope, plugin)) throw unknown(uri);
    const loaded = await catalog.loadInstalled(scope.tenant, plugin).catch(() => undefined);
    const found = loaded?.skills.find((entry) => entry.name === name);
    if (found === undefined) throw unknown(uri);
    return { contents: [{ uri, mimeType: "text/markdown", text: found.body }] };
  }
  throw unknown(uri);
}

/** The scope's agents, each a prompt taking the task as `input`. */
export async function listPrompts(catalog: Catalog, scope: ContextScope): Promise<Prompt[]> {
  const entries = await catalog.entries(scope.tenant);
  return entries
    .filter(
      (entry) => entry.kind === "agent" && !entry.clash && agentInScope(scope, entry.plugin, entry.name),
    )
    .map((entry) => ({
      name: entry.address,
      title: entry.address,
      description: entry.description ?? `agent ${entry.address}`,
      arguments: [{ name: PROMPT_ARGUMENT, description: "the task for the agent", required: true }],
    }));
}

/** An agent's prompt: one user message with its instructions and the task. */
export async function getPrompt(
  catalog: Catalog,
  scope: ContextScope,
  name: string,
  args: Readonly<Record<string, string>>,
): Promise<GetPromptResult> {
  const agent = await findAgent(catalog, scope, name);
  const input = args[PROMPT_ARGUMENT];
  if (input === undefined || input.trim() === "") {
    throw new McpError(
      ErrorCode.InvalidParams,
      `prompt ${name} needs the argument ${PROMPT_ARGUMENT}: the task for the agent`,
    );
  }
  const text = [
    `Act as the oz0 agent ${name}, following its instructions below, on this task:`,
    "",
    input,
    "",
    `--- instructions of ${name} ---`,
    agent.prompt,
  ].join("\n");
  return {
    description: agent.definition.description,
    messages: [{ role: "user", content: { type: "text", text } }],
  };
}

/** Completes an argument of a prompt or of a resource template; unknown refs are InvalidParams. */
export async function complete(
  catalog: Catalog,
  jobs: JobStore,
  scope: ContextScope,
  ref: { readonly type: string; readonly name?: string; readonly uri?: string },
  argument: { readonly name: string; readonly value: string },
): Promise<{ completion: { values: string[]; total: number; hasMore: boolean } }> {
  let values: string[];
  if (ref.type === "ref/prompt") {
    await findAgent(catalog, scope, ref.name ?? "");
    // The task is free text: there is nothing to offer.
    values = [];
  } else if (ref.uri === JOB_OUTPUT_TEMPLATE || ref.uri === JOB_TRACE_TEMPLATE) {
    const found = await jobs.search({
      tenant: scope.tenant,
      ...(scope.agent === undefined ? {} : { plugin: scope.agent.plugin, name: scope.agent.name }),
      limit: 500,
    });
    values = found.map((row) => row.id);
  } else if (ref.uri === SKILL_TEMPLATE) {
    const skills = await listSkills(catalog, scope);
    const parts = skills.map((skill) => skill.uri.slice("oz0://skills/".length).split("/"));
    values = [
      ...new Set(parts.map(([plugin = "", skill = ""]) => (argument.name === "plugin" ? plugin : skill))),
    ];
  } else {
    throw new McpError(
      ErrorCode.InvalidParams,
      `oz0 has no ${ref.type} ${ref.name ?? ref.uri ?? ""} to complete`,
    );
  }
  const matching = values.filter((value) => value.startsWith(argument.value));
  return {
    completion: {
      values: matching.slice(0, COMPLETION_LIMIT),
      total: matching.length,
      hasMore: matching.length > COMPLETION_LIMIT,
    },
  };
}

async function findAgent(catalog: Catalog, scope: ContextScope, name: string) {
  const [plugin = "", agentName = ""] = name.split("/");
  if (!agentInScope(scope, plugin, agentName)) throw unknownPrompt(name);
  const loaded = await catalog.loadInstalled(scope.tenant, plugin).catch(() => undefined);
  const found = loaded?.agents.find((entry) => entry.definition.name === agentName);
  if (found === undefined) throw unknownPrompt(name);
  return found;
}

/** A URI's part decoded; one that is not valid percent-encoding names nothing. */
function decoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return "";
  }
}

function inScope(scope: ContextScope, plugin: string): boolean {
  return scope.agent === undefined || scope.agent.plugin === plugin;
}

function agentInScope(scope: ContextScope, plugin: string, name: string): boolean {
  return scope.agent === undefined || (scope.agent.plugin === plugin && scope.agent.name === name);
}

function jobInScope(scope: ContextScope, row: { plugin: string | null; name: string }): boolean {
  return scope.agent === undefined || (row.plugin === scope.agent.plugin && row.name === scope.agent.name);
}

function unknown(uri: string): McpError {
  return new McpError(
    ErrorCode.InvalidParams,
    `no resource ${uri}: oz0 serves ${JOB_OUTPUT_TEMPLATE}, ${JOB_TRACE_TEMPLATE} and ${SKILL_TEMPLATE} of the served scope`,
  );
}

function unknownPrompt(name: string): McpError {
  return new McpError(
    ErrorCode.InvalidParams,
    `no prompt ${name}: oz0's prompts are the served agents, by address (<plugin>/<agent>)`,
  );
}
