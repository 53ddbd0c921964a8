// `runtime: openai-agents`: the agent's loop is the OpenAI Agents SDK's (`@openai/agents-core`)
// Runner, and oz0 supplies what the loop reaches out to. The SDK's model is `JobModel`, whose
// every call is the job's model step (`session.callModel`: governed, limited, recorded before
// the SDK sees it, and on a resumed run answered from the history without asking the model);
// its tools are the agent's functions, each call run by `session.callFunction` under the id of
// the recorded reply that made it, so policy, approvals, kill switches and budgets decide it.
//
// The SDK holds nothing oz0 cannot rebuild: a resumed run starts the SDK afresh from the job's
// opening, and the replayed steps take it back to where the history ends. Approvals are oz0's
// only (no tool needs the SDK's approval), a wait or stop inside a call is carried out of the
// SDK's run as the session's `RuntimeStop`, the SDK's tracing is off (oz0's own spans and
// events cover the run), and an agent gets no SDK handoffs: it delegates with `oz.delegate`,
// one of its functions, which starts a child job.
import type { AgentRuntime } from "../types.js";

/** The name traces show, and the value of `runtime:` that selects it. */
export const OPENAI_AGENTS = "openai-agents";

export const OPENAI_AGENTS_RUNTIME: AgentRuntime = {
  name: OPENAI_AGENTS,
  selects: [OPENAI_AGENTS],
  models: {
    types: ["openai", "openai-chat"],
    why: "the OpenAI Agents SDK, which speaks only the OpenAI Responses and Chat formats",
  },
  async run(session) {
    const { runOnSdk } = await import("./run.js");
    await runOnSdk(session);
  },
};
