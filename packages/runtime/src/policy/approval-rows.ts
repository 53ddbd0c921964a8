// Approval rows: one per call that an ask rule held, bound to that call by a hash of all it
// approves. What the approver reads (`request`) and what the worker checks (`binding`) are
// written together, once, when the job asks. This module is the only writer of the table:
// a row is inserted pending and moves once, as APPROVAL_TRANSITIONS says, by a guarded UPDATE,
// so of a decision and a withdrawal racing for one row only one lands.
import { randomBytes } from "node:crypto";
import { Oz0Error } from "@oz0/sdk";
import { CompiledQuery, type Expression, type Kysely, type Transaction } from "kysely";
import type { ApprovalRow, ApprovalStatus, Database } from "../store/index.js";
import { type ApprovalSubject, approvalBinding, argsHash } from "./canonical.js";

/** What an approval asks about, as `oz0 approval list` shows it. */
export interface ApprovalRequest {
  readonly callId: string;
  /** The job's agent by address. */
  readonly agent: string;
  /** The function by address (`oz.<function>` for a built-in). */
  readonly address: string;
  /** The name the model called it by. */
  readonly name: string;
  /** As the job's history has them: the tenant's secrets redacted. */
  readonly args: unknown;
  /** `argsHash` of the arguments as called; left out by rows asked before it was kept. */
  readonly argsHash?: string;
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
  /**
   * `withdrawn`: an MCP client stopped waiting for the call before anyone decided; `cancelled`:
   * still pending when its job ended (cancelled). Nobody can decide either now.
   */
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

/**
 * Where an approval may go: a pending one is approved or denied by a person, or withdrawn when
 * nobody waits for its call any more; a decided or withdrawn one stays as it is.
 */
export const APPROVAL_TRANSITIONS: Readonly<Record<ApprovalStatus, readonly ApprovalStatus[]>> = {
  pending: ["approved", "denied", "withdrawn"],
  approved: [],
  denied: [],
  withdrawn: [],
};

type Db = Kysely<Database> | Transaction<Database>;

/** A call's approval to ask for: what the approver reads and what binds it to the call. */
export interface NewApproval {
  readonly id: string;
  readonly tenant: string;
  readonly job: string;
  /** The job's agent by address (what the binding names); "" for a call of the tenant's catalog. */
  readonly agent: string;
  readonly request: ApprovalRequest;
  readonly binding: string;
}

/** What keeps a tenant's secrets out of a stored request: the job's redactor. */
export interface RequestRedactor {
  json<T>(value: T): T;
}

/**
 * Asks for the approvals: each row pending, requested now by the database's clock. A request is
 * stored as the job's history keeps it, the tenant's secrets redacted (approvers read it; the
 * call's own arguments stay with the job), with the hash of its arguments as called, which is
 * what a decision is checked against.
 */
export async function insertApprovals(
  db: Db,
  /** The database's clock (`Store.clockSql`). */
  clock: Expression<number>,
  approvals: readonly NewApproval[],
  redactor: RequestRedactor,
): Promise<void> {
  if (approvals.length === 0) return;
  await db
    .insertInto("approvals")
    .values(
      approvals.map((entry) => ({
        id: entry.id,
        tenant: entry.tenant,
        job_id: entry.job,
        address: entry.request.address,
        request: JSON.stringify({ ...redactor.json(entry.request), argsHash: argsHash(entry.request.args) }),
        status: "pending" as const,
        requested_at: clock,
        call_id: entry.request.callId,
        agent: entry.agent,
        binding: entry.binding,
      })),
    )
    .execute();
}

/**
 * Moves approval `id` from pending to `to`, with the decision's fields, in one guarded UPDATE.
 * False when the row was no longer pending (decided or withdrawn meanwhile): nothing changed.
 * A move the table does not list is refused with INTERNAL before anything is written.
 */
export async function moveApproval(
  db: Db,
  id: string,
  to: Exclude<ApprovalStatus, "pending">,
  decision: {
    readonly at: number;
    readonly by?: string | null;
    readonly reason?: string | null;
    /** Whether the job's history has the decision already. */
    readonly recorded?: boolean;
  },
): Promise<boolean> {
  if (!APPROVAL_TRANSITIONS.pending.includes(to)) {
    throw new Oz0Error(
      "INTERNAL",
      `approval ${id}: oz0 tried to move it from pending to ${to}, which is not a move an approval makes.`,
      {
        data: { approval: id, status: "pending", to },
      },
    );
  }
  const moved = await db
    .updateTable("approvals")
    .set({
      status: to,
      reason: decision.reason ?? null,
      decided_by: decision.by ?? null,
      decided_at: decision.at,
      recorded: decision.recorded === true ? 1 : 0,
    })
    .where("id", "=", id)
    .where("status", "=", "pending")
    .executeTakeFirst();
  return Number(moved.numUpdatedRows) > 0;
}

/**
 * Notes that the job's history has the approval's decision, and, when the approved call goes on
 * (`usedAt`), when it was let through; `used_at` is set once.
 */
export async function noteApproval(
  db: Db,
  approval: Pick<ApprovalRow, "id" | "used_at">,
  usedAt?: number,
): Promise<void> {
  await db
    .updateTable("approvals")
    .set(
      usedAt !== undefined && approval.used_at === null ? { recorded: 1, used_at: usedAt } : { recorded: 1 },
    )
    .where("id", "=", approval.id)
    .execute();
}

/** Why an approved approval does not let the call `subject` through, or undefined when it does. */
export function approvalMismatch(approval: ApprovalRow, subject: ApprovalSubject): string | undefined {
  const request = parseRequest(approval);
  if (approval.agent !== subject.agent) return `it approves a call of agent ${approval.agent ?? "unknown"}`;
  if (approval.address !== subject.address) return `it approves a call of ${approval.address}`;
  const asked = request.argsHash ?? argsHash(request.args);
  if (asked !== argsHash(subject.args)) {
    return "the call's arguments are not the ones approved";
  }
  if (request.definition !== subject.definition) {
    return `the definition of ${subject.address} (its description or input schema) changed after the call asked`;
  }
  if (approval.binding !== approvalBinding(subject)) return "it was made for another call";
  return undefined;
}
