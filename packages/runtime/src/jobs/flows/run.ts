// A flow's job: the flow's steps, each recorded before its result is used, on the paths an
// agent's job takes (a function call through the one dispatch path with its policy, hooks and
// trace; an agent as a child job the flow's job waits for). A flow whose worker died, or that
// waited for a child, runs again from its first step: a step already recorded gives its
// recorded result at once, so no completed step runs twice.

import { isOz0Error, Oz0Error, type PluginManifest, toOz0Error } from "@oz0/sdk";
import { AGENT_LIMIT_DEFAULTS } from "@oz0/sdk/internal";
import { buildCard } from "../../cards/index.js";
import { reachRefusal } from "../../catalog/index.js";
import { event, failureOf, type JobEvent, type JobFailure, SetupFailure } from "../../events/index.js";
import { hookInterceptor } from "../../hooks/index.js";
import type { JobRow } from "../../store/index.js";
import {
  type ArgumentIssue,
  argumentIssues,
  type CallError,
  type CallInterceptor,
  dispatchCall,
  FunctionResolver,
  formatIssues,
} from "../../tools/index.js";
import { childIdOf, waitForChild } from "../children.js";
import type { JobRun } from "../job-run.js";
import { stopped, timeoutFailure } from "../model-step.js";
import { checkOwnPart } from "../own-part.js";
import { parseJsonText } from "../setup.js";
import { isTerminal } from "../store.js";
import { DELEGATION_DEFAULTS } from "../tool-step.js";
import { type FlowPlan, type FlowSteps, flowPlan } from "./plan.js";

/** Runs a claimed flow job until it ends or waits for a child job. */
export async function runFlow(run: JobRun): Promise<void> {
  const { row, deps } = run;
  // The owner check and the name clash check at every claim, as for an agent's job.
  await checkOwnPart(run, "flow");
  const resolver = new FunctionResolver(deps.source, {
    tenant: row.tenant,
    home: deps.home,
    agent: row.name,
  });
  const plugin = await resolver.plugin(row.plugin);
  const plan = await flowPlan(plugin, row.name);
  run.setDeadline(row.created_at + AGENT_LIMIT_DEFAULTS.wall_seconds * 1000);
  const input = flowInput(run, plan);
  // The engine's interceptors (tool policy, kill switches), then the job's hooks, as for an agent.
  const hooked = run.hooks === undefined ? undefined : hookInterceptor(run.hooks);
  const interceptors = hooked === undefined ? deps.interceptors : [...deps.interceptors, hooked];
  const steps = new JobSteps(
    run,
    plugin.manifest,
    resolver,
    interceptors,
    stepLog(await deps.jobs.events(row.id)),
  );
  let output: unknown;
  try {
    output = await plan.run(steps, input, { tenant: row.tenant, id: row.id, signal: run.signal });
  } catch (error) {
    if (isOz0Error(error, "LEASE_LOST")) throw error;
    if (steps.stopped) return;
    await (stopped(run) ?? run.fail(flowFailure(error)));
    return;
  }
  // The flow's code caught the stop of a step and went on; the job already ended or waits.
  if (steps.stopped) return;
  const end = stopped(run);
  if (end !== undefined) {
    await end;
    return;
  }
  output ??= null;
  if (plan.outputSchema !== undefined) {
    const issues = argumentIssues(plan.outputSchema, output);
    if (issues.length > 0) {
      await run.fail({
        kind: "invalid_output",
        message: `the flow's result does not match ${plan.outputFrom}: ${formatIssues(issues)}`,
      });
      return;
    }
  }
  const card =
    typeof output === "string" && plan.outputSchema === undefined
      ? undefined
      : buildCard(plan.outputSchema, output);
  await run.end({ status: "succeeded", output, card });
}

/** The flow's input, checked: the value its input schema describes (JSON text is read), or text. */
function flowInput(run: JobRun, plan: FlowPlan): unknown {
  const given = run.history.started.input;
  const problem = flowInputProblem(plan, run.address, given);
  if (problem !== undefined) throw new SetupFailure("invalid_input", problem.message, "INVALID_INPUT");
  return plan.inputSchema !== undefined && typeof given === "string" ? parseJsonText(given) : given;
}

/**
 * What is wrong with `input` for the flow, with each problem's place; undefined when it fits.
 * The job's first run and StartJob (before the job exists) check it the same way.
 */
export function flowInputProblem(
  plan: FlowPlan,
  address: string,
  input: unknown,
): { readonly message: string; readonly issues: readonly ArgumentIssue[] } | undefined {
  if (plan.inputSchema !== undefined) {
    const issues = argumentIssues(plan.inputSchema, typeof input === "string" ? parseJsonText(input) : input);
    if (issues.length === 0) return undefined;
    return {
      message: `the input does not match ${address}'s ${plan.inputFrom}: ${formatIssues(issues)}`,
      issues,
    };
  }
  if (typeof input === "string") return undefined;
  return {
    message: `${address} takes text (it has no input schema), and the input is ${Array.isArray(input) ? "a list" : typeof input}`,
    issues: [{ path: "", message: "must be text" }],
  };
}

/** A step that failed ends the flow with step_failed; anything else by its code. */
function flowFailure(error: unknown): JobFailure {
  if (isOz0Error(error, "STEP_FAILED"))
    return { kind: "step_failed", message: error.message, code: error.code };
  return failureOf(error);
}

/** What the history says about one step. */
interface StepRecord {
  /** Its `tool_call` is recorded: the call may have run, and runs again with the same key. */
  attempt?: number;
  result?: { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: CallError };
  child?: string;
  childEnd?: { readonly status: string; readonly output: unknown; readonly failure: JobFailure | null };
}

function stepLog(events: readonly JobEvent[]): Map<string, StepRecord> {
  const log = new Map<string, StepRecord>();
  const at = (id: string) => {
    let record = log.get(id);
    if (record === undefined) {
      record = {};
      log.set(id, record);
    }
    return record;
  };
  for (const entry of events) {
    switch (entry.kind) {
      case "tool_call":
        at(entry.data.callId).attempt = entry.data.attempt;
        break;
      case "tool_call_retried":
        at(entry.data.callId).attempt = entry.data.attempt;
        break;
      case "tool_result":
        at(entry.data.callId).result = entry.data.ok
          ? { ok: true, value: entry.data.result }
          : { ok: false, error: entry.data.error ?? { code: "INTERNAL", message: "the call failed" } };
        break;
      case "child_job_started":
        at(entry.data.callId).child = entry.data.job;
        break;
      case "child_job_finished":
        at(entry.data.callId).childEnd = {
          status: entry.data.status,
          output: entry.data.output ?? null,
          failure: entry.data.failure ?? null,
        };
        break;
      default:
        break;
    }
  }
  return log;
}

/** Thrown through the flow's code once the job ended or waits: no step may run after it. */
class FlowStopped extends Error {
  constructor(job: string) {
    super(`job ${job} stopped (it ended, or waits for a child job); a flow takes no step after that`);
    this.name = "FlowStopped";
  }
}

/** The steps of one run of a flow's job. */
class JobSteps implements FlowSteps {
  /** Set once the job ended or waits: the run is over, whatever the flow's code does next. */
  stopped = false;
  readonly #run: JobRun;
  /** The flow's plugin's manifest: its uses: grants the other plugins' parts the flow reaches. */
  readonly #manifest: PluginManifest;
  readonly #resolver: FunctionResolver;
  readonly #interceptors: readonly CallInterceptor[];
  readonly #log: Map<string, StepRecord>;

  constructor(
    run: JobRun,
    manifest: PluginManifest,
    resolver: FunctionResolver,
    interceptors: readonly CallInterceptor[],
    log: Map<string, StepRecord>,
  ) {
    this.#run = run;
    this.#manifest = manifest;
    this.#resolver = resolver;
    this.#interceptors = interceptors;
    this.#log = log;
  }

  async call(id: string, address: string, args: Readonly<Record<string, unknown>>): Promise<unknown> {
    await this.before();
    const record = this.record(id);
    if (record.result !== undefined) return settle(id, address, record.result);
    const run = this.#run;
    const { row } = run;
    const key = `${row.id}:${id}`;
    let resolved: Awaited<ReturnType<FunctionResolver["resolve"]>>;
    try {
      resolved = await this.#resolver.resolve(address, row.plugin);
      if (resolved.kind === "builtin") {
        throw new Oz0Error(
          "INVALID_ADDRESS",
          `${address} is a built-in, which acts on an agent's job; a flow calls plugins' functions and starts agents`,
          { data: { input: address, form: "<tool>.<function>" } },
        );
      }
      const { fn } = resolved;
      // The tenant's grant is read at each call, so a revoke stops the flow's next one.
      const ungranted =
        fn.plugin === undefined
          ? undefined
          : await reachRefusal(run.deps.source, row.tenant, this.#manifest, {
              kind: "function",
              plugin: fn.plugin,
              tool: fn.tool,
              function: fn.function,
            });
      if (ungranted !== undefined) throw ungranted;
    } catch (thrown) {
      const error = toOz0Error(thrown);
      record.result = { ok: false, error: { code: error.code, message: error.message } };
      await run.write([
        event("tool_call", { callId: id, name: address, address: "", key, attempt: 1, args }),
        event("tool_result", { callId: id, ok: false, error: record.result.error, ms: 0 }),
      ]);
      return settle(id, address, record.result);
    }
    const { fn } = resolved;
    const attempt = (record.attempt ?? 0) + 1;
    const outcome = await dispatchCall(
      fn,
      args,
      {
        tenant: row.tenant,
        jobId: row.id,
        callId: id,
        idempotencyKey: key,
        address: fn.address,
        attempt,
        signal: run.signal,
      },
      {
        // No loop decided a flow's call: the dispatch path's policy check decides it.
        context: { origin: { kind: "job", job: row.id }, hooks: run.hooks },
        interceptors: this.#interceptors,
        recorder: {
          started: (_fn, ran, _call, changedBy) => {
            const what = { args: ran, ...(changedBy.length === 0 ? {} : { changedBy }) };
            return run.write([
              attempt === 1
                ? event("tool_call", {
                    callId: id,
                    name: fn.modelName,
                    address: fn.address,
                    key,
                    attempt,
                    ...what,
                  })
                : event("tool_call_retried", { callId: id, attempt, ...what }),
            ]);
          },
          finished: (_fn, done) =>
            run.write([
              event(
                "tool_result",
                done.ok
                  ? { callId: id, ok: true, result: done.result, ms: done.ms }
                  : { callId: id, ok: false, error: done.error, ms: done.ms },
              ),
            ]),
        },
      },
    );
    record.attempt = attempt;
    record.result = outcome.ok ? { ok: true, value: outcome.result } : { ok: false, error: outcome.error };
    // A call stopped by a cancel or the wall time ends the job that way, not as a failed step.
    await this.before();
    return settle(id, fn.address, record.result);
  }

  async agent(id: string, address: string, input: unknown): Promise<unknown> {
    await this.before();
    const run = this.#run;
    const { row, deps } = run;
    const record = this.record(id);
    if (record.childEnd === undefined && record.child !== undefined) {
      const child = await deps.jobs.get(record.child);
      if (child === undefined || !isTerminal(child.status)) {
        return this.stop(run.wait({ kind: "child", callId: id, job: record.child }, []));
      }
      record.childEnd = childEnd(child);
      await run.write([event("child_job_finished", { callId: id, job: child.id, ...record.childEnd })]);
    }
    if (record.childEnd !== undefined) return childResult(id, address, record.child ?? "", record.childEnd);
    let part: { plugin: string; name: string };
    try {
      part = await deps.source.resolvePart(row.tenant, "agent", address, { fromPlugin: row.plugin });
    } catch (thrown) {
      const error = toOz0Error(thrown);
      throw stepFailed(id, address, `${error.code}: ${error.message}`, { code: error.code });
    }
    const agent = `${part.plugin}/${part.name}`;
    const ungranted = await reachRefusal(run.deps.source, row.tenant, this.#manifest, {
      kind: "agent",
      ...part,
    });
    if (ungranted !== undefined) {
      throw stepFailed(id, agent, `${ungranted.code}: ${ungranted.message}`, { code: ungranted.code });
    }
    if (row.depth + 1 > DELEGATION_DEFAULTS.max_depth) {
      throw stepFailed(
        id,
        agent,
        `a child job here would be ${row.depth + 1} deep, past the most child jobs go (${DELEGATION_DEFAULTS.max_depth})`,
        {},
      );
    }
    // pre_agent_handoff and pre_child_job may rewrite the child's input or refuse the handoff.
    const handoff = (await run.hooks?.beforeHandoff(agent, input)) ?? { ok: true, input };
    if (!handoff.ok) {
      throw stepFailed(id, agent, `${handoff.error.code}: ${handoff.error.message}`, {
        code: handoff.error.code,
      });
    }
    const start = { callId: id, child: part, input: handoff.input ?? "" };
    const job = childIdOf(run, start);
    await run.hooks?.afterHandoff(agent, job);
    record.child = job;
    return this.stop(waitForChild(run, start));
  }

  private record(id: string): StepRecord {
    let record = this.#log.get(id);
    if (record === undefined) {
      record = {};
      this.#log.set(id, record);
    }
    return record;
  }

  /** Before a step (and after a call): a job that stopped, or must stop now, takes no step. */
  private async before(): Promise<void> {
    const run = this.#run;
    if (this.stopped) throw new FlowStopped(run.row.id);
    if (run.stopReason === "lost") throw run.signal.reason;
    if (run.cancelBy !== null) {
      await this.stop(run.end({ status: "cancelled", by: run.cancelBy }));
    }
    if (run.now >= run.deadline || run.stopReason === "timeout") {
      await this.stop(run.fail(timeoutFailure(run)));
    }
  }

  private async stop(ending: Promise<true>): Promise<never> {
    await ending;
    this.stopped = true;
    throw new FlowStopped(this.#run.row.id);
  }
}

function settle(id: string, address: string, result: NonNullable<StepRecord["result"]>): unknown {
  if (result.ok) return result.value;
  throw stepFailed(id, address, `${result.error.code}: ${result.error.message}`, { code: result.error.code });
}

function childEnd(child: JobRow): NonNullable<StepRecord["childEnd"]> {
  return {
    status: child.status,
    output: child.output === null ? null : JSON.parse(child.output),
    failure: child.failure === null ? null : (JSON.parse(child.failure) as JobFailure),
  };
}

function childResult(
  id: string,
  address: string,
  job: string,
  end: NonNullable<StepRecord["childEnd"]>,
): unknown {
  if (end.status === "succeeded") return end.output;
  const failure = end.failure;
  const why = failure === null ? end.status : `${end.status}: ${failure.kind}: ${failure.message}`;
  throw stepFailed(id, address, `child job ${job} ${why}`, failure === null ? {} : { kind: failure.kind });
}

function stepFailed(
  id: string,
  address: string,
  why: string,
  more: { code?: string; kind?: string },
): Oz0Error {
  return new Oz0Error("STEP_FAILED", `step ${id} (${address}) failed: ${why}`, {
    data: { step: id, address, ...more },
  });
}
