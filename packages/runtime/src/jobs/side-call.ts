// A model call a job makes beside its loop (a memory provider's summary, an MCP server's
// sampling request): it passes the job's pre_llm_call and post_llm_call hooks like a step's
// call, and is recorded (as `record` shapes its event) before its answer is used, counted in
// the tenant's usage in the same write, as the store's trigger counts a step's model_call.
import type { JobFailure, NewEvent } from "../events/index.js";
import type { LanguageModel, ModelReply, ModelRequest } from "../models/index.js";
import { countCall } from "../usage/index.js";
import type { JobRun } from "./job-run.js";
import type { AgentSetup } from "./setup.js";

/** What a side call's event holds: its refusal, or its answer with its usage and time. */
export type SideCallRecord =
  | { readonly model: string; readonly refused: string }
  | {
      readonly model: string;
      readonly text: string;
      readonly usage: { readonly input: number; readonly output: number; readonly cached?: number };
      readonly cost_usd?: number;
      readonly ms: number;
    };

export type SideCallOutcome =
  | { readonly failure: JobFailure }
  | { readonly model: string; readonly reply: ModelReply; readonly text: string };

/** Runs `request` on `model` (or the one a pre_llm_call handler chose), recording it with `record`. */
export async function sideModelCall(
  run: JobRun,
  setup: AgentSetup,
  model: LanguageModel,
  request: ModelRequest,
  record: (fields: SideCallRecord) => NewEvent,
): Promise<SideCallOutcome> {
  const { history } = run;
  let chosen = model;
  let asked = request;
  if (run.hooks !== undefined) {
    const checked = await run.hooks.beforeModelCall(asked, chosen.id, (name) => name);
    if ("failure" in checked) {
      // What the hooks recorded goes to the history with the refusal.
      await run.write([record({ model: chosen.id, refused: checked.failure.message })]);
      return { failure: checked.failure };
    }
    asked = checked.request;
    // A handler may choose another model of the tenant for this call.
    if (checked.model !== undefined) chosen = await setup.modelFor(checked.model);
  }
  const started = performance.now();
  let reply = await chosen.generate(asked);
  const ms = Math.round((performance.now() - started) * 1000) / 1000;
  if (run.hooks !== undefined) reply = await run.hooks.afterModelCall(history.steps, chosen.id, reply);
  const text = reply.text ?? (reply.output === undefined ? "" : JSON.stringify(reply.output));
  const usage = {
    input: reply.usage.inputTokens,
    output: reply.usage.outputTokens,
    ...(reply.usage.cachedInputTokens === undefined ? {} : { cached: reply.usage.cachedInputTokens }),
  };
  const costUsd = reply.costUsd;
  await run.write(
    [
      record({
        model: chosen.id,
        text,
        usage,
        ...(costUsd === undefined ? {} : { cost_usd: costUsd }),
        ms,
      }),
    ],
    undefined,
    (trx, now) =>
      countCall(
        trx,
        { tenant: run.row.tenant, agent: `${run.row.plugin}/${run.row.name}`, now },
        { model: chosen.id, input: usage.input, output: usage.output, costUsd: costUsd ?? 0 },
      ),
  );
  return { model: chosen.id, reply, text };
}
