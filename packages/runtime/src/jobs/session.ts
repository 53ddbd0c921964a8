// The core's side of the agent-runtime seam (runtimes/): one run of a job, as a runtime sees
// it. oz0's own runtime takes `step()`, the loop's own steps; a foreign loop calls the model
// and the job's functions through `callModel` and `callFunction`, which pass the same gate,
// hooks, policy, approvals, usage and spans, are recorded before they return, and on a
// resumed run return what the history holds instead of calling again.
import { isOz0Error } from "@oz0/sdk";
import { type CallDecider, event, type NewEvent } from "../events/index.js";
import type { ModelMessage, ModelRequest } from "../models/index.js";
import { estimateValueTokens, providerKeySecret, SecretStore, TenantSettings } from "../models/index.js";
import {
  type AgentModel,
  type AgentRuntime,
  type HarnessSetting,
  type RuntimeCallResult,
  type RuntimeForeignStep,
  type RuntimeModelReply,
  type RuntimeModelRequest,
  type RuntimeNote,
  type RuntimeRemoteCall,
  type RuntimeRemoteSend,
  type RuntimeSession,
  RuntimeStop,
  type RuntimeToolUseResult,
} from "../runtimes/index.js";
import type { CallableFunction, CallError } from "../tools/index.js";
import { governCall, governStep } from "./gate.js";
import { type PendingCall, REMOTE_CALL_PREFIX } from "./history.js";
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
export function gate(run: JobRun): boolean | Promise<boolean> {
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
  /** The step the text streaming now belongs to: the next one the runtime records. */
  #streamedStep: number | undefined;

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
    // A step the gate lets through at once (the common case) awaits nothing for it.
    const gated = gate(run);
    if (gated === true || (gated !== false && (await gated))) return this.#stop();
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
    const { calls, events } = modelCallEvents(
      run,
      this.#setup,
      step,
      answered.reply,
      answered.ms,
      answered.model,
    );
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
    await this.#endStream();
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
    const refused =
      foreign.ahead === undefined
        ? await this.#budgetAfter(foreign, step)
        : await this.#budgetAhead(foreign, foreign.ahead, step);
    if (refused) throw this.#stopping();
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
        node: run.deps.node,
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

  /**
   * The budgets a step recorded ahead of its work passes, at what it may cost: the job's cost
   * ceiling with that cost added, then pre_llm_call, where a tenant's budget refuses it. True
   * when the job stopped here.
   */
  async #budgetAhead(
    foreign: RuntimeForeignStep,
    ahead: NonNullable<RuntimeForeignStep["ahead"]>,
    step: number,
  ): Promise<boolean> {
    const run = this.#run;
    const cost = foreign.costUsd ?? 0;
    const ceiling = this.#setup.limits.max_cost_usd;
    const spent = run.history.costUsd;
    if (ceiling !== undefined && spent + cost > ceiling) {
      return run.fail({
        kind: "budget_exceeded",
        message: `${ahead.what}; with $${spent.toFixed(4)} spent, that passes the job's limits.max_cost_usd ($${ceiling}), so it was not started`,
      });
    }
    if (run.hooks === undefined) return false;
    const request: ModelRequest = {
      step,
      messages: ahead.messages,
      functions: [],
      outputSchema: undefined,
      estimatedInputTokens: estimateValueTokens(ahead.messages),
      signal: run.signal,
    };
    const checked = await run.hooks.beforeModelCall(request, foreign.model, (name) => name, foreign.costUsd);
    if ("failure" in checked) return run.fail(checked.failure);
    if (checked.request !== request) {
      // The message goes to an agent outside oz0 as the runtime wrote it; pre_agent_communication is where it may change.
      return run.fail({
        kind: "policy_denied",
        message: `a pre_llm_call handler rewrote the messages of step ${step} on ${this.runtime} (${ahead.what}); they go to an agent outside oz0 as the agent's runtime wrote them, so the step was not started`,
      });
    }
    return false;
  }

  /**
   * The budgets a step the runtime's own model took already (a harness's) passes before it is
   * recorded: pre_llm_call with what the runtime reported of it, its tokens as the estimate and
   * its cost as `estimatedCostUsd`, so the step that would take the job, its agent or the tenant
   * past a ceiling ends the run before its calls run. True when the job stopped here.
   */
  async #budgetAfter(foreign: RuntimeForeignStep, step: number): Promise<boolean> {
    const run = this.#run;
    if (run.hooks === undefined) return false;
    const request: ModelRequest = {
      step,
      messages: [],
      functions: [],
      outputSchema: undefined,
      estimatedInputTokens: (foreign.usage?.input ?? 0) + (foreign.usage?.output ?? 0),
      signal: run.signal,
    };
    const checked = await run.hooks.beforeModelCall(request, foreign.model, (name) => name, foreign.costUsd);
    if ("failure" in checked) return run.fail(checked.failure);
    if (checked.request !== request) {
      return run.fail({
        kind: "policy_denied",
        message: `a pre_llm_call handler rewrote step ${step} on ${this.runtime}, which the runtime's own model took already; nothing of it can be rewritten, so its calls were not run`,
      });
    }
    return false;
  }

  streamText(delta: string): void {
    if (delta === "") return;
    // Redacted as it comes, to this run's listener and the job's live feed alike, as oz0's own steps.
    const run = this.#run;
    if (this.#streamed === undefined) {
      const step = run.history.steps + 1;
      const onText = run.listeners.onText;
      this.#streamedStep = step;
      this.#streamed = run.lease.redactor.stream((text) => {
        onText?.(text);
        run.live.text(step, text);
      });
    }
    this.#streamed.write(delta);
  }

  async note(note: RuntimeNote): Promise<void> {
    if (this.#stopped) throw new RuntimeStop(this.#run.row.id);
    await this.#run.write([
      event("harness_update", { runtime: this.runtime, update: note.update, data: note.data }),
    ]);
  }

  /** The streamed text is all out, to every process, before its step is written. */
  async #endStream(): Promise<void> {
    this.#streamed?.end();
    this.#streamed = undefined;
    const step = this.#streamedStep;
    this.#streamedStep = undefined;
    if (step !== undefined) await this.#run.live.endStep(step);
  }

  async finish(reply: {
    readonly text?: string | undefined;
    readonly output?: unknown;
  }): Promise<string | undefined> {
    const run = this.#run;
    if (this.#stopped) throw new RuntimeStop(run.row.id);
    await this.#endStream();
    // A replayed answer the history went on from (sent back, or a chat's next message) is not
    // checked and recorded again: the job goes on with the message that followed it.
    const followed = this.#index().followUps.get(this.#steps);
    if (followed !== undefined) return followed;
    if (await answer(run, this.#setup, this.#steps, reply, [])) {
      this.#stop();
      return undefined;
    }
    const last = run.history.conversation.messages.at(-1);
    return last?.role === "user" && last.rejected === true ? last.content : undefined;
  }

  async fail(failure: { readonly kind: string; readonly message: string }): Promise<void> {
    if (this.#stopped) throw new RuntimeStop(this.#run.row.id);
    await this.#run.fail(failure);
    this.#stop();
  }

  get options(): Readonly<Record<string, unknown>> {
    return this.#setup.definition.harness ?? {};
  }

  async checkpoint(): Promise<boolean> {
    if (this.#stopped) throw new RuntimeStop(this.#run.row.id);
    return (await gate(this.#run)) ? this.#stop() : false;
  }

  async ask(id: string, question: string): Promise<string> {
    const run = this.#run;
    if (this.#stopped) throw new RuntimeStop(run.row.id);
    remoteId(id);
    const answer = run.history.remoteAnswers.get(id);
    if (answer !== undefined) return answer;
    await run.wait({ kind: "answer", callId: id, question }, []);
    throw this.#stopping();
  }

  async secret(name: string): Promise<string | undefined> {
    const { store } = this.#run.deps.jobs;
    const secrets = new SecretStore({
      settings: new TenantSettings(store.db, store.clockSql),
      home: this.#run.deps.home,
    });
    return secrets.get(this.#run.row.tenant, `remote.${name}`);
  }

  async providerKey(provider: string): Promise<string | undefined> {
    const { store } = this.#run.deps.jobs;
    const secrets = new SecretStore({
      settings: new TenantSettings(store.db, store.clockSql),
      home: this.#run.deps.home,
    });
    return secrets.get(this.#run.row.tenant, providerKeySecret(provider));
  }

  get chat(): boolean {
    return this.#run.row.mode === "chat";
  }

  get model(): AgentModel | undefined {
    return this.#setup.definition.model;
  }

  async callRemote(
    call: RuntimeRemoteCall,
    send: (recorded: RuntimeRemoteSend) => Promise<unknown>,
  ): Promise<RuntimeCallResult> {
    const run = this.#run;
    if (this.#stopped) throw new RuntimeStop(run.row.id);
    remoteId(call.id);
    const recorded = () => run.history.remote.get(call.id);
    const done = recorded()?.result;
    if (done !== undefined) return remoteResult(done);
    if (await gate(run)) throw this.#stopping();
    const { plugin, name: agent } = run.row;
    const fn: CallableFunction = {
      address: `${plugin}/${agent}.${call.function}`,
      plugin,
      tool: agent,
      function: call.function,
      modelName: `${agent}__${call.function}`,
      description: call.description,
      inputSchema: { type: "object" },
      run: () => Promise.reject(new Error("a remote call is made by its runtime, not dispatched")),
      ...(call.requiresApproval === undefined ? {} : { requiresApproval: call.requiresApproval }),
    };
    const before = recorded();
    const pending: PendingCall = {
      call: { id: call.id, name: fn.modelName, args: call.args },
      ...(before?.started === undefined ? {} : { started: before.started }),
      ...(before?.asked === undefined ? {} : { asked: before.asked }),
    };
    const decided = await governCall(run, new Map(), pending, fn, call.args);
    if (decided === true) throw this.#stopping();
    if (decided === false) {
      const refused = recorded()?.result;
      if (refused === undefined)
        throw new Error(`call ${call.id} of job ${run.row.id} was refused without a result`);
      return remoteResult(refused);
    }
    const mayHaveSent = before?.started !== undefined && before.task === undefined;
    let args = before?.started?.args ?? call.args;
    if (before?.started === undefined && call.kind === "tool_use") {
      const refused = await this.#toolUseAhead(call, fn, decided.decided);
      if (refused !== undefined) return refused;
    } else if (before?.started === undefined) {
      // The message goes to an outside agent: pre_agent_communication may rewrite or refuse it.
      const hooks = run.hooks;
      const outside = `${this.runtime}:${run.address}`;
      const sent = (await hooks?.beforeMessage(outside, args, "request", "a2a")) ?? {
        ok: true,
        message: args,
      };
      const toolCall = remoteToolCall(
        run.row.id,
        call,
        fn,
        decided.decided,
        sent.ok && isArgs(sent.message) ? sent.message : args,
      );
      if (!sent.ok || !isArgs(sent.message)) {
        const error = sent.ok
          ? {
              code: "HOOK_FAILED",
              message: `pre_agent_communication: a handler changed the message to ${outside} into one that is not an object of arguments; it was not sent`,
            }
          : { code: sent.error.code, message: sent.error.message };
        await run.write([toolCall, event("tool_result", { callId: call.id, ok: false, error, ms: 0 })]);
        return { ok: false, error };
      }
      args = sent.message;
      await run.write([toolCall]);
      await hooks?.afterMessage(outside, args, "request", "a2a");
    }
    const started = Date.now();
    let outcome: RuntimeCallResult;
    try {
      const result = await send({
        task: before?.task,
        mayHaveSent,
        args,
        record: async (task) => {
          await run.write([
            event("remote_task", {
              callId: call.id,
              task: task.id,
              ...(task.context === undefined ? {} : { context: task.context }),
              state: task.state,
              ...(task.text === undefined ? {} : { text: task.text }),
            }),
          ]);
        },
      });
      // The outside agent's answer: pre_agent_communication may rewrite or refuse it.
      const heard = (await run.hooks?.answerIn(`${this.runtime}:${run.address}`, result, "a2a")) ?? {
        ok: true,
        message: result,
      };
      outcome = heard.ok
        ? { ok: true, result: answerOf(result, heard.message) }
        : { ok: false, error: { code: heard.error.code, message: heard.error.message } };
    } catch (error) {
      if (error instanceof RuntimeStop || this.#stopped || run.signal.aborted) throw error;
      // What the outside agent or its transport threw is the remote agent's error, unless oz0 said more.
      outcome = {
        ok: false,
        error: {
          code: isOz0Error(error) ? error.code : "REMOTE_AGENT_ERROR",
          message: error instanceof Error ? error.message : String(error),
        },
      };
    }
    await run.write([
      event("tool_result", {
        callId: call.id,
        ok: outcome.ok,
        ...(outcome.ok ? { result: outcome.result } : { error: outcome.error }),
        ms: Date.now() - started,
      }),
    ]);
    return outcome;
  }

  /**
   * A tool use the provider runs, let through by policy: pre_tool_call may refuse it, but not
   * change its arguments (the provider runs its own input), then execute_tool as it goes ahead.
   * Its tool_call is recorded either way; a refusal's result too, which it returns.
   */
  async #toolUseAhead(
    call: RuntimeRemoteCall,
    fn: CallableFunction,
    decided: CallDecider | undefined,
  ): Promise<RuntimeCallResult | undefined> {
    const run = this.#run;
    const bus = run.hooks?.bus;
    const key = `${run.row.id}:${call.id}`;
    const fields = {
      callId: call.id,
      address: fn.address,
      tool: fn.tool,
      function: fn.function,
      args: call.args,
    };
    const toolCall = remoteToolCall(run.row.id, call, fn, decided, call.args);
    let error: CallError | undefined;
    if (bus?.has("pre_tool_call")) {
      const outcome = await bus.fire("pre_tool_call", { ...fields, idempotencyKey: key });
      if (!outcome.ok) error = { code: outcome.error.code, message: outcome.error.message };
      else if (outcome.changed && canonical(outcome.payload.args) !== canonical(call.args)) {
        error = {
          code: "HOOK_FAILED",
          message: `a pre_tool_call hook changed the arguments of ${fn.address}, which runs at the provider with its own; the tool use was denied`,
        };
      }
    }
    if (error !== undefined) {
      await run.write([toolCall, event("tool_result", { callId: call.id, ok: false, error, ms: 0 })]);
      return { ok: false, error };
    }
    await run.write([toolCall]);
    if (bus?.has("execute_tool")) await bus.fire("execute_tool", fields);
    return undefined;
  }

  async toolUseResult(
    call: Pick<RuntimeRemoteCall, "id" | "function" | "args">,
    outcome: RuntimeToolUseResult,
    note: RuntimeNote,
  ): Promise<void> {
    const run = this.#run;
    if (this.#stopped) throw new RuntimeStop(run.row.id);
    remoteId(call.id);
    if (run.history.remote.get(call.id)?.reported === true) return;
    const records: NewEvent[] = [
      event("harness_update", {
        runtime: this.runtime,
        update: note.update,
        data: note.data,
        callId: call.id,
      }),
    ];
    const bus = run.hooks?.bus;
    const { plugin, name: agent } = run.row;
    const address = `${plugin}/${agent}.${call.function}`;
    if (bus?.has("post_tool_call")) {
      const fired = await bus.fire("post_tool_call", {
        callId: call.id,
        address,
        tool: agent,
        function: call.function,
        args: call.args,
        result: outcome.ok ? outcome.result : undefined,
        ...(outcome.ok ? {} : { error: outcome.error }),
        // The provider does not say how long its tool ran.
        durationMs: 0,
      });
      // The remote model has the provider's result already: a change cannot reach it, and is not taken as if it did.
      if (
        fired.ok &&
        fired.changed &&
        outcome.ok &&
        canonical(fired.payload.result) !== canonical(outcome.result)
      ) {
        for (const by of fired.changedBy) {
          records.push(
            event("hook_error", {
              hook: "post_tool_call",
              plugin: by.plugin,
              handler: by.handler,
              required: false,
              error: `a post_tool_call hook changed the result of ${address}, which ran at the provider: its model has the provider's result, so the change was not applied`,
            }),
          );
        }
      }
    }
    if (!outcome.ok && bus?.has("on_error")) {
      await bus.fire("on_error", { error: outcome.error, where: "tool_call", plugin });
    }
    await run.write(records);
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
    const followUps = new Map<number, string>();
    for (const message of this.#run.history.conversation.messages) {
      if (message.role === "assistant") replies.push(message);
      else if (message.role === "tool") results.set(message.callId, toResult(message));
      else if (message.role === "user" && replies.length > 0) followUps.set(replies.length, message.content);
    }
    this.#recorded = {
      replies: replies.slice(0, this.recordedSteps) as Extract<ModelMessage, { role: "assistant" }>[],
      results,
      followUps,
    };
    return this.#recorded;
  }
}

interface Recorded {
  readonly replies: readonly Extract<ModelMessage, { role: "assistant" }>[];
  readonly results: ReadonlyMap<string, RuntimeCallResult>;
  /**
   * The user message that followed each answer the job went on from, by its model step: the
   * output schema's reason for sending it back, or in a chat the person's next message.
   */
  readonly followUps: ReadonlyMap<number, string>;
}

function remoteId(id: string): void {
  if (!id.startsWith(REMOTE_CALL_PREFIX)) {
    throw new Error(`a remote call's or question's id begins with '${REMOTE_CALL_PREFIX}'; '${id}' does not`);
  }
}

function remoteResult(recorded: {
  readonly ok: boolean;
  readonly result?: unknown;
  readonly error?: CallError;
}): RuntimeCallResult {
  if (recorded.ok) return { ok: true, result: recorded.result };
  return { ok: false, error: recorded.error ?? { code: "FAILED", message: "the remote call failed" } };
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

function isArgs(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** An outside agent's answer as a handler left it: its object, or the same answer with a text it gave. */
function answerOf(result: unknown, changed: unknown): unknown {
  if (changed === result || isArgs(changed)) return changed;
  if (typeof changed === "string" && isArgs(result)) return { ...result, text: changed };
  return result;
}

/** The tool_call a remote call records, keyed by the job and the call, with what it sends. */
function remoteToolCall(
  job: string,
  call: RuntimeRemoteCall,
  fn: CallableFunction,
  decided: CallDecider | undefined,
  args: Record<string, unknown>,
): NewEvent {
  return event("tool_call", {
    callId: call.id,
    name: fn.modelName,
    address: fn.address,
    key: `${job}:${call.id}`,
    attempt: 1,
    ...(decided === undefined ? {} : { decided }),
    args,
  });
}
