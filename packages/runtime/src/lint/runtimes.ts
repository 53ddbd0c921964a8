// The agent runtimes this oz0 has. The spec names more (openai-agents, harness:<name>,
// remote:<name>), and the manifest schema reads them all, but an agent that names one this
// oz0 cannot run is refused (OZ-S023: at install, by lint, and at job start for one installed
// before), never run on oz0's own loop in its place.
import { parseAgentRuntime } from "@oz0/sdk/internal";

/** The runtimes an agent may name: `pydantic-ai`, the default, is oz0's own loop. */
export const AGENT_RUNTIMES: readonly string[] = ["pydantic-ai"];

/**
 * Why agent `agent` cannot run on the runtime it names, or `undefined` when it can (or the
 * value is not a runtime at all, which the schema reports).
 * @example runtimeProblem("coder", "harness:codex")
 * // "agent 'coder' names runtime 'harness:codex', which this oz0 does not have: …"
 */
export function runtimeProblem(agent: string, runtime: string | undefined): string | undefined {
  const parsed = parseAgentRuntime(runtime);
  if (parsed === undefined || parsed.kind === "oz0") return undefined;
  const what =
    parsed.kind === "openai-agents"
      ? "the OpenAI Agents SDK does not run in it"
      : parsed.kind === "harness"
        ? "no harness runs in it yet"
        : "no remote agent runs in it yet";
  return (
    `agent '${agent}' names runtime '${runtime}', which this oz0 does not have (${what}); ` +
    `its runtimes: ${AGENT_RUNTIMES.join(", ")} (the default, oz0's own loop). ` +
    "Leave runtime: out to run the agent on oz0's own loop."
  );
}
