// A person's side of approvals: the pending calls of a tenant, and deciding one. A decision
// is bound to its approval's one call; deciding it twice the same way changes nothing, and
// the other way is refused. A job that waits for the decided call is queued to go on, with
// `approval_decided` in its history; a job running meanwhile records it when it reaches the call.
import { Oz0Error } from "@oz0/sdk";
import { event, type NewEvent, type WaitingFor } from "../events/index.js";
import { HookBus, type HookSource } from "../hooks/index.js";
import { type ApprovalView, approvalView, moveApproval } from "../policy/index.js";
import type { ApprovalRow, ApprovalStatus, Store } from "../store/index.js";
import { moveJob } from "./status.js";
import { isTerminal, JobStore } from "./store.js";

/** approve or deny. */
export type ApprovalDecision = "approve" | "deny";

/** What deciding did. */
export interface DecisionReport {
  readonly approval: ApprovalView;
  /** False when the approval was already decided this way: nothing changed. */
  readonly changed: boolean;
  /** The job was waiting for this call and is queued to go on. */
  readonly queued: boolean;
}

export interface ApprovalFilter {
  /** `pending` (the default) shows the calls waiting for a person in jobs that have not ended. */
  readonly status?: ApprovalStatus | "all";
  readonly job?: string;
}

function byCall(a: ApprovalView, b: ApprovalView): number {
  if (a.job !== b.job) return a.job < b.job ? -1 : 1;
  const [aStep = 0, aIndex = 0] = a.callId.split(".").map(Number);
  const [bStep = 0, bIndex = 0] = b.callId.split(".").map(Number);
  return aStep - bStep || aIndex - bIndex;
}

const STATUS_OF: Record<ApprovalDecision, "approved" | "denied"> = { approve: "approved", deny: "denied" };

export class Approvals {
  readonly #store: Store;
  readonly #jobs: JobStore;
  readonly #hooks: HookSource | undefined;

  /** `hooks`: the tenants' hook tables, for the reason a person gives, which is their input to the job. */
  constructor(store: Store, jobs: JobStore = new JobStore(store), hooks?: HookSource) {
    this.#store = store;
    this.#jobs = jobs;
    this.#hooks = hooks;
  }

  /**
   * The reason a person gave with a decision, which the model is told: user_input may rewrite
   * it or refuse it (the decision is then not made). Returns it with what the hooks recorded.
   */
  async #reason(
    tenant: string,
    job: string,
    reason: string | null,
    by: string,
  ): Promise<{ readonly reason: string | null; readonly events: NewEvent[] }> {
    const events: NewEvent[] = [];
    if (reason === null || this.#hooks === undefined) return { reason, events };
    const table = await this.#hooks.table(tenant);
    if (!table.has("user_input")) return { reason, events };
    const bus = new HookBus(table, { tenant, jobId: job }, (entry) => events.push(entry as NewEvent));
    const outcome = await bus.fire("user_input", { content: reason, attachments: [], senderId: by });
    if (!outcome.ok) {
      // The decision is not made, but the refusal is the job's to show, as a refused answer is.
      await this.#jobs.note(job, tenant, events);
      throw outcome.error;
    }
    return { reason: outcome.payload.content, events };
  }

  /**
   * The tenant's approvals, oldest first: by default each pending call of a job that has not
   * ended, with its job, agent, function by address and arguments.
   */
  async list(tenant: string, filter: ApprovalFilter = {}): Promise<ApprovalView[]> {
    const status = filter.status ?? "pending";
    let query = this.#store.db
      .selectFrom("approvals")
      .innerJoin("jobs", "jobs.id", "approvals.job_id")
      .selectAll("approvals")
      .select("jobs.status as job_status")
      .where("approvals.tenant", "=", tenant);
    if (status !== "all") query = query.where("approvals.status", "=", status);
    if (status === "pending")
      query = query.where("jobs.status", "not in", ["succeeded", "failed", "cancelled", "dead"]);
    if (filter.job !== undefined) query = query.where("approvals.job_id", "=", filter.job);
    const rows = await query.orderBy("approvals.requested_at").orderBy("approvals.job_id").execute();
    // Calls of one job in the order the model asked for them (call 1.2 before 1.10).
    return rows
      .map(({ job_status, ...row }) => approvalView(row, isTerminal(job_status)))
      .sort((a, b) => a.requestedAt - b.requestedAt || byCall(a, b));
  }

  async get(tenant: string, id: string): Promise<ApprovalView> {
    const row = await this.row(tenant, id);
    const job = await this.#jobs.get(row.job_id);
    return approvalView(row, job === undefined || isTerminal(job.status));
  }

  /** Approves the call; see `decide`. */
  approve(tenant: string, id: string, by: string, reason?: string): Promise<DecisionReport> {
    return this.decide(tenant, id, "approve", by, reason);
  }

  /** Denies the call: it never runs, and the model is told it was denied (with the reason). */
  deny(tenant: string, id: string, by: string, reason?: string): Promise<DecisionReport> {
    return this.decide(tenant, id, "deny", by, reason);
  }

  /**
   * Records a person's decision on approval `id`. The same decision twice changes nothing (an
   * approved call runs once); the other decision, or any decision once the job has ended, is
   * refused with APPROVAL_STATE_CONFLICT.
   */
  async decide(
    tenant: string,
    id: string,
    decision: ApprovalDecision,
    by: string,
    reason?: string,
  ): Promise<DecisionReport> {
    const found = await this.row(tenant, id);
    const status = STATUS_OF[decision];
    const given = reason === undefined || reason.trim() === "" ? null : reason;
    const { reason: note, events: checked } = await this.#reason(tenant, found.job_id, given, by);
    const outcome = await this.#store.transaction(async (trx) => {
      // The job's row first, as its worker's writes lock it, so the two never wait on each other.
      const job = await this.#jobs.lockJob(trx, found.job_id).catch(() => undefined);
      let query = trx.selectFrom("approvals").selectAll().where("id", "=", id);
      if (this.#store.engine === "postgres") query = query.forUpdate();
      const row = await query.executeTakeFirstOrThrow();
      if (row.status === "withdrawn") {
        throw new Oz0Error(
          "APPROVAL_STATE_CONFLICT",
          `approval ${id} was withdrawn: nobody waits for its call any more (its MCP client stopped waiting), so there is nothing to decide.`,
          { data: { approval: id, status: row.status } },
        );
      }
      if (row.status !== "pending") {
        if (row.status === status) return { changed: false, queued: false };
        throw new Oz0Error(
          "APPROVAL_STATE_CONFLICT",
          `approval ${id} was already ${row.status} by ${row.decided_by ?? "someone"}; a decision stands once made.`,
          { data: { approval: id, status: row.status } },
        );
      }
      if (job === undefined || isTerminal(job.status)) {
        const ended = job?.status ?? "removed";
        throw new Oz0Error(
          "APPROVAL_STATE_CONFLICT",
          `approval ${id} is for job ${found.job_id}, which has ended (${ended}); there is no call left to decide.`,
          { data: { approval: id, status: ended } },
        );
      }
      const now = await this.#jobs.nowIn(trx);
      // A job no worker holds gets the decision in its history now; a running one takes it up
      // when it reaches the call.
      const recorded = job.status === "waiting";
      // The row is locked and pending: the guarded move cannot lose here, and says so if it does.
      if (!(await moveApproval(trx, id, status, { at: now, by, reason: note, recorded }))) {
        throw new Oz0Error("INTERNAL", `approval ${id} stopped being pending while its row was locked.`, {
          data: { approval: id },
        });
      }
      if (!recorded) return { changed: true, queued: false };
      await this.#jobs.appendOutside(trx, job.id, [
        ...checked,
        event("approval_decided", {
          approval: id,
          callId: row.call_id ?? "",
          decision: status,
          by,
          ...(note === null ? {} : { reason: note }),
        }),
      ]);
      const waiting = job.waiting_for === null ? null : (JSON.parse(job.waiting_for) as WaitingFor);
      if (waiting?.kind !== "approval" || waiting.callId !== row.call_id)
        return { changed: true, queued: false };
      await moveJob(trx, job.id, "queued", {
        from: ["waiting"],
        set: { waiting_for: null, updated_at: this.#store.clockSql },
      });
      return { changed: true, queued: true };
    });
    return { approval: await this.get(tenant, id), ...outcome };
  }

  private async row(tenant: string, id: string): Promise<ApprovalRow> {
    const row = await this.#store.db
      .selectFrom("approvals")
      .selectAll()
      .where("id", "=", id)
      .where("tenant", "=", tenant)
      .executeTakeFirst();
    if (row !== undefined) return row;
    throw new Oz0Error(
      "NOT_FOUND",
      `there is no approval ${id} in tenant ${tenant}; oz0 approval list shows the calls waiting for one.`,
      { data: { kind: "approval", name: id, tenant } },
    );
  }
}
