// The one path every function call takes, from a model, a flow, or `oz0 tool call`: check the
// arguments against the function's schema, pass the interceptors (where tool policy, hooks and
// kill switches hook in), call the function with its FunctionCall, and hand each stage to the
// recorder. A refused or failed call becomes an outcome the caller passes on (to a model, as an
// error it can correct), never a throw.
import { type FunctionCall, isOz0Error, Oz0Error, toOz0Error } from "@oz0/sdk";
import type { ArgumentChanger, CallError } from "../events/index.js";
import { type ArgumentIssue, argumentIssues, formatIssues } from "../schemas/index.js";
import { type CallScope, inCallScope } from "../scope/index.js";
import type { CallableFunction } from "./functions.js";

export type { ArgumentChanger, CallError };

export type CallOutcome =
  | { readonly ok: true; readonly result: unknown; readonly ms: number }
  | { readonly ok: false; readonly error: CallError; readonly ms: number };

/**
 * Where a call comes from, as the dispatch path's interceptors read it: carried by the call's
 * own request, never found by a key in something shared.
 */
export type CallOrigin =
  /**
   * A step of a job's agent loop, which decided the call there (tool policy, kill switches,
   * approvals; jobs/gate.ts): the path's policy check lets it through as decided.
   */
  | { readonly kind: "step"; readonly job: string; readonly decision: StepDecision }
  /** A call of a job that no loop decided (a flow's step, an `oz0 mcp serve` call's job): decided on the path. */
  | { readonly kind: "job"; readonly job: string }
  /** A call outside any job (`oz0 tool call`): decided on the path, with no approval to look for. */
  | { readonly kind: "outside" };

/** How a job's loop let a call through at its step: by the tenant's governance, or by a person's approval. */
export interface StepDecision {
  readonly allowed: true;
  /** The approval a person gave the call, when an ask rule held it. */
  readonly approval?: string | undefined;
}

/** What the dispatch path knows of a call beyond its function and arguments. */
export interface CallContext {
  readonly origin: CallOrigin;
  /**
   * The hooks of the job run making the call, for interceptors that record governance events
   * with it (hooks' `runHooksOf`); absent outside a run.
   */
  readonly hooks?: object | undefined;
  /** The call as the function's platform services see it (`ctx.memory`, `ctx.records`); absent outside a job. */
  readonly scope?: CallScope | undefined;
}

/** A call outside any job: its context. */
export const OUTSIDE_CALL: CallContext = Object.freeze({
  origin: Object.freeze({ kind: "outside" as const }),
});

/** The job a call belongs to, or undefined for one outside any job. */
export function callJob(context: CallContext): string | undefined {
  return context.origin.kind === "outside" ? undefined : context.origin.job;
}

export interface CallRequest {
  readonly fn: CallableFunction;
  readonly args: Readonly<Record<string, unknown>>;
  readonly call: FunctionCall;
  readonly context: CallContext;
}

/** New arguments an interceptor gives a call, and who changed them (for the trace). */
export interface ArgumentChange {
  readonly args: Readonly<Record<string, unknown>>;
  readonly by: readonly ArgumentChanger[];
}

/**
 * Sees every call on the path, in the order given. `before` may refuse the call by throwing
 * (a PolicyViolation, an Oz0Error) or change its arguments by returning new ones with who
 * changed them, which are checked against the schema again; `after` may replace the outcome.
 */
export interface CallInterceptor {
  readonly name: string;
  /**
   * Runs after the job's hooks, which may rewrite a call's arguments, so it sees the
   * arguments the function will really get; a run without hooks leaves it out.
   */
  readonly afterHooks?: boolean;
  before?(request: CallRequest): Promise<ArgumentChange | undefined>;
  after?(request: CallRequest, outcome: CallOutcome): Promise<CallOutcome | undefined>;
  /**
   * Why `fn` may not be called at all now (a kill switch, a deny rule), or undefined: what
   * oz.find_tools offers a lazily loading agent leaves out what this refuses. A call that
   * waits for a person's approval may still be made, so it is not refused here.
   */
  unavailable?(
    fn: CallableFunction,
    who: { readonly tenant: string; readonly agent?: string | undefined },
  ): Promise<string | undefined>;
}

/** Where a call's stages are written: a job records them as `tool_call` and `tool_result` events. */
export interface CallRecorder {
  /**
   * Right before the function runs, the arguments it runs with, after the interceptors (and who
   * changed them, when any did); for a call they refused, the arguments as the caller gave them.
   */
  started?(
    fn: CallableFunction,
    args: unknown,
    call: FunctionCall,
    changedBy: readonly ArgumentChanger[],
  ): Promise<void>;
  finished?(fn: CallableFunction, outcome: CallOutcome, call: FunctionCall): Promise<void>;
}

export interface DispatchOptions {
  /** Where the call comes from: a job's step (and how it was decided), another job's call, or none. */
  readonly context: CallContext;
  readonly interceptors?: readonly CallInterceptor[];
  readonly recorder?: CallRecorder;
}

/**
 * Calls `fn` with `args` on the one path.
 * @example const outcome = await dispatchCall(fn, { id: 7 }, call, { context: OUTSIDE_CALL });
 * if (outcome.ok) use(outcome.result); else tellTheModel(outcome.error.message);
 */
export async function dispatchCall(
  fn: CallableFunction,
  args: unknown,
  call: FunctionCall,
  options: DispatchOptions,
): Promise<CallOutcome> {
  const started = performance.now();
  const prepared = await prepareCall(fn, args, call, options.context, options.interceptors ?? []);
  // The time the call took leaves out the write of its record.
  let recording = 0;
  const record = options.recorder?.started;
  if (record !== undefined) {
    recording = performance.now();
    await record.call(
      options.recorder,
      fn,
      prepared.ok ? prepared.request.args : args,
      call,
      prepared.ok ? prepared.changedBy : [],
    );
    recording = performance.now() - recording;
  }
  const elapsed = () => Math.round((performance.now() - started - recording) * 1000) / 1000;
  const outcome = prepared.ok
    ? await attempt(prepared.request, options.interceptors ?? [], elapsed)
    : { ok: false as const, error: prepared.error, ms: elapsed() };
  await options.recorder?.finished?.(fn, outcome, call);
  return outcome;
}

/**
 * The checks before a call runs: its arguments against the schema, then each interceptor's
 * `before`. Built-ins the job engine carries out itself (`oz.fail`, `oz.ask_user`) pass here
 * too, so policy and hooks see them like any function.
 */
export async function prepareCall(
  fn: CallableFunction,
  args: unknown,
  call: FunctionCall,
  context: CallContext,
  interceptors: readonly CallInterceptor[] = [],
): Promise<
  | {
      readonly ok: true;
      readonly request: CallRequest;
      /** Who changed the arguments on the way, in order; empty when no one did. */
      readonly changedBy: readonly ArgumentChanger[];
    }
  | { readonly ok: false; readonly error: CallError }
> {
  let checked = checkArguments(fn, args);
  if ("error" in checked) return { ok: false, error: checked.error };
  let request: CallRequest = { fn, args: checked.args, call, context };
  const changedBy: ArgumentChanger[] = [];
  try {
    for (const interceptor of interceptors) {
      const changed = await interceptor.before?.(request);
      if (changed === undefined) continue;
      checked = checkArguments(fn, changed.args);
      if ("error" in checked) return { ok: false, error: checked.error };
      request = { ...request, args: checked.args };
      changedBy.push(...changed.by);
    }
  } catch (thrown) {
    return { ok: false, error: errorOf(thrown) };
  }
  return { ok: true, request, changedBy };
}

/** Runs a prepared call and passes its outcome through the interceptors' `after`. */
async function attempt(
  request: CallRequest,
  interceptors: readonly CallInterceptor[],
  elapsed: () => number,
): Promise<CallOutcome> {
  const { fn, call } = request;
  const refuse = (error: CallError): CallOutcome => ({ ok: false, error, ms: elapsed() });
  let outcome: CallOutcome;
  try {
    if (call.signal.aborted) throw call.signal.reason ?? new Error("the call was stopped before it ran");
    const { scope } = request.context;
    const result = await (scope === undefined
      ? fn.run({ ...request.args }, call)
      : inCallScope(scope, () => fn.run({ ...request.args }, call)));
    outcome = { ok: true, result: asJson(result, fn), ms: elapsed() };
  } catch (thrown) {
    // A call stopped from outside (a cancel, the wall time, a lost lease) fails for that reason.
    outcome = refuse(errorOf(call.signal.aborted ? thrown : toolFailure(fn, thrown)));
  }
  for (const interceptor of interceptors) {
    try {
      outcome = (await interceptor.after?.(request, outcome)) ?? outcome;
    } catch (thrown) {
      outcome = refuse(errorOf(thrown));
    }
  }
  return outcome;
}

function checkArguments(
  fn: CallableFunction,
  args: unknown,
): { args: Readonly<Record<string, unknown>> } | { error: CallError } {
  if (typeof args !== "object" || args === null || Array.isArray(args)) {
    const issues = [{ path: "", message: "must be an object of named arguments" }];
    return { error: invalidArguments(fn, issues) };
  }
  const issues = argumentIssues(fn.inputSchema, args);
  if (issues.length > 0) return { error: invalidArguments(fn, issues) };
  return { args: args as Readonly<Record<string, unknown>> };
}

function invalidArguments(fn: CallableFunction, issues: readonly ArgumentIssue[]): CallError {
  return {
    code: "INVALID_INPUT",
    message: `arguments for ${fn.modelName} do not match its input schema: ${formatIssues(issues)}`,
    issues,
  };
}

/**
 * What a function's own throw means: an Oz0Error keeps its code (also one from a plugin's own
 * copy of the SDK, which isOz0Error tells by its brand); anything else is the tool's failure,
 * not a fault of the platform, with the tool's own message.
 */
function toolFailure(fn: CallableFunction, thrown: unknown): unknown {
  if (isOz0Error(thrown)) return toOz0Error(thrown);
  const message = thrown instanceof Error ? thrown.message : String(thrown);
  const name = thrown instanceof Error ? thrown.name : typeof thrown;
  return new Oz0Error("TOOL_FAILED", message, { data: { address: fn.address, name }, cause: thrown });
}

function errorOf(thrown: unknown): CallError {
  const error = toOz0Error(thrown);
  return { code: error.code, message: error.message };
}

/**
 * The result as the model and the history will see it: JSON, with `undefined` as null. A value
 * JSON cannot hold fails the call, so what a job recorded is always what the model was told.
 */
function asJson(result: unknown, fn: CallableFunction): unknown {
  if (result === undefined || result === null) return null;
  if (typeof result === "string" || typeof result === "boolean") return result;
  if (typeof result === "number" && Number.isFinite(result)) return result;
  try {
    return JSON.parse(JSON.stringify(result));
  } catch (error) {
    throw new Error(
      `${fn.address} returned a value that is not JSON (${error instanceof Error ? error.message : String(error)}); return plain objects, arrays, strings, numbers and booleans`,
    );
  }
}
