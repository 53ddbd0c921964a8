// The agent runtimes this oz0 has, read from the one registry (runtimes/) that the job engine
// runs agents by. The spec names more (openai-agents, harness:<name>, remote:<name>), and the
// manifest schema reads them all, but an agent that names one not registered is refused
// (OZ-S023: at install, by lint, and at job start and claim for one installed before), never
// run on oz0's own loop in its place.
import { parseAgentRuntime } from "@oz0/sdk/internal";
import type { ModelRoute } from "../models/index.js";
import { A2A_RUNTIME_NAME, ANTHROPIC_RUNTIME_NAME, agentRuntimes } from "../runtimes/index.js";

/**
 * Why agent `agent` cannot run on the runtime it names, or `undefined` when it can (or the
 * value is not a runtime at all, which the schema reports).
 * @example runtimeProblem("coder", "harness:codex")
 * // "agent 'coder' names runtime 'harness:codex', which this oz0 does not have: …"
 */
export function runtimeProblem(agent: string, runtime: string | undefined): string | undefined {
  const parsed = parseAgentRuntime(runtime);
  if (parsed === undefined || agentRuntimes.select(runtime) !== undefined) return undefined;
  // Another runtime of the same kind registered: only this name is missing.
  const kindRegistered = agentRuntimes
    .selectors()
    .some((value) => parseAgentRuntime(value)?.kind === parsed.kind);
  const remotes = agentRuntimes.selectors().filter((value) => parseAgentRuntime(value)?.kind === "remote");
  const what =
    parsed.kind === "remote"
      ? remotes.length === 0
        ? "no remote runtime is registered"
        : `its remote runtimes are ${remotes.map(describeRemote).join(", ")}`
      : kindRegistered
        ? "no runtime of that name is registered"
        : "no harness runs in it yet";
  return (
    `agent '${agent}' names runtime '${runtime}', which this oz0 does not have (${what}); ` +
    `its runtimes: ${agentRuntimes.values().join(", ")}. ` +
    "Leave runtime: out to run the agent on oz0's own loop."
  );
}

/** A remote runtime's value, with what it is when it is one of oz0's own. */
function describeRemote(value: string): string {
  if (value === A2A_RUNTIME_NAME) return `${value} (an outside agent over A2A)`;
  if (value === ANTHROPIC_RUNTIME_NAME) return `${value} (an agent at Claude Managed Agents)`;
  return value;
}

/**
 * Why agent `agent` cannot run on its runtime with the model `route` leads to (OZ-S031: lint,
 * install and each claim), or `undefined` when that runtime takes the model's provider, or
 * takes any.
 * @example runtimeModelProblem("clerk", "openai-agents", { model: "anthropic:claude-sonnet-4-5", provider: "anthropic", type: "anthropic" })
 * // "agent 'clerk' runs on runtime openai-agents, the OpenAI Agents SDK, which speaks only …"
 */
export function runtimeModelProblem(
  agent: string,
  runtime: string | undefined,
  route: ModelRoute,
): string | undefined {
  const selected = agentRuntimes.select(runtime);
  const models = selected?.models;
  if (selected === undefined || models === undefined) return undefined;
  if (route.type !== undefined && route.type !== "test" && models.types.includes(route.type))
    return undefined;
  const served = route.fallback
    ? `its model alias ${route.via} is not set, so the offline test model would serve it`
    : `its model ${route.via === undefined ? route.model : `${route.via} (${route.model})`} is served by ` +
      (route.type === "test"
        ? "the offline test provider"
        : route.type === undefined
          ? `provider ${route.provider}, which is not one of oz0's built-in types`
          : `provider ${route.provider} of type ${route.type}`);
  return (
    `agent '${agent}' runs on runtime ${selected.name}, ${models.why}, but ${served}. ` +
    `Choose a model of a provider of type ${models.types.join(" or ")} (${models.types.map((type) => `${type}:<model>`).join(", ")}, or an alias of one), ` +
    "or leave runtime: out to run the agent on oz0's own loop, which takes any provider."
  );
}
