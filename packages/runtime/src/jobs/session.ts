// The core's side of the agent-runtime seam (runtimes/): one run of a job, as a runtime sees
// it. oz0's own runtime takes `step()`, the loop's own steps; a foreign loop calls the model
// and the job's functions through `callModel` and `callFunction`, which pass the same gate,
// hooks, policy, approvals, usage and spans, are recorded before they return, and on a
// resumed run return what the history holds instead of calling again.

import { event } from "../events/index.js";
import type { ModelMessage, ModelRequest } from "../models/index.js";
import { estimateValueTokens } from "../models/index.js";
import {
  type AgentRuntime,
  type HarnessSetting,
  type RuntimeCallResult,
  type RuntimeForeignStep,
  type RuntimeModelReply,
  type RuntimeModelRequest,
  type RuntimeNote,
  type RuntimeSession,
  RuntimeStop,
} from "../runtimes/index.js";
import type { CallError } from "../tools/index.js";
import { governStep } from "./gate.js";
import type { JobRun } from "./job-run.js";
import {
  answer,
  callModel,
  limitFailure,
  modelCallEvents,
  modelStep,
  stopped,
  timeoutFailure,
} from "./model-step.js";
import type { AgentSetup } from "./setup.js";
import { toolStep } from "./tool-step.js";

/**
 * The checks before each step, whichever runtime takes it: a cancel request, the wall time,
 * the tenant's tool policy and kill switches as of this step. True when the job stopped here.
 */
export async function gate(run: JobRun): Promise<boolean> {
  if (run.stopReason === "lost") throw run.signal.reason;
  // A call whose tool_call went out with its model reply finishes its step first.
  if (run.cancelBy !== null && run.recordedCall === undefined) {
    return run.end({ status: "cancelled", by: run.cancelBy });
  }
  if (run.now >= run.deadline || run.stopReason === "timeout") return run.fail(timeoutFailure(run));
  // A killed agent's job ends here.
  return governStep(run);
}

export class CoreSession implements RuntimeSession {
  readonly #run: JobRun;
  readonly #setup: AgentSetup;
  readonly #runtime: AgentRuntime;
  readonly recordedSteps: number;
  #stopped = false;
  /** The model calls this run made or replayed. */
  #steps = 0;
  /** What the history held when the run began, indexed on a foreign loop's first call. */
  #recorded: Recorded | undefined;
  /** A foreign step did not match the recorded one of its number: nothing after it is replayed. */
  #diverged = false;
  /** Streamed model text, redacted as it comes; ended at each recorded step. */
  #streamed: { write(delta: string): void; end(): void } | undefined;

  constructor(run: JobRun, setup: AgentSetup) {
    this.#run = run;
    this.#setup = setup;
    this.#runtime = setup.runtime;
    this.recordedSteps = run.history.steps;
  }

  get job(): string {
    return this.#run.row.id;
  }

  get agent(): string {
    return this.#run.address;
  }

  get runtime(): string {
    return this.#runtime.name;
  }

  get opening(): readonly ModelMessage[] {
    return this.#run.history.conversation.messages.slice(0, 2);
  }

  get functions() {
    return this.#setup.toolset.offered;
  }

  get outputSchema() {
    return this.#setup.outputSchema;
  }

  get harness(): HarnessSetting | undefined {
    return this.#setup.harness;
  }

  get signal(): AbortSignal {
    return this.#run.signal;
  }

  /** Hands the job to its runtime; a runtime that returns with the job neither ended nor waiting fails it. */
  async run(): Promise<void> {
    const runtime = this.#runtime;
    const cancel = runtime.cancel;
    const onAbort =
      cancel === undefined ? undefined : () => cancel.call(runtime, this, this.#run.stopReason ?? "cancel");
    if (onAbort !== undefined) this.signal.addEventListener("abort", onAbort, { once: true });
    try {
      await runtime.run(this);
    } catch (error) {
      if (error instanceof RuntimeStop && this.#stopped) return;
      // A runtime whose work was stopped from outside (cancel, wall time) ends as that stop says.
      if (!this.#stopped && this.#run.stopReason !== undefined) {
        const ended = stopped(this.#run);
        if (ended !== undefined) {
          await ended;
          return;
        }
      }
      throw error;
    } finally {
      if (onAbort !== undefined) this.signal.removeEventListener("abort", onAbort);
    }
    if (!this.#stopped) {
      await this.#run.fail({
        kind: "internal",
        message: `agent runtime '${runtime.name}' returned without ending the job or making it wait`,
      });
    }
  }

  async step(): Promise<boolean> {
    const run = this.#run;
    if (this.#stopped) throw new RuntimeStop(run.row.id);
    if (await gate(run)) return this.#stop();
    const next = run.history.pending.values().next().value;
    const done =
      next !== undefined ? await toolStep(run, this.#setup, next) : await modelStep(run, this.#setup);
    return done ? this.#stop() : false;
  }

  async callModel(request: RuntimeModelRequest): Promise<RuntimeModelReply> {
    const run = this.#run;
    if (this.#stopped) throw new RuntimeStop(run.row.id);
    const step = this.#steps + 1;
    const recorded = this.#index().replies[step - 1];
    if (recorded !== undefined) {
      this.#steps = step;
      return { step, text: recorded.text, calls: recorded.calls, output: recorded.output, replayed: true };
    }
    const waiting = run.history.pending.keys().next().value;
    if (waiting !== undefined) {
      throw new Error(
        `agent runtime '${this.runtime}' asked the model again while call ${waiting} of step ${run.history.steps} has no result; run every call of a reply (callFunction) first`,
      );
    }
    if (await gate(run)) throw this.#stopping();
    const limit = limitFailure(run, this.#setup);
    if (limit !== undefined) {
      await run.fail(limit);
      throw this.#stopping();
    }
    const modelRequest: ModelRequest = {
      step,
      messages: request.messages,
      functions: request.functions ?? this.#setup.toolset.offered,
      outputSchema: this.#setup.outputSchema,
      estimatedInputTokens: estimateValueTokens(request.messages),
      signal: run.signal,
    };
    const answered = await callModel(run, this.#setup, modelRequest);
    if (answered === true) throw this.#stopping();
    const { calls, events } = modelCallEvents(this.#setup, step, answered.reply, answered.ms);
    await run.write(events);
    this.#steps = step;
    const { reply } = answered;
    return { step, text: reply.text, calls, output: reply.output, usage: reply.usage, replayed: false };
  }

  async callFunction(callId: string): Promise<RuntimeCallResult> {
    const run = this.#run;
    if (this.#stopped) throw new RuntimeStop(run.row.id);
    const pending = run.history.pending.get(callId);
    if (pending === undefined) {
      const result = this.#index().results.get(callId) ?? resultIn(run.history.conversation.messages, callId);
      if (result !== undefined) return result;
      throw new Error(
        `agent runtime '${this.runtime}' asked for call ${callId}, which no recorded model reply of job ${run.row.id} made`,
      );
    }
    if (await gate(run)) throw this.#stopping();
    if (await toolStep(run, this.#setup, pending)) throw this.#stopping();
    const result = resultIn(run.history.conversation.messages, callId);
    if (result === undefined)
      throw new Error(`call ${callId} of job ${run.row.id} was recorded without a result`);
    return result;
  }

  async recordStep(foreign: RuntimeForeignStep): Promise<RuntimeModelReply> {
    const run = this.#run;
    if (this.#stopped) throw new RuntimeStop(run.row.id);
    this.#endStream();
    const number = this.#steps + 1;
    const recorded = this.#diverged ? undefined : this.#index().replies[number - 1];
    if (recorded !== undefined) {
      if (sameCalls(recorded.calls, foreign.calls)) {
        this.#steps = number;
        return { step: number, text: recorded.text, calls: recorded.calls, replayed: true };
      }
      // The outside loop went another way this time: its steps from here are new ones.
      this.#diverged = true;
    }
    if (await gate(run)) throw this.#stopping();
    const limit = limitFailure(run, this.#setup);
    if (limit !== undefined) {
      await run.fail(limit);
      throw this.#stopping();
    }
    const step = run.history.steps + 1;
    const calls = foreign.calls.map((call, index) => ({
      id: `${step}.${index + 1}`,
      name: call.name,
      args: call.args,
    }));
    const usage = { input: foreign.usage?.input ?? 0, output: foreign.usage?.output ?? 0 };
    await run.write([
      event("model_call", {
        step,
        runtime: this.runtime,
        model: foreign.model,
        ...(foreign.text === undefined || foreign.text === "" ? {} : { text: foreign.text }),
        calls,
        usage,
        ...(foreign.costUsd === undefined ? {} : { cost_usd: foreign.costUsd }),
        ms: 0,
      }),
    ]);
    this.#steps = step;
    return {
      step,
      text: foreign.text,
      calls,
      usage: { inputTokens: usage.input, outputTokens: usage.output },
      replayed: false,
    };
  }

  streamText(delta: string): void {
    const onText = this.#run.listeners.onText;
    if (onText === undefined || delta === "") return;
    this.#streamed ??= this.#run.lease.redactor.stream(onText);
    this.#streamed.write(delta);
  }

  async note(note: RuntimeNote): Promise<void> {
    if (this.#stopped) throw new RuntimeStop(this.#run.row.id);
    await this.#run.write([
      event("harness_update", { runtime: this.runtime, update: note.update, data: note.data }),
    ]);
  }

  #endStream(): void {
    this.#streamed?.end();
    this.#streamed = undefined;
  }

  async finish(reply: { readonly text?: string | undefined; readonly output?: unknown }): Promise<void> {
    const run = this.#run;
    if (this.#stopped) throw new RuntimeStop(run.row.id);
    this.#endStream();
    if (await answer(run, this.#setup, this.#steps, reply, [])) this.#stop();
  }

  async fail(failure: { readonly kind: string; readonly message: string }): Promise<void> {
    if (this.#stopped) throw new RuntimeStop(this.#run.row.id);
    await this.#run.fail(failure);
    this.#stop();
  }

  #stop(): true {
    this.#stopped = true;
    return true;
  }

  #stopping(): RuntimeStop {
    this.#stopped = true;
    return new RuntimeStop(this.#run.row.id);
  }

  /** The replies and results the history held when the run began: what a resumed foreign loop is given back. */
  #index(): Recorded {
    if (this.#recorded !== undefined) return this.#recorded;
    const replies: ModelMessage[] = [];
    const results = new Map<string, RuntimeCallResult>();
    for (const message of this.#run.history.conversation.messages) {
      if (message.role === "assistant") replies.push(message);
      else if (message.role === "tool") results.set(message.callId, toResult(message));
    }
    this.#recorded = {
      replies: replies.slice(0, this.recordedSteps) as Extract<ModelMessage, { role: "assistant" }>[],
      results,
    };
    return this.#recorded;
  }
}

interface Recorded {
  readonly replies: readonly Extract<ModelMessage, { role: "assistant" }>[];
  readonly results: ReadonlyMap<string, RuntimeCallResult>;
}

/** Whether a recorded reply's calls are the ones a foreign step makes now: the same names and arguments, in order. */
function sameCalls(
  recorded: readonly { readonly name: string; readonly args: unknown }[],
  now: readonly { readonly name: string; readonly args: unknown }[],
): boolean {
  return (
    recorded.length === now.length &&
    recorded.every(
      (call, index) => call.name === now[index]!.name && canonical(call.args) === canonical(now[index]!.args),
    )
  );
}

function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === "object" && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}

function resultIn(messages: readonly ModelMessage[], callId: string): RuntimeCallResult | undefined {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index]!;
    if (message.role === "tool" && message.callId === callId) return toResult(message);
  }
  return undefined;
}

function toResult(message: Extract<ModelMessage, { role: "tool" }>): RuntimeCallResult {
  if (!message.isError) return { ok: true, result: message.content };
  const error = (message.content as { error?: CallError } | null)?.error;
  // A child job that did not succeed is an error result whose content is the child's end.
  return { ok: false, error: error ?? { code: "FAILED", message: JSON.stringify(message.content) } };
}
