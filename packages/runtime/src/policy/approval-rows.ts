// Approval rows: one per call that an ask rule held, bound to that call by a hash of all it
// approves. What the approver reads (`request`) and what the worker checks (`binding`) are
// written together, once, when the job asks.
import { randomBytes } from "node:crypto";
import { CompiledQuery, type Kysely } from "kysely";
import type { ApprovalRow, ApprovalStatus, Database } from "../store/index.js";

/** What an approval asks about, as `oz0 approval list` shows it. */
export interface ApprovalRequest {
  readonly callId: string;
  /** The job's agent by address. */
  readonly agent: string;
  /** The function by address (`oz.<function>` for a built-in). */
  readonly address: string;
  /** The name the model called it by. */
  readonly name: string;
  readonly args: unknown;
  /** The ask rule that held the call. */
  readonly rule: string;
  /** What the approver reads. */
  readonly summary: string;
  /** Who may answer; empty means the tenant's admins. */
  readonly approvers: readonly string[];
  /** The hash of the function's definition (description and input schema) when the call asked. */
  readonly definition: string;
}

/** An approval as the CLI and the API show it. */
export interface ApprovalView {
  readonly id: string;
  readonly tenant: string;
  readonly job: string;
  readonly agent: string;
  readonly callId: string;
  /** The function by address. */
  readonly address: string;
  readonly args: unknown;
  readonly rule: string;
  readonly summary: string;
  /** Who may answer; empty means the tenant's admins. */
  readonly approvers: readonly string[];
  /** `cancelled`: nobody decided before the job ended (cancelled, or its MCP client stopped waiting), so nobody can now. */
  readonly status: ApprovalStatus | "cancelled";
  readonly reason: string | null;
  readonly decidedBy: string | null;
  /** Epoch milliseconds, by the database's clock. */
  readonly requestedAt: number;
  readonly decidedAt: number | null;
  /** When the approved call was let through; null before, and for a call never let through. */
  readonly usedAt: number | null;
}

const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";

/** A new approval's ID: `apr-`, a time-ordered part and a random one. */
export function newApprovalId(): string {
  let random = "";
  for (const byte of randomBytes(8)) random += ALPHABET[byte % ALPHABET.length];
  return `apr-${Date.now().toString(36)}${random}`;
}

export function parseRequest(row: Pick<ApprovalRow, "request">): ApprovalRequest {
  return JSON.parse(row.request) as ApprovalRequest;
}

/** The view of an approval row; one still pending when its job has ended (`jobEnded`) is shown cancelled. */
export function approvalView(row: ApprovalRow, jobEnded = false): ApprovalView {
  const request = parseRequest(row);
  return {
    id: row.id,
    tenant: row.tenant,
    job: row.job_id,
    agent: row.agent ?? request.agent,
    callId: row.call_id ?? request.callId,
    address: row.address,
    args: request.args,
    rule: request.rule,
    summary: request.summary,
    approvers: request.approvers ?? [],
    status: row.status === "pending" && jobEnded ? "cancelled" : row.status,
    reason: row.reason,
    decidedBy: row.decided_by,
    requestedAt: Number(row.requested_at),
    decidedAt: row.decided_at === null ? null : Number(row.decided_at),
    usedAt: row.used_at === null ? null : Number(row.used_at),
  };
}

/** The approval of one call of a job, if the call asked for one. */
export async function approvalOfCall(
  db: Kysely<Database>,
  tenant: string,
  job: string,
  callId: string,
): Promise<ApprovalRow | undefined> {
  let text = approvalQueries.get(db);
  if (text === undefined) {
    text = db
      .selectFrom("approvals")
      .selectAll()
      .where("tenant", "=", "")
      .where("job_id", "=", "")
      .where("call_id", "=", "")
      .compile().sql;
    approvalQueries.set(db, text);
  }
  const { rows } = await db.executeQuery<ApprovalRow>(CompiledQuery.raw(text, [tenant, job, callId]));
  return rows[0];
}

/** The query above, compiled once per database: a governed call runs it at every step. */
const approvalQueries = new WeakMap<Kysely<Database>, string>();
