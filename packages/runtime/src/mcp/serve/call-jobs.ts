// Each call an MCP client makes through `oz0 mcp serve` is a job: one per call, so the audit
// trail, `oz0 job search` and `oz0 job trace` show it as they show an agent's calls. The job
// is the served agent's (with --agent), or `oz/mcp` (oz0's own namespace, as in `oz.fail`) for
// the tenant's catalog. Its `tool_call` is stored before the call runs, and its result and end
// together after; no worker ever picks it up, since it holds no lease that could run out.
import { randomUUID } from "node:crypto";
import { type FunctionCall, Oz0Error } from "@oz0/sdk";
import type { Transaction } from "kysely";
import { event, type NewEvent } from "../../events/index.js";
import { type JobFailure, type JobStore, type Lease, newJobId } from "../../jobs/index.js";
import type { Redactor } from "../../models/index.js";
import type { Database } from "../../store/index.js";
import type { CallableFunction, CallOutcome } from "../../tools/index.js";

/** Who an MCP session's calls are made as, in the jobs that record them. */
export interface CallJobScope {
  readonly tenant: string;
  /** The served agent; the tenant's catalog (`oz/mcp`) when absent. */
  readonly agent?: { readonly plugin: string; readonly name: string } | undefined;
  /** Who starts the calls, as `job_started` records it: `mcp:<client name>`. */
  readonly by: string;
}

/** The job a call is recorded as when no agent is served: oz0's own MCP surface. */
export const CATALOG_CALLER = { plugin: "oz", name: "mcp" } as const;

/** The task queue of MCP call jobs: no node takes work from it. */
export const MCP_CALL_QUEUE = "mcp";

/** The `_meta` key of a call's result that names the job recording it. */
export const JOB_META_KEY = "oz0/job";

/** Where a call's job is kept while the call runs. */
export interface CallJob {
  readonly id: string;
  readonly call: FunctionCall;
  /** The tenant's secrets, kept out of what the job records. */
  readonly redactor: Redactor;
  /** Appends events while the call runs (an approval asked and decided); `also` joins the write. */
  append(
    events: readonly NewEvent[],
    also?: (trx: Transaction<Database>, now: number) => Promise<void>,
  ): Promise<void>;
  /** Records the outcome and ends the job; the outcome is returned as recorded, the tenant's secrets redacted. */
  finish(outcome: CallOutcome): Promise<CallOutcome>;
  /** Ends the job cancelled by `by` without a result: the call was withdrawn before it ran. */
  cancel(by: string): Promise<void>;
}

/** The failure kind a refused or failed call's job ends with, by the call's error code. */
const KIND_BY_CODE: Readonly<Record<string, string>> = {
  INVALID_INPUT: "invalid_input",
  POLICY_VIOLATION: "policy_denied",
  APPROVAL_REQUIRED: "policy_denied",
  APPROVAL_DENIED: "policy_denied",
  KILLED: "killed",
};

/**
 * Starts the job of one call of `fn` with `args`: the job exists, running, with its
 * `job_started` and `tool_call` stored, before the call runs.
 */
export async function startCallJob(
  jobs: JobStore,
  scope: CallJobScope,
  fn: CallableFunction,
  args: unknown,
  signal: AbortSignal,
): Promise<CallJob> {
  const owner = scope.agent ?? CATALOG_CALLER;
  const id = newJobId(owner.name);
  const callId = "1";
  const key = `${id}:${callId}`;
  const redactor = await jobs.redactorFor(scope.tenant);
  const lease: Lease = {
    job: id,
    token: `mcp#${randomUUID()}`,
    ttlMs: 0,
    nextSeq: 3,
    redactor,
    notesPending: 0,
  };
  const input = { function: fn.address, arguments: args };
  await jobs.create(
    {
      id,
      tenant: scope.tenant,
      name: owner.name,
      plugin: owner.plugin,
      kind: "agent",
      queue: MCP_CALL_QUEUE,
      status: "running",
      input: JSON.stringify(input),
      mode: "run",
      // An owner without an expiry: the job is this process's until it ends, and no worker claims it.
      lease_owner: lease.token,
    },
    [
      event("job_started", { agent: `${owner.plugin}/${owner.name}`, mode: "run", input, by: scope.by }),
      event("tool_call", { callId, name: fn.modelName, address: fn.address, key, attempt: 1, args }),
    ],
  );
  const call: FunctionCall = {
    tenant: scope.tenant,
    jobId: id,
    callId,
    idempotencyKey: key,
    ...(scope.agent === undefined ? {} : { agent: `${scope.agent.plugin}/${scope.agent.name}` }),
    address: fn.address,
    attempt: 1,
    signal,
  };
  return {
    id,
    call,
    redactor,
    async append(events, also) {
      // Still no expiry: a write renews the lease, and this job's must never run out.
      await jobs.write(lease, events, { lease_expires_at: null }, also);
    },
    async finish(given) {
      const outcome = redactor.json(given);
      const result = event(
        "tool_result",
        outcome.ok
          ? { callId, ok: true, result: outcome.result, ms: outcome.ms }
          : { callId, ok: false, error: outcome.error, ms: outcome.ms },
      );
      const failure: JobFailure | null = outcome.ok
        ? null
        : {
            kind: KIND_BY_CODE[outcome.error.code] ?? "internal",
            message: outcome.error.message,
            code: outcome.error.code,
          };
      const end =
        failure === null
          ? event("job_succeeded", { output: outcome.ok ? outcome.result : null })
          : event("job_failed", failure);
      try {
        await jobs.write(lease, [result, end], {
          status: failure === null ? "succeeded" : "failed",
          output: failure === null && outcome.ok ? JSON.stringify(outcome.result) : null,
          failure: failure === null ? null : JSON.stringify(failure),
          lease_owner: null,
          lease_expires_at: null,
        });
      } catch (error) {
        // Someone cancelled the job while the call ran: its history ends there, and the client
        // still gets what the call did.
        if (!(error instanceof Oz0Error && error.code === "LEASE_LOST")) throw error;
      }
      return outcome;
    },
    async cancel(by) {
      const failure: JobFailure = { kind: "cancelled", message: `cancelled by ${by}` };
      try {
        await jobs.write(lease, [event("job_cancelled", { by })], {
          status: "cancelled",
          failure: JSON.stringify(failure),
          cancel_requested_by: by,
          lease_owner: null,
          lease_expires_at: null,
        });
      } catch (error) {
        // Someone cancelled it first: it has ended already.
        if (!(error instanceof Oz0Error && error.code === "LEASE_LOST")) throw error;
      }
    },
  };
}
