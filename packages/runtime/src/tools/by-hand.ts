// Calling a function by hand (`oz0 tool call <plugin>/<tool>.<function> --args JSON`): the
// owner check on the address, then the same dispatch path a job's calls take, outside any job.
import { randomUUID } from "node:crypto";
import { type FunctionCall, Oz0Error } from "@oz0/sdk";
import type { Redactor } from "../models/index.js";
import { type Telemetry, tracedCall } from "../telemetry/index.js";
import {
  type CallContext,
  type CallError,
  type CallInterceptor,
  type CallOutcome,
  type CallRecorder,
  callJob,
  dispatchCall,
  OUTSIDE_CALL,
} from "./dispatch.js";
import { type CallableFunction, FunctionResolver } from "./functions.js";
import type { PartSource } from "./source.js";

/** What a call by hand did. */
export interface ToolCallReport {
  readonly address: string;
  /** The name a model sees the function by. */
  readonly modelName: string;
  readonly ok: boolean;
  readonly result?: unknown;
  readonly error?: CallError;
  readonly ms: number;
  readonly idempotencyKey: string;
}

export interface ToolCallerOptions {
  readonly source: PartSource;
  readonly home: string;
  readonly interceptors?: readonly CallInterceptor[];
  /** A tenant's secrets, kept out of what a call by hand reports; nothing is redacted when left out. */
  readonly redactor?: (tenant: string) => Promise<Redactor>;
  /** Exports each call as an `execute_tool` span; nothing is exported when left out. */
  readonly telemetry?: Telemetry | undefined;
}

export class ToolCaller {
  readonly #options: ToolCallerOptions;

  constructor(options: ToolCallerOptions) {
    this.#options = options;
  }

  /**
   * Calls the function at `address` with `args`. A refused or failed call is reported, not
   * thrown; an address that does not resolve throws (NOT_FOUND, OWNER_MISMATCH, TOOL_CLASH).
   * @example await caller.call("default", "support-triage/tickets.lookup", { id: 7 })
   */
  async call(tenant: string, address: string, args: unknown): Promise<ToolCallReport> {
    const resolver = new FunctionResolver(this.#options.source, { tenant, home: this.#options.home });
    const resolved = await resolver.resolve(address);
    if (resolved.kind === "builtin") {
      throw new Oz0Error(
        "INVALID_ADDRESS",
        `${address} is a built-in that acts on the job calling it, so only an agent in a job calls it; ` +
          "call a plugin's function by its address, <plugin>/<tool>.<function>.",
        { data: { input: address, form: "<plugin>/<tool>.<function>" } },
      );
    }
    const { fn } = resolved;
    const callId = randomUUID();
    const idempotencyKey = `manual:${callId}`;
    const call: FunctionCall = {
      tenant,
      jobId: "",
      callId,
      idempotencyKey,
      address: fn.address,
      attempt: 1,
      signal: new AbortController().signal,
    };
    const outcome = await this.#traced(fn, args, call, OUTSIDE_CALL, undefined, () =>
      dispatchCall(fn, args, call, { context: OUTSIDE_CALL, interceptors: this.#options.interceptors ?? [] }),
    );
    const base = { address: fn.address, modelName: fn.modelName, ms: outcome.ms, idempotencyKey };
    const report: ToolCallReport = outcome.ok
      ? { ...base, ok: true, result: outcome.result }
      : { ...base, ok: false, error: outcome.error };
    const redactor = await this.#options.redactor?.(tenant);
    return redactor === undefined ? report : redactor.json(report);
  }

  /**
   * Calls a function already resolved, on the same path with the same interceptors, for a caller
   * that records the call itself: an MCP client of `oz0 mcp serve`, whose calls are jobs.
   */
  dispatch(
    fn: CallableFunction,
    args: unknown,
    call: FunctionCall,
    recorder?: CallRecorder,
    traceparent?: string,
  ): Promise<CallOutcome> {
    // The call's job is the caller's own record of it; no loop decided the call.
    const context: CallContext = { origin: { kind: "job", job: call.jobId } };
    return this.#traced(fn, args, call, context, traceparent, () =>
      dispatchCall(fn, args, call, {
        context,
        interceptors: this.#options.interceptors ?? [],
        ...(recorder === undefined ? {} : { recorder }),
      }),
    );
  }

  /** Where this caller's spans go; undefined when no telemetry is configured. */
  get telemetry(): Telemetry | undefined {
    return this.#options.telemetry;
  }

  #traced(
    fn: CallableFunction,
    args: unknown,
    call: FunctionCall,
    context: CallContext,
    parent: string | undefined,
    run: () => Promise<CallOutcome>,
  ): Promise<CallOutcome> {
    const info = {
      tenant: call.tenant,
      name: fn.modelName,
      address: fn.address,
      callId: call.callId,
      job: callJob(context),
      args,
      parent,
      redact: async <T>(value: T): Promise<T> => {
        const redactor = await this.#options.redactor?.(call.tenant);
        return redactor === undefined ? value : redactor.json(value);
      },
    };
    return tracedCall(this.#options.telemetry, info, run);
  }
}
