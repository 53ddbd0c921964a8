// The refusals of tool policy, approvals and kill switches, worded once: a job's model reads
// them as a call's error, a person reads them from the CLI, so each says what was refused,
// by which rule or switch, and what changes it.
import { Oz0Error } from "@oz0/sdk";
import type { KillRecord } from "./governance.js";

function byWhom(record: KillRecord): string {
  return record.by === null ? "" : ` by ${record.by}`;
}

/** A call of a killed tool's function. */
export function killedToolError(address: string, record: KillRecord): Oz0Error {
  return new Oz0Error(
    "KILLED",
    `${address} belongs to tool ${record.address}, which is stopped by a kill switch${byWhom(record)}, so the call did not run; ` +
      `do not call its functions again (oz0 revive tool ${record.address} lets them run again)`,
    { data: { kind: "tool", address: record.address, by: record.by } },
  );
}

/** A job of a killed agent, at its start or at its next step. */
export function killedAgentError(record: KillRecord): Oz0Error {
  return new Oz0Error(
    "KILLED",
    `agent ${record.address} is stopped by a kill switch${byWhom(record)}, so it runs no job; ` +
      `oz0 revive agent ${record.address} lets it run again`,
    { data: { kind: "agent", address: record.address, by: record.by } },
  );
}

/** A delegation to a killed agent. */
export function killedDelegateError(record: KillRecord): Oz0Error {
  return new Oz0Error(
    "KILLED",
    `agent ${record.address} is stopped by a kill switch${byWhom(record)}, so no job of it starts; do not delegate to it`,
    { data: { kind: "agent", address: record.address, by: record.by } },
  );
}

/** A call a deny rule covers. */
export function policyDeniedError(address: string, rule: string): Oz0Error {
  const reason = `the tenant's tool policy denies ${address} (rule: deny ${rule}), so the call did not run`;
  return new Oz0Error("POLICY_VIOLATION", reason, {
    data: { contractId: "tool-policy", reason, details: { address, rule } },
  });
}

/** A call an ask rule covers, from a caller that cannot wait for a person (a call by hand). */
export function approvalRequiredError(address: string, rule: string): Oz0Error {
  return new Oz0Error(
    "APPROVAL_REQUIRED",
    `${address} needs a person's approval for each call (rule: ask ${rule}), and a call by hand cannot wait for one; ` +
      "call it from a job, whose call waits for oz0 approval approve, or change the rule (oz0 policy allow|remove)",
    { data: { address, rule } },
  );
}

/** What the model is told when the person denied its call. */
export function approvalDeniedError(options: {
  readonly approval: string;
  readonly address: string;
  readonly by: string;
  readonly reason: string | null;
}): Oz0Error {
  const why = options.reason === null || options.reason === "" ? "" : `: ${options.reason}`;
  return new Oz0Error(
    "APPROVAL_DENIED",
    `${options.by} denied this call of ${options.address} (approval ${options.approval})${why}; it did not run`,
    { data: { ...options } },
  );
}

/** An approval that does not match the call it would let through. */
export function approvalMismatchError(approval: string, address: string, what: string): Oz0Error {
  return new Oz0Error(
    "APPROVAL_STATE_CONFLICT",
    `approval ${approval} does not fit this call of ${address}: ${what}, so the call did not run; call the function again to ask for a new approval`,
    { data: { approval, status: "mismatch" } },
  );
}
