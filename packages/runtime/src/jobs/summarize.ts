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
import { countCall } from "../usage/index.js";
import type { JobRun } from "./job-run.js";
import type { AgentSetup } from "./setup.js";

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
    let request: ModelRequest = {
      step: history.steps,
      messages,
      functions: [],
      estimatedInputTokens: estimateTokens(instructions) + estimateTokens(text),
      signal: run.signal,
      sampling: true,
      ...(maxTokens === undefined ? {} : { settings: { max_tokens: maxTokens } }),
    };
    let chosen = setup.model;
    if (run.hooks !== undefined) {
      const checked = await run.hooks.beforeModelCall(request, chosen.id, (name) => name);
      if ("failure" in checked) {
        const model = chosen.id;
        await run.write([
          event("memory_summary", { callId, index, model, refused: checked.failure.message }),
        ]);
        throw new Oz0Error(
          checked.failure.code === "POLICY_VIOLATION" ? "POLICY_VIOLATION" : "HOOK_FAILED",
          `summarizer: ${checked.failure.message}`,
        );
      }
      request = checked.request;
      if (checked.model !== undefined) chosen = await setup.modelFor(checked.model);
    }
    const model = chosen.id;
    const started = performance.now();
    let reply = await chosen.generate(request);
    const ms = Math.round((performance.now() - started) * 1000) / 1000;
    if (run.hooks !== undefined) reply = await run.hooks.afterModelCall(history.steps, model, reply);
    const summary = reply.text ?? (reply.output === undefined ? "" : JSON.stringify(reply.output));
    const usage = {
      input: reply.usage.inputTokens,
      output: reply.usage.outputTokens,
      ...(reply.usage.cachedInputTokens === undefined ? {} : { cached: reply.usage.cachedInputTokens }),
    };
    const agent = `${run.row.plugin}/${run.row.name}`;
    await run.write(
      [
        event("memory_summary", {
          callId,
          index,
          model,
          text: summary,
          usage,
          ...(reply.costUsd === undefined ? {} : { cost_usd: reply.costUsd }),
          ms,
        }),
      ],
      undefined,
      (trx, now) =>
        countCall(
          trx,
          { tenant: run.row.tenant, agent, now },
          { model, input: usage.input, output: usage.output, costUsd: reply.costUsd ?? 0 },
        ),
    );
    return run.lease.redactor.text(summary);
  };
}
