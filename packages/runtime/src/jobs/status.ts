// A job's status as a state machine: the table of the moves a job may make, and the one
// function every write of the `status` column goes through. The write is a guarded UPDATE
// (`where status in (the statuses the move may start from)`), so two writers that race each
// other cannot both move a job: the one that comes second finds no row to update, and says so.
import { Oz0Error } from "@oz0/sdk";
import type { Transaction, UpdateObject, UpdateQueryBuilder } from "kysely";
import type { Database, JobStatus } from "../store/index.js";

/**
 * Where a job may go from each status. `running → running` is a takeover: a worker claims a
 * job whose lease ran out. An ended job (succeeded, failed, cancelled) goes nowhere; a
 * dead-lettered one goes back to the queue only when an operator retries it.
 */
export const JOB_TRANSITIONS: Readonly<Record<JobStatus, readonly JobStatus[]>> = {
  // Claimed by a worker, or cancelled before any worker took it.
  queued: ["running", "cancelled"],
  // Taken over, let go, parked, or ended.
  running: ["running", "queued", "waiting", "succeeded", "failed", "cancelled", "dead"],
  // Woken (an answer, a decision, a child's end, a chat message), a chat ended, or cancelled.
  waiting: ["queued", "succeeded", "cancelled"],
  succeeded: [],
  failed: [],
  cancelled: [],
  // Retried by an operator (`oz0 job retry`).
  dead: ["queued"],
};

/**
 * What a job may be created as: queued for a worker, or running under its creator's lease (an
 * `oz0 mcp serve` call's job, which that process runs and ends itself).
 */
export const JOB_INITIAL_STATUSES: readonly JobStatus[] = ["queued", "running"];

/** Throws INTERNAL when a new job would start in a status no job starts in. */
export function assertInitial(job: string, status: JobStatus): void {
  if (JOB_INITIAL_STATUSES.includes(status)) return;
  throw new Oz0Error(
    "INTERNAL",
    `job ${job}: oz0 tried to create it ${status}; a job starts ${JOB_INITIAL_STATUSES.join(" or ")} ` +
      "(jobs/status.ts), and nothing was written.",
    { data: { job, status } },
  );
}

/** Whether a job may move from `from` to `to`. */
export function canMove(from: JobStatus, to: JobStatus): boolean {
  return JOB_TRANSITIONS[from].includes(to);
}

/** Every status a job may reach `to` from. */
export function movesInto(to: JobStatus): JobStatus[] {
  return (Object.keys(JOB_TRANSITIONS) as JobStatus[]).filter((from) => canMove(from, to));
}

/**
 * Who asked for a move the table refuses: a person's request (`user`: cancel a job that ended)
 * is their mistake, JOB_STATE_CONFLICT; oz0's own code asking for one is a fault, INTERNAL.
 */
export type MoveSide = "user" | "internal";

/**
 * The error for a move that cannot be made, naming the job and from → to: one the table refuses,
 * or one this write does not make from there (`expected`: the statuses it moves a job from).
 */
export function illegalMove(
  job: string,
  from: JobStatus,
  to: JobStatus,
  side: MoveSide = "internal",
  expected: readonly JobStatus[] = movesInto(to),
): Oz0Error {
  const data = { job, status: from, to };
  const why = canMove(from, to)
    ? `this write moves only a job that is ${expected.join(" or ")}`
    : `a ${from} job cannot become ${to}`;
  if (side === "user") {
    return new Oz0Error(
      "JOB_STATE_CONFLICT",
      `job ${job} is ${from}, and ${why}; oz0 job get ${job} shows where it stands.`,
      { data },
    );
  }
  return new Oz0Error(
    "INTERNAL",
    `job ${job}: oz0 tried to move it from ${from} to ${to} (${why}, jobs/status.ts); nothing was written. ` +
      `Please report this with oz0 job trace ${job}.`,
    { data },
  );
}

/** Throws the refusal when a job in `from` may not move to `to`. */
export function assertMove(job: string, from: JobStatus, to: JobStatus, side: MoveSide = "internal"): void {
  if (!canMove(from, to)) throw illegalMove(job, from, to, side);
}

type JobsUpdate<O> = UpdateQueryBuilder<Database, "jobs", "jobs", O>;

/**
 * The status part of an UPDATE of `jobs`: sets `to`, and keeps only rows whose status is one of
 * `from` (every status the table lets reach `to` when left out). Each of `from` is checked
 * against the table when the query is built, so code that asks for an illegal move fails
 * before it writes anything.
 * @example await moveStatus(trx.updateTable("jobs").where("id", "=", id), "queued", ["waiting"]).execute();
 */
export function moveStatus<O>(
  query: JobsUpdate<O>,
  to: JobStatus,
  from: readonly JobStatus[] = movesInto(to),
  job = "?",
): JobsUpdate<O> {
  for (const status of from) assertMove(job, status, to);
  return query.set({ status: to }).where("status", "in", from);
}

/**
 * Moves job `id` to `to` from one of `from`, with `set` in the same UPDATE, in a transaction
 * that holds the job's row. A job that is in none of `from` is refused (its status named), and
 * nothing is written: `side` says whose mistake that is.
 */
export async function moveJob(
  trx: Transaction<Database>,
  id: string,
  to: JobStatus,
  options: {
    readonly from: readonly JobStatus[];
    /** The other columns the same UPDATE writes (not `status`: that is `to`). */
    readonly set?: Omit<UpdateObject<Database, "jobs">, "status">;
    readonly side?: MoveSide;
  },
): Promise<void> {
  let query = moveStatus(trx.updateTable("jobs").where("id", "=", id), to, options.from, id);
  if (options.set !== undefined) query = query.set(options.set);
  const moved = await query.executeTakeFirst();
  if (Number(moved.numUpdatedRows) > 0) return;
  const found = await trx.selectFrom("jobs").select("status").where("id", "=", id).executeTakeFirst();
  if (found === undefined) {
    throw new Oz0Error("NOT_FOUND", `there is no job ${id}; oz0 job search lists the tenant's jobs.`, {
      data: { kind: "job", name: id },
    });
  }
  throw illegalMove(id, found.status, to, options.side, options.from);
}
