// A served call that an ask rule of the tenant's tool policy holds waits for a person, as an
// agent's call does: an approval is asked for (`oz0 approval list` shows it, with the call's job),
// the MCP request stays open, with progress notifications for a client that asked for them, and
// the call runs once approved, or is answered with the refusal once denied. The approval is
// bound to that one call, so the dispatch path's policy check lets exactly it through. A client
// that stops waiting (it cancels the request, times out or goes away) withdraws the call: it
// never runs, even if approved a moment later, its approval is stored withdrawn (undecidable,
// off the pending list), and its job ends cancelled.

import { event } from "../../events/index.js";
import {
  type ApprovalRequest,
  approvalBinding,
  approvalDeniedError,
  callAddress,
  canonicalJson,
  definitionHash,
  governanceOf,
  insertApprovals,
  moveApproval,
  newApprovalId,
  noteApproval,
} from "../../policy/index.js";
import type { Store } from "../../store/index.js";
import { argumentIssues, type CallableFunction, type CallError } from "../../tools/index.js";
import type { CallJob } from "./call-jobs.js";

/** How often a held call looks for the decision, and how often it tells the client it still waits. */
export const APPROVAL_POLL_MS = 250;
const PROGRESS_EVERY_MS = 5_000;

export interface HoldOptions {
  readonly store: Store;
  readonly job: CallJob;
  readonly fn: CallableFunction;
  readonly args: Readonly<Record<string, unknown>>;
  /** Who the call is made as, as the approver reads it (`oz/mcp` for the tenant's catalog). */
  readonly caller: string;
  /** The client's request: aborted when the client gives up on it. */
  readonly signal: AbortSignal;
  /** Tells the client the call still waits (a progress notification); left out when it asked for none. */
  readonly progress?: ((message: string) => Promise<void>) | undefined;
}

/**
 * Asks for a person's approval of the call and waits for it. Undefined when the call may now
 * run (approved, or no ask rule covers it any more); the refusal when it was denied;
 * `withdrawn` when the client stopped waiting first.
 */
export async function holdForApproval(options: HoldOptions): Promise<CallError | "withdrawn" | undefined> {
  const { store, job, fn, args, signal } = options;
  const { tenant, callId } = job.call;
  const decision = (await governanceOf(store).current(tenant)).policy.decide(callAddress(fn));
  if (decision?.action !== "ask" || argumentIssues(fn.inputSchema, args).length > 0) return undefined;
  const definition = definitionHash(fn);
  const agent = job.call.agent ?? "";
  const request: ApprovalRequest = {
    callId,
    agent: options.caller,
    address: fn.address,
    name: fn.modelName,
    args,
    rule: decision.rule,
    summary: `${options.caller} calls ${fn.address} with ${canonicalJson(args)} over MCP`,
    approvers: [],
    definition,
  };
  const id = newApprovalId();
  await job.append(
    [
      event("approval_requested", {
        approval: id,
        callId,
        address: fn.address,
        name: fn.modelName,
        args,
        rule: decision.rule,
      }),
    ],
    (trx) =>
      insertApprovals(
        trx,
        store.clockSql,
        [
          {
            id,
            tenant,
            job: job.id,
            agent,
            request,
            binding: approvalBinding({
              tenant,
              job: job.id,
              callId,
              agent,
              address: fn.address,
              args,
              definition,
            }),
          },
        ],
        job.redactor,
      ),
  );
  let waited = 0;
  for (;;) {
    // Checked before the decision, so a call nobody waits for does not run on a late approval;
    // the row is withdrawn, unless a person decided it a moment before (it still does not run).
    if (signal.aborted) {
      await moveApproval(store.db, id, "withdrawn", { at: await store.now() });
      return "withdrawn";
    }
    const row = await store.db
      .selectFrom("approvals")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    if (row.status === "withdrawn") return "withdrawn";
    if (row.status === "approved" || row.status === "denied") {
      const approved = row.status === "approved";
      const by = row.decided_by ?? "a person";
      await job.append(
        [
          event("approval_decided", {
            approval: id,
            callId,
            decision: row.status,
            by,
            ...(row.reason === null ? {} : { reason: row.reason }),
          }),
        ],
        (trx, now) => noteApproval(trx, row, approved ? now : undefined),
      );
      if (approved) return undefined;
      const denied = approvalDeniedError({ approval: id, address: fn.address, by, reason: row.reason });
      return { code: denied.code, message: denied.message };
    }
    if (waited % PROGRESS_EVERY_MS === 0) {
      await options
        .progress?.(`waiting for a person to approve ${fn.address}: oz0 approval approve ${id}`)
        .catch(() => undefined);
    }
    await pause(APPROVAL_POLL_MS, signal);
    waited += APPROVAL_POLL_MS;
  }
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}
