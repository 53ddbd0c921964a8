// One model step: check the limits, call the model with the conversation so far, and record
// the reply before anything uses it. A reply with calls leaves them pending for the tool steps;
// a final answer ends the job (or, in a chat, waits for the person) in the same write.
import { isOz0Error } from "@oz0/sdk";
import { buildCard } from "../cards/index.js";
import { event, failureOf, type JobFailure, type ModelCallRecord, type NewEvent } from "../events/index.js";
import type { ModelReply, ModelRequest } from "../models/index.js";
import { argumentIssues, formatIssues } from "../tools/index.js";
import { JOB_CONTROL_BUILTINS } from "./builtins.js";
import { waitsForApproval } from "./gate.js";
import type { JobRun } from "./job-run.js";
import { callTarget } from "./lazy-tools.js";
import type { AgentSetup } from "./setup.js";
import { offeredNow } from "./toolset.js";

/** How many times a structured answer that does not match the output schema goes back to the model. */
export const OUTPUT_RETRIES = 2;

/** Runs one model step; true when the job stopped (it ended or waits). */
export async function modelStep(run: JobRun, setup: AgentSetup): Promise<boolean> {
  const { history } = run;
  const limit = limitFailure(run, setup);
  if (limit !== undefined) return run.fail(limit);
  const step = history.steps + 1;
  const offered = offeredNow(setup.toolset, {
    plugin: run.row.plugin,
    manifest: setup.plugin.manifest,
    tenantGrant: setup.tenantGrant,
    resolver: setup.resolver,
    lazy: setup.definition.tool_loading === "lazy",
  });
  const request: ModelRequest = {
    step,
    messages: history.conversation.messages,
    functions: offered instanceof Promise ? await offered : offered,
    outputSchema: setup.outputSchema,
    estimatedInputTokens: history.conversation.tokens,
    signal: run.signal,
    conversation: run.conversation,
  };
  const answered = await callModel(run, setup, request);
  if (answered === true) return true;
  const { reply, ms } = answered;
  const { calls, events } = modelCallEvents(run, setup, step, reply, ms, answered.model);
  if (calls.length > 0) {
    // The first call's tool_call goes with the reply, saving a write per step; the call runs
    // next, as the tool step of a call recorded but not yet run.
    const first = calls[0]!;
    const called = setup.toolset.functions.get(first.name);
    // oz.call_tool is recorded as the function it names.
    const target = called === undefined ? undefined : callTarget(called, first.args, setup.toolset.lazy);
    const fn = target === undefined || "error" in target ? undefined : target.fn;
    // A call an ask rule holds records its tool_call once a person approved it; one whose
    // arguments a pre_tool_call hook may change, once the hook has run, so the record has the
    // arguments the function runs with.
    const held = fn !== undefined && waitsForApproval(run, fn);
    const rewritable = run.hooks?.bus.has("pre_tool_call") === true;
    if (
      target !== undefined &&
      !("error" in target) &&
      !held &&
      !rewritable &&
      !(target.fn.plugin === undefined && JOB_CONTROL_BUILTINS.has(target.fn.function))
    ) {
      const key = `${run.row.id}:${first.id}`;
      const { fn: called, args } = target;
      events.push(
        event("tool_call", {
          callId: first.id,
          name: called.modelName,
          address: called.address,
          key,
          attempt: 1,
          args,
        }),
      );
      run.recordedWithReply(first.id);
    }
    await run.write(events);
    return false;
  }
  return answer(run, setup, step, reply, events);
}

/**
 * Ends the job with a final answer (checked against the output schema), or in a chat waits
 * for the person; false when the answer went back to the model for not matching the schema.
 */
export async function answer(
  run: JobRun,
  setup: AgentSetup,
  step: number,
  reply: { readonly text?: string | undefined; readonly output?: unknown },
  events: readonly NewEvent[],
): Promise<boolean> {
  const { history } = run;
  if (run.row.mode === "chat") {
    // Each of a chat's answers goes out to the person: user_output may rewrite or withhold it.
    if (run.hooks?.bus.has("user_output") === true) {
      const said = await run.hooks.chatReply(reply.text ?? reply.output ?? "");
      if ("failure" in said) return run.fail(said.failure, events);
      if (said.changed) events = withReplyText(events, said.content);
    }
    return run.wait({ kind: "chat" }, events);
  }
  if (setup.outputSchema === undefined) {
    return run.end({ status: "succeeded", output: reply.text ?? JSON.stringify(reply.output ?? "") }, events);
  }
  const output = reply.output ?? parseJson(reply.text);
  const issues = argumentIssues(setup.outputSchema, output);
  if (issues.length === 0) {
    return run.end({ status: "succeeded", output, card: buildCard(setup.outputSchema, output) }, events);
  }
  const problems = formatIssues(issues);
  if (history.rejectedOutputs < OUTPUT_RETRIES) {
    await run.write([...events, event("output_rejected", { step, problems })]);
    return false;
  }
  return run.fail(
    {
      kind: "invalid_output",
      message: `the answer did not match ${setup.definition.output_schema} after ${OUTPUT_RETRIES} retries: ${problems}`,
    },
    events,
  );
}

/**
 * Calls the model through the job's hooks (pre_llm_call may rewrite the request or refuse it,
 * post_llm_call the reply): the reply and its time, or true when the job stopped instead.
 */
export async function callModel(
  run: JobRun,
  setup: AgentSetup,
  request: ModelRequest,
): Promise<{ readonly reply: ModelReply; readonly ms: number; readonly model: string } | true> {
  const step = request.step;
  // Streamed text is redacted as it comes, as the recorded reply is when it is written, and goes
  // to this run's listener and to the job's live feed alike.
  const onText = run.listeners.onText;
  const live = run.live;
  const streamed = run.lease.redactor.stream((text) => {
    onText?.(text);
    live.text(step, text);
  });
  request = { ...request, onText: (delta) => streamed.write(delta) };
  // pre_llm_call may rewrite the request's messages and functions, or refuse the call (budgets).
  // A handler may also choose another model for this call.
  let model = setup.model;
  if (run.hooks !== undefined) {
    const addressOf = (name: string) => setup.toolset.functions.get(name)?.address ?? name;
    const checked = await run.hooks.beforeModelCall(request, setup.model.id, addressOf);
    if ("failure" in checked) return run.fail(checked.failure);
    request = checked.request;
    if (checked.model !== undefined) {
      try {
        model = await setup.modelFor(checked.model);
      } catch (error) {
        streamed.end();
        return run.fail(failureOf(error, "model_error"));
      }
    }
  }
  const started = performance.now();
  let reply: ModelReply;
  try {
    reply = await model.generate(request);
  } catch (error) {
    streamed.end();
    await live.endStep(step);
    return stopped(run) ?? run.fail(failureOf(error, "model_error"));
  }
  // The step's text is all out, to every process, before its model_call is written.
  streamed.end();
  const ended = live.endStep(step);
  if (ended !== undefined) await ended;
  const ms = Math.round((performance.now() - started) * 1000) / 1000;
  // post_llm_call may rewrite the reply before the job records or uses it.
  if (run.hooks !== undefined) reply = await run.hooks.afterModelCall(step, model.id, reply);
  return { reply, ms, model: model.id };
}

/** The limit a next model call would go past, as the job's failure; undefined when none. */
export function limitFailure(run: JobRun, setup: AgentSetup): JobFailure | undefined {
  const { history } = run;
  const { limits } = setup;
  if (history.steps >= limits.max_turns) {
    return {
      kind: "max_turns",
      message: `the job made ${history.steps} model calls, the most limits.max_turns (${limits.max_turns}) allows, without an answer`,
    };
  }
  if (history.tokensUsed >= limits.max_tokens) {
    return {
      kind: "token_limit",
      message: `the job's model calls used ${history.tokensUsed} tokens, at or over limits.max_tokens (${limits.max_tokens})`,
    };
  }
  if (limits.max_cost_usd !== undefined && history.costUsd >= limits.max_cost_usd) {
    return {
      kind: "budget_exceeded",
      message: `the job's model calls cost $${history.costUsd.toFixed(4)}, at or over its routine's limits.max_cost_usd ($${limits.max_cost_usd})`,
    };
  }
  return undefined;
}

/** A reply's record: its calls with the ids the tool steps use, and the events of the step. */
export function modelCallEvents(
  run: JobRun,
  setup: AgentSetup,
  step: number,
  reply: ModelReply,
  ms: number,
  model: string = setup.model.id,
): { calls: ModelCallRecord[]; events: NewEvent[] } {
  const calls = reply.calls.map((call, index) => ({
    id: `${step}.${index + 1}`,
    name: call.name,
    args: call.args,
    ...(call.wireId === undefined ? {} : { wireId: call.wireId }),
  }));
  const events: NewEvent[] = [
    event("model_call", {
      step,
      runtime: setup.runtime.name,
      model,
      node: run.deps.node,
      ...(reply.text === undefined ? {} : { text: reply.text }),
      calls,
      ...(reply.output === undefined ? {} : { output: reply.output }),
      usage: {
        input: reply.usage.inputTokens,
        output: reply.usage.outputTokens,
        ...(reply.usage.cachedInputTokens === undefined ? {} : { cached: reply.usage.cachedInputTokens }),
      },
      ...(reply.costUsd === undefined ? {} : { cost_usd: reply.costUsd }),
      ms,
    }),
    ...(reply.warnings ?? []).map((message) => event("model_warning", { message })),
  ];
  return { calls, events };
}

/** The step's events with its model_call's answer replaced by `content`, as a user_output handler rewrote it. */
function withReplyText(events: readonly NewEvent[], content: unknown): NewEvent[] {
  const text = typeof content === "string" ? content : JSON.stringify(content ?? "");
  return events.map((entry) => {
    if (entry.kind !== "model_call") return entry;
    const { output: _output, ...data } = entry.data;
    return event("model_call", { ...data, text });
  });
}

/** The end a stop from outside calls for (cancel, wall time), or undefined; a lost lease throws. */
export function stopped(run: JobRun): Promise<true> | undefined {
  switch (run.stopReason) {
    case "lost":
      throw leaseLost(run);
    case "cancel":
      return run.end({ status: "cancelled", by: run.cancelBy ?? "someone" });
    case "timeout":
      return run.fail(timeoutFailure(run));
    default:
      return undefined;
  }
}

export function timeoutFailure(run: JobRun): { kind: string; message: string } {
  return {
    kind: "timeout",
    message: `the job ran past its wall time, limits.wall_seconds (${Math.round((run.deadline - run.row.created_at) / 1000)} s)`,
  };
}

function leaseLost(run: JobRun): Error {
  const error = run.signal.reason;
  return isOz0Error(error) ? error : new Error(`job ${run.row.id}: this worker lost its lease`);
}

function parseJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
