// The `harness:` options of an agent at Claude Managed Agents (`runtime: remote:anthropic`) and
// its `model:`, read once for lint, install and each run alike. The base URL is not among them:
// a node's operator sets it (OZ0_ANTHROPIC_AGENTS_URL), and the key is the tenant's provider key.

/** The options spec/agent-definition.txt lists for a provider's remote agent. */
export const REMOTE_AGENT_OPTIONS = [
  "tools",
  "requires_approval",
  "max_budget_usd",
  "session_hour_usd",
  "workspace",
  "keep_session",
] as const;

/** The tools of the provider's built-in toolset (`agent_toolset_20260401`), by its names. */
export const TOOLSET_TOOLS = [
  "bash",
  "edit",
  "read",
  "write",
  "glob",
  "grep",
  "web_fetch",
  "web_search",
] as const;
export type ToolsetTool = (typeof TOOLSET_TOOLS)[number];

/** The toolset oz0 configures. */
export const TOOLSET_TYPE = "agent_toolset_20260401";

export interface AnthropicOptions {
  /** The toolset tools the agent may use; the others are disabled. */
  readonly tools: readonly ToolsetTool[];
  /** The tools whose every call waits for a person's approval. */
  readonly requiresApproval: readonly ToolsetTool[];
  readonly maxBudgetUsd: number | undefined;
  readonly sessionHourUsd: number | undefined;
  /** An environment at the provider the session runs in; left out, oz0 creates one for the job. */
  readonly workspace: string | undefined;
  readonly keepSession: boolean;
}

const ENVIRONMENT_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** Reads the options; `problems` says what is wrong with each (an empty list: they are fine). */
export function readAnthropicOptions(harness: Readonly<Record<string, unknown>> | undefined): {
  readonly options: AnthropicOptions;
  readonly problems: readonly string[];
} {
  const given = harness ?? {};
  const problems: string[] = [];
  for (const key of Object.keys(given)) {
    if (key === "api_url") continue; // the manifest schema refuses it already
    if (!(REMOTE_AGENT_OPTIONS as readonly string[]).includes(key)) {
      problems.push(
        `harness.${key} is not an option of an agent at Claude Managed Agents; its options are ${REMOTE_AGENT_OPTIONS.join(", ")}`,
      );
    }
  }
  const tools = toolList(given.tools, "tools", problems);
  const requiresApproval = toolList(given.requires_approval, "requires_approval", problems);
  for (const tool of requiresApproval) {
    if (!tools.includes(tool)) {
      problems.push(
        `harness.requires_approval lists '${tool}', which harness.tools does not give the agent; list it in tools too, or remove it`,
      );
    }
  }
  const amount = (key: string, zero: boolean): number | undefined => {
    const value = given[key];
    if (value === undefined) return undefined;
    if (typeof value === "number" && Number.isFinite(value) && (zero ? value >= 0 : value > 0)) return value;
    problems.push(`harness.${key} is an amount in US dollars: a number ${zero ? "of 0 or more" : "above 0"}`);
    return undefined;
  };
  const maxBudgetUsd = amount("max_budget_usd", false);
  const sessionHourUsd = amount("session_hour_usd", true);
  let workspace: string | undefined;
  if (given.workspace !== undefined) {
    if (typeof given.workspace === "string" && ENVIRONMENT_ID.test(given.workspace))
      workspace = given.workspace;
    else {
      problems.push(
        "harness.workspace is the id of an environment at Claude Managed Agents (such as env_01…) the sessions run in; left out, oz0 creates one for each job",
      );
    }
  }
  const keep = given.keep_session;
  if (keep !== undefined && typeof keep !== "boolean") {
    problems.push(
      "harness.keep_session is true (keep the session after the job) or false (archive it, the default)",
    );
  }
  return {
    options: { tools, requiresApproval, maxBudgetUsd, sessionHourUsd, workspace, keepSession: keep === true },
    problems,
  };
}

function toolList(value: unknown, key: string, problems: string[]): ToolsetTool[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    problems.push(`harness.${key} is a list of the toolset's tools: ${TOOLSET_TOOLS.join(", ")}`);
    return [];
  }
  const found: ToolsetTool[] = [];
  for (const entry of value) {
    if (typeof entry === "string" && (TOOLSET_TOOLS as readonly string[]).includes(entry)) {
      if (!found.includes(entry as ToolsetTool)) found.push(entry as ToolsetTool);
    } else {
      problems.push(
        `harness.${key} lists ${JSON.stringify(entry)}, which is not a tool of Claude Managed Agents' toolset; its tools are ${TOOLSET_TOOLS.join(", ")}`,
      );
    }
  }
  return found;
}

/** The model prefix a remote:anthropic agent's `model:` is written with. */
export const MODEL_PREFIX = "anthropic:";

/**
 * What is wrong with the agent's `model:` for Managed Agents (undefined: nothing): the agent at
 * the provider runs on the model it names, so it is `anthropic:<model>`, with nothing else.
 */
export function anthropicModelProblem(
  model: { readonly use?: unknown; readonly options?: unknown; readonly script?: unknown } | undefined,
): string | undefined {
  const example = 'model: { use: "anthropic:claude-sonnet-4-6" }';
  if (model === undefined) {
    return `names no model:, and the agent at Claude Managed Agents runs on the model it names; write ${example}`;
  }
  const use = typeof model.use === "string" ? model.use : "";
  if (!use.startsWith(MODEL_PREFIX) || use.length === MODEL_PREFIX.length) {
    return `names model '${use}', and the agent at Claude Managed Agents runs on an Anthropic model named anthropic:<model>, not an alias or another provider's; write ${example}`;
  }
  if (model.options !== undefined || model.script !== undefined) {
    return "sets model options or a script, which Claude Managed Agents does not take (the provider makes the model's calls); write the model alone";
  }
  return undefined;
}
