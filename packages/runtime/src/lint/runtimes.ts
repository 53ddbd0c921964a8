// The agent runtimes this oz0 has, read from the one registry (runtimes/) that the job engine
// runs agents by. The spec names more (openai-agents, harness:<name>, remote:<name>), and the
// manifest schema reads them all, but an agent that names one not registered is refused
// (OZ-S023: at install, by lint, and at job start and claim for one installed before), never
// run on oz0's own loop in its place.
import { parseAgentRuntime } from "@oz0/sdk/internal";
import { agentRuntimes } from "../runtimes/index.js";

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
  const what = kindRegistered
    ? "no runtime of that name is registered"
    : parsed.kind === "openai-agents"
      ? "the OpenAI Agents SDK does not run in it"
      : parsed.kind === "harness"
        ? "no harness runs in it yet"
        : "no remote agent runs in it yet";
  return (
    `agent '${agent}' names runtime '${runtime}', which this oz0 does not have (${what}); ` +
    `its runtimes: ${agentRuntimes.values().join(", ")}. ` +
    "Leave runtime: out to run the agent on oz0's own loop."
  );
}
