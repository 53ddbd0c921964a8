// A memory provider's summarizer inside a job's function call: the job's model summarizes, as
// one of the job's model calls. It passes the job's limits and its pre_llm_call and
// post_llm_call hooks (budgets refuse it there), is recorded as `memory_summary` before the
// provider gets it, and is counted in the job's and the tenant's usage in the same write. The
// summaries of a call are numbered in the order it asks, so a call run again after a crash
// gets its recorded ones back instead of calling the model again.
import { Oz0Error } from "@oz0/sdk";
import { event } from "../events/index.js";
import { estimateTokens, type ModelMessage, type ModelRequest } from "../models/index.js";
import type { ScopeSummarizer } from "../scope/index.js";
import type { JobRun } from "./job-run.js";
import type { AgentSetup } from "./setup.js";
import { sideModelCall } from "./side-call.js";

/** What the model is told when the provider gives no instructions of its own. */
export const SUMMARY_INSTRUCTIONS =
  "Summarize the text the user gives. Keep every fact, name, number and decision; leave out repetition. Answer with the summary only.";

/** The summarizer of call `callId` of the job `run` runs. */
export function jobSummarizer(run: JobRun, setup: AgentSetup, callId: string): ScopeSummarizer {
  let asked = 0;
  return async (text, options = {}) => {
    asked += 1;
    const index = asked;
    const recorded = run.history.summaries.get(callId)?.[index - 1];
    if (recorded !== undefined) return recorded;
    const maxTokens = options.maxTokens;
    if (maxTokens !== undefined && (!Number.isInteger(maxTokens) || maxTokens < 1)) {
      throw new Oz0Error(
        "INVALID_INPUT",
        `summarizer: maxTokens must be a whole number from 1; it is ${maxTokens}.`,
        {
          data: { issues: [{ path: "maxTokens", message: "must be a whole number from 1" }] },
        },
      );
    }
    const { history } = run;
    const { limits } = setup;
    if (history.tokensUsed >= limits.max_tokens) {
      throw new Oz0Error(
        "POLICY_VIOLATION",
        `summarizer: job ${run.row.id} used ${history.tokensUsed} tokens, at or over limits.max_tokens (${limits.max_tokens}); nothing was summarized`,
      );
    }
    const instructions = options.instructions ?? SUMMARY_INSTRUCTIONS;
    const messages: ModelMessage[] = [
      { role: "system", content: instructions },
      { role: "user", content: text },
    ];
    const request: ModelRequest = {
      step: history.steps,
      messages,
      functions: [],
      estimatedInputTokens: estimateTokens(instructions) + estimateTokens(text),
      signal: run.signal,
      sampling: true,
      ...(maxTokens === undefined ? {} : { settings: { max_tokens: maxTokens } }),
    };
    const called = await sideModelCall(run, setup, setup.model, request, (fields) =>
      event("memory_summary", { callId, index, ...fields }),
    );
    if ("failure" in called) {
      throw new Oz0Error(
        called.failure.code === "POLICY_VIOLATION" ? "POLICY_VIOLATION" : "HOOK_FAILED",
        `summarizer: ${called.failure.message}`,
      );
    }
    return run.lease.redactor.text(called.text);
  };
}
