// The job engine's reads and writes. A worker writes only under its lease: every write checks
// the lease token in the same statement or transaction as the events it appends (holding the
// job's row against a claim meanwhile), so a worker that lost the job (another took it over)
// cannot write at all. The lease is renewed by the database's clock from the heartbeat's thread,
// and by a write that changes the job's row (an end, a wait).
// Others write to a job only while no worker holds it (queued, waiting), under a row lock;
// what they have for a running job (hooks' records after the fact) waits in `job_notes` for
// the worker's next write, which every write's statement tells it of (`notes_pending`).
// What a job starts with and what its worker writes passes the tenant's redactor first, so no
// secret of the tenant is ever stored in a job's history or its row.
import { Oz0Error } from "@oz0/sdk";
import {
  CompiledQuery,
  type Expression,
  type ExpressionBuilder,
  type Kysely,
  sql,
  type Transaction,
} from "kysely";
import { event, type JobEvent, type JobFailure, type NewEvent, type WaitingFor } from "../events/index.js";
import { NO_SECRETS, type Redactor } from "../models/index.js";
import type {
  Database,
  JobRow,
  JobStatus,
  JobUpdate,
  NewJob,
  RunNow,
  Store,
  TenantVersions,
} from "../store/index.js";
import { modelCallUsage, sqliteCallCount } from "../usage/index.js";
import { JOB_FORMAT, type NodeServes, servedLabelSets } from "./queues.js";
import { assertInitial, assertMove, moveJob, moveStatus } from "./status.js";
import { notifyColumn, WriteGroup } from "./write-group.js";

/** A worker's hold on one job. `nextSeq` moves on with every write the worker makes. */
export interface Lease {
  readonly job: string;
  readonly token: string;
  readonly ttlMs: number;
  nextSeq: number;
  /** The job's tenant's secrets, as the worker took the job: every write passes it. */
  readonly redactor: Redactor;
  /**
   * Notes waiting in `job_notes` as the last write (or the claim) saw them: what hooks recorded
   * for the job from outside while this worker held it. The next write moves them into the history.
   */
  notesPending: number;
  /**
   * The tenant's governance version as the claim or the last write read it, for the next
   * write's guard on SQLite (`StepQueries.append`); undefined until one has read it.
   */
  governanceVersion?: number;
  /** The job's row as the write that ended it left it, for the run's caller to answer with. */
  ended?: JobRow;
}

/**
 * What a worker learns from each write: the database's time, whether someone asked to cancel,
 * and the events as they were stored (secrets redacted), which is what the run goes on with.
 */
export interface WriteResult extends Renewal {
  readonly events: readonly NewEvent[];
  /**
   * The tenant's governance version, read by the write's own statement: what the next step
   * goes by, without a statement of its own.
   */
  readonly governanceVersion: number;
  /** Whether the write's own statement sent the notice it was given (else the caller sends it). */
  readonly noticed?: boolean;
}

/** What a worker learns from each renewal of its lease: the database's time and a cancel request. */
/** A lease kept by the heartbeat: `until` moves the time it is kept until, without restarting it. */
export interface LeaseKeeper {
  until(until: number): void;
  stop(): void;
}

export interface Renewal {
  readonly now: number;
  readonly cancelRequestedBy: string | null;
}

/** The redactor of a tenant's secret values (model keys, MCP secrets, config secrets). */
export type TenantRedactor = (tenant: string) => Promise<Redactor>;

export const TERMINAL_STATUSES: readonly JobStatus[] = ["succeeded", "failed", "cancelled", "dead"];

export function isTerminal(status: JobStatus): boolean {
  return TERMINAL_STATUSES.includes(status);
}

export interface ClaimOptions {
  readonly node: string;
  readonly token: string;
  readonly ttlMs: number;
  /** One job by ID (`oz0 job resume`); otherwise the oldest runnable job. */
  readonly job?: string;
  readonly tenant?: string;
  /**
   * What the claiming node serves: only jobs of its pool whose labels are all its own. Every
   * queue when left out (a job run by ID here, `oz0 run`).
   */
  readonly serves?: Omit<NodeServes, "format">;
  /** The job format the claimer understands (JOB_FORMAT when left out): a job that needs a newer one is left queued. */
  readonly format?: number;
  /**
   * Records the claim's `job_claimed` (its attempt, `node`) in the claim's own commit, where the
   * run would write it next as a commit of its own; only with `tenant` (the redactor's). A job
   * with notes pending is claimed without it: the run's write of it takes the notes first.
   */
  readonly record?: boolean;
}

export interface Claimed {
  readonly row: JobRow;
  readonly lease: Lease;
  readonly now: number;
  /** The job's history as the claim found it, when the claim read it too (PostgreSQL, or a claim that recorded its event). */
  readonly events?: readonly JobEvent[];
  /** The claim's `job_claimed`, redacted, when the claim recorded it (`ClaimOptions.record`): not in `events`. */
  readonly recorded?: NewEvent;
}

export interface JobFilter {
  readonly tenant: string;
  /** The agent's bare name. */
  readonly name?: string;
  readonly plugin?: string;
  readonly status?: JobStatus;
  readonly parent?: string;
  /** Jobs whose agent had this tag when the job started. */
  readonly tag?: string;
  /** Only jobs created at or after this time (epoch milliseconds). */
  readonly since?: number;
  /** Only jobs created before this time (epoch milliseconds). */
  readonly until?: number;
  readonly limit?: number;
}

type Trx = Transaction<Database>;

/** A job row to insert; the store sets its times by the database's clock. */
export type NewJobRow = Omit<NewJob, "created_at" | "updated_at">;

export class JobStore {
  readonly store: Store;
  readonly #queries: StepQueries;
  readonly #redactor: TenantRedactor | undefined;
  /** On PostgreSQL, the process's grouped step writes (one per store, whichever job store writes). */
  readonly #group: WriteGroup | undefined;

  /** `redactor` gives a tenant's secrets; without it nothing is redacted (for tests of the store alone). */
  constructor(store: Store, redactor?: TenantRedactor) {
    this.store = store;
    this.#queries = new StepQueries(store.db, store.clockSql, store.engine, store.broadcast?.channel);
    this.#redactor = redactor;
    this.#group = store.engine === "postgres" ? writeGroupOf(store) : undefined;
  }

  /** The redactor of `tenant`'s secrets as they are now. Call it outside a transaction: it reads the store. */
  async redactorFor(tenant: string): Promise<Redactor> {
    return this.#redactor === undefined ? NO_SECRETS : this.#redactor(tenant);
  }

  private get clock(): Expression<number> {
    return this.store.clockSql;
  }

  /**
   * Inserts a new job and its first events, `seq` from 1, the tenant's secrets redacted.
   * `before` runs first in the same transaction: what it writes commits with the job or not at all.
   */
  async create(
    job: NewJobRow,
    events: readonly NewEvent[],
    before?: (trx: Trx) => Promise<void>,
  ): Promise<JobRow> {
    const redactor = await this.redactorFor(job.tenant);
    const clean = redactor.empty ? job : { ...job, input: redactor.text(job.input) };
    const first = redactor.json(events);
    // On PostgreSQL the row and its events are one statement (the events inserted from the row
    // the insert returned): one round trip and one commit, where a transaction was four.
    if (before === undefined && this.store.engine === "postgres" && first.length > 0)
      return this.createAlone(clean, first);
    const atOnce = this.store.transactionNow;
    if (before === undefined && atOnce !== undefined) {
      return atOnce((run) => {
        const row = run<JobRow>(this.createRow(clean)).rows[0];
        if (row === undefined) throw new Error(`the insert of job ${clean.id} returned no row`);
        for (const statement of this.eventsWrites(clean.id, 1, first)) run(statement);
        return row;
      });
    }
    return this.store.transaction(async (trx) => {
      await before?.(trx);
      return this.createIn(trx, clean, first);
    });
  }

  private async createAlone(job: NewJobRow, events: readonly NewEvent[]): Promise<JobRow> {
    assertInitial(job.id, job.status);
    const insert = this.#queries.createRecording(job, events.length);
    const values: Record<string, unknown> = { ...job };
    events.forEach((entry, index) => {
      values[`kind${index}`] = entry.kind;
      values[`data${index}`] = JSON.stringify(entry.data);
    });
    const { rows } = await this.store.db.executeQuery<JobRow & { inserted: number }>(
      CompiledQuery.raw(insert.sql, bind(insert, values)),
    );
    const created = rows[0];
    if (created === undefined) throw new Error(`the insert of job ${job.id} returned no row`);
    const { inserted: _inserted, ...row } = created;
    return row as JobRow;
  }

  /** Inserts a job within a transaction already open, such as a parent's that starts a child. */
  async createIn(trx: Trx, job: NewJobRow, events: readonly NewEvent[]): Promise<JobRow> {
    const { rows } = await trx.executeQuery<JobRow>(this.createRow(job));
    const row = rows[0];
    if (row === undefined) throw new Error(`the insert of job ${job.id} returned no row`);
    await this.insertEvents(trx, job.id, 1, events);
    return row;
  }

  /** The insert of `job`'s row, returning it. */
  private createRow(job: NewJobRow): CompiledQuery {
    assertInitial(job.id, job.status);
    const insert = this.#queries.create(job);
    return CompiledQuery.raw(insert.sql, bind(insert, job as Record<string, unknown>));
  }

  /** Keeps `traceparent` as the trace context of a job that has none yet (its first traced run's). */
  async keepTraceparent(id: string, traceparent: string): Promise<void> {
    await this.store.db
      .updateTable("jobs")
      .set({ traceparent })
      .where("id", "=", id)
      .where("traceparent", "is", null)
      .execute();
  }

  /**
   * Claims a runnable job: queued, or running under a lease that ran out (its worker died).
   * Counts an attempt and gives the caller a fresh lease token; `undefined` when none is there.
   */
  async claim(options: ClaimOptions): Promise<Claimed | undefined> {
    if (options.record === true && options.tenant !== undefined)
      return this.claimRecorded(options, options.tenant);
    const claimed = await this.claimRow(options);
    if (claimed === undefined) return undefined;
    const lease: Lease = {
      job: claimed.row.id,
      token: options.token,
      ttlMs: options.ttlMs,
      nextSeq: claimed.nextSeq,
      redactor: await this.redactorFor(claimed.row.tenant),
      notesPending: Number(claimed.row.notes_pending ?? 0),
      ...(claimed.governanceVersion === undefined ? {} : { governanceVersion: claimed.governanceVersion }),
    };
    return {
      row: claimed.row,
      lease,
      now: claimed.now,
      ...(claimed.events === undefined ? {} : { events: claimed.events }),
    };
  }

  /**
   * A claim and its `job_claimed` in one commit: on SQLite one transaction of the claim, the
   * read of the history and the event's insert; on PostgreSQL one statement, the event inserted
   * from the row the claim returned (its attempt, its last seq), its data text built as
   * `JSON.stringify` builds it. No row, or notes pending, and nothing is recorded.
   */
  private async claimRecorded(options: ClaimOptions, tenant: string): Promise<Claimed | undefined> {
    const redactor = await this.redactorFor(tenant);
    const node = (redactor.json({ attempt: 0, node: options.node }) as { node: string }).node;
    const claimedEvent = (attempt: number) => event("job_claimed", { attempt, node });
    const claim = this.#queries.claim(options);
    const parameters = bind(claim, this.claimValues(options));
    type ClaimRow = JobRow & {
      now: number;
      last_seq: number | null;
      governance_version?: number | null;
      history?: HistoryRow[];
      recorded_seq?: number | null;
    };
    let found: { row: ClaimRow; events: JobEvent[]; recorded: NewEvent | undefined } | undefined;
    const atOnce = this.store.transactionNow;
    if (atOnce === undefined) {
      // PostgreSQL: one statement.
      const { rows } = await this.store.db.executeQuery<ClaimRow>(
        CompiledQuery.raw(this.#queries.claimRecording(claim.sql, parameters.length + 1), [
          ...parameters,
          JSON.stringify(node),
        ]),
      );
      const row = rows[0];
      if (row !== undefined) {
        found = {
          row,
          events: (row.history ?? []).map(eventOf),
          recorded: row.recorded_seq == null ? undefined : claimedEvent(row.attempts),
        };
      }
    } else {
      // SQLite: the claim, the read of the history and the event's insert, one transaction.
      found = await atOnce((run) => {
        const row = run<ClaimRow>(CompiledQuery.raw(claim.sql, parameters)).rows[0];
        if (row === undefined) return undefined;
        const events = run<HistoryRow>(CompiledQuery.raw(this.#queries.events, [row.id, 0])).rows.map(
          eventOf,
        );
        if (Number(row.notes_pending ?? 0) > 0) return { row, events, recorded: undefined };
        const recorded = claimedEvent(row.attempts);
        for (const statement of this.eventsWrites(row.id, Number(row.last_seq ?? 0) + 1, [recorded]))
          run(statement);
        return { row, events, recorded };
      });
    }
    if (found === undefined) return undefined;
    const { now, last_seq, governance_version, history: _history, recorded_seq: _seq, ...row } = found.row;
    const lease: Lease = {
      job: row.id,
      token: options.token,
      ttlMs: options.ttlMs,
      nextSeq: Number(last_seq ?? 0) + 1 + (found.recorded === undefined ? 0 : 1),
      redactor,
      notesPending: Number(row.notes_pending ?? 0),
      ...(governance_version == null ? {} : { governanceVersion: Number(governance_version) }),
    };
    return {
      row,
      lease,
      now: Number(now),
      events: found.events,
      ...(found.recorded === undefined ? {} : { recorded: found.recorded }),
    };
  }

  private claimValues(options: ClaimOptions): Record<string, unknown> {
    const values: Record<string, unknown> = {
      token: options.token,
      ttl: options.ttlMs,
      tenant: options.tenant,
      job: options.job,
      format: options.format ?? JOB_FORMAT,
      pool: options.serves?.pool,
    };
    servedLabelSets(options.serves?.labels ?? []).forEach((set, index) => {
      values[`labels${index}`] = set;
    });
    return values;
  }

  private async claimRow(options: ClaimOptions): Promise<
    | {
        readonly row: JobRow;
        readonly nextSeq: number;
        readonly now: number;
        readonly governanceVersion?: number;
        readonly events?: JobEvent[];
      }
    | undefined
  > {
    const claim = this.#queries.claim(options);
    const parameters = bind(claim, this.claimValues(options));
    // One statement, atomic by itself on either engine (on SQLite it takes the write lock
    // before it reads; on PostgreSQL its pick skips rows other claims hold locked), so it
    // needs no transaction around it.
    const { rows } = await this.store.db.executeQuery<
      JobRow & {
        now: number;
        last_seq: number | null;
        governance_version?: number | null;
        history?: HistoryRow[];
      }
    >(CompiledQuery.raw(claim.sql, parameters));
    const claimed = rows[0];
    if (claimed === undefined) return undefined;
    const { now, last_seq, governance_version, history, ...job } = claimed;
    return {
      row: job,
      nextSeq: Number(last_seq ?? 0) + 1,
      now: Number(now),
      ...(governance_version == null ? {} : { governanceVersion: Number(governance_version) }),
      ...(history === undefined ? {} : { events: history.map(eventOf) }),
    };
  }

  /**
   * Appends `events` under `lease` and applies `set` to the job row, renewing the lease when it
   * sets something or has no events (a renewal); `also` runs in the same transaction. Throws LEASE_LOST when the lease is no longer this worker's.
   * The events and the row's output, failure and wait pass the lease's redactor first. `notice`
   * (a JSON list of messages for the store's broadcast) goes in the write's own statement where
   * it can (`noticed` in the answer), heard at its commit.
   */
  async write(
    lease: Lease,
    given: readonly NewEvent[],
    givenSet: JobUpdate = {},
    also?: (trx: Trx, now: number) => Promise<void>,
    notice?: string,
  ): Promise<WriteResult> {
    const { redactor } = lease;
    const events = redactor.json(given);
    const set = redactor.empty ? givenSet : redactedUpdate(givenSet, redactor);
    // Notes wait for this worker: the write takes the transaction that moves them into the history.
    if (lease.notesPending > 0) return this.drainingWrite(lease, events, set, also);
    const plain = also === undefined && Object.keys(set).length === 0;
    if (plain && events.length === 0)
      return this.single(lease, this.#queries.renew, [...renewParameters(lease), lease.job], events);
    // On SQLite one statement takes the write lock before it reads, so an insert that checks
    // the lease in its own select is atomic: one statement instead of a transaction of four.
    // The heartbeat renews the lease meanwhile.
    if (plain && this.store.engine === "sqlite") {
      const counts = this.callCounts(lease.job, lease.nextSeq, events);
      // A model call's count goes in the transaction of its event; anything else, alone.
      if (counts.length > 0)
        return this.store.transactionNow!((run) => this.appendNow(run, lease, events, counts));
      const guarded = this.guardedAppend(lease, events);
      if (guarded !== undefined && Number((await this.store.run(guarded)).numAffectedRows) === events.length)
        return this.unchanged(lease, events);
      const { rows } = await this.store.run<RenewedRow>(this.returningAppend(lease, events));
      return this.answered(lease, rows[0], events);
    }
    // On PostgreSQL one statement too: the owner check, which locks the job's row, and the
    // inserts of the rows it returned, in one round trip and one commit, where a transaction of
    // its own would be four round trips. Events alone go with other jobs' (write-group.ts); the
    // row is locked, not updated, and the heartbeat renews the lease, as on SQLite, so a step
    // leaves no dead row and no new index entry (lease_expires_at is in an index, so updating
    // it is never a heap-only update).
    if (plain && this.#group !== undefined) {
      const row = await this.#group.write({
        job: lease.job,
        token: lease.token,
        firstSeq: lease.nextSeq,
        events: events.map((entry) => ({ kind: entry.kind, data: JSON.stringify(entry.data) })),
        notice,
      });
      return { ...this.answered(lease, row, events), noticed: notice !== undefined };
    }
    // A write that changes the row renews the lease and sets its columns in the same statement.
    const shape = also === undefined ? writeShape(set) : undefined;
    if (shape !== undefined && this.store.engine === "postgres") {
      if (shape.status !== undefined) assertMove(lease.job, "running", shape.status);
      const write = this.#queries.renewAndWrite(events.length, shape);
      const parameters = bind(write, { ...writeValues(lease, events, set), notice: notice ?? null });
      const { rows } = await this.store.db.executeQuery<RenewedRow & Partial<EndedRow>>(
        CompiledQuery.raw(write.sql, parameters),
      );
      const row = rows[0];
      if (row !== undefined) lease.ended = endedRow(row);
      return { ...this.answered(lease, row, events), noticed: notice !== undefined };
    }
    // On SQLite a write of known shape with nothing more to do (an end, a wait) runs at once.
    const atOnce = this.store.transactionNow;
    if (shape !== undefined && atOnce !== undefined) {
      if (shape.status !== undefined) assertMove(lease.job, "running", shape.status);
      const write = this.#queries.renewAndWrite(0, shape);
      const renewal = CompiledQuery.raw(write.sql, bind(write, writeValues(lease, [], set)));
      const row = await atOnce((run) => {
        const renewed = run<RenewedRow & Partial<EndedRow>>(renewal).rows[0];
        if (renewed === undefined) throw leaseLost(lease);
        for (const statement of this.eventsWrites(lease.job, lease.nextSeq, events)) run(statement);
        return renewed;
      });
      lease.ended = endedRow(row);
      return this.answered(lease, row, events);
    }
    return this.store.transaction(async (trx) => {
      const row = await this.renewAndSet(trx, lease, set);
      if (row === undefined) throw leaseLost(lease);
      await this.insertEvents(trx, lease.job, lease.nextSeq, events);
      const now = Number(row.now);
      await also?.(trx, now);
      lease.nextSeq += events.length;
      lease.notesPending = Number(row.notes_pending ?? 0);
      return {
        now,
        cancelRequestedBy: row.cancel_requested_by,
        events,
        governanceVersion: Number(row.governance_version ?? 0),
      };
    });
  }

  /**
   * A write that also moves the job's notes into its history, before its own events: the
   * renewal locks the job's row (a note is added only under that lock), so every note there is
   * taken and none is added until the write commits.
   */
  private async drainingWrite(
    lease: Lease,
    events: readonly NewEvent[],
    set: JobUpdate,
    also: ((trx: Trx, now: number) => Promise<void>) | undefined,
  ): Promise<WriteResult> {
    return this.store.transaction(async (trx) => {
      const row = await this.renewAndSet(trx, lease, { ...set, notes_pending: 0 });
      if (row === undefined) throw leaseLost(lease);
      const all = [...(await this.takeNotes(trx, lease.job)), ...events];
      await this.insertEvents(trx, lease.job, lease.nextSeq, all);
      const now = Number(row.now);
      await also?.(trx, now);
      lease.nextSeq += all.length;
      lease.notesPending = 0;
      return {
        now,
        cancelRequestedBy: row.cancel_requested_by,
        events: all,
        governanceVersion: Number(row.governance_version ?? 0),
      };
    });
  }

  /** The job's notes in the order they came, taken out of `job_notes`. */
  private async takeNotes(trx: Trx, job: string): Promise<NewEvent[]> {
    const rows = await trx
      .selectFrom("job_notes")
      .select("events")
      .where("job_id", "=", job)
      .orderBy("seq")
      .execute();
    if (rows.length === 0) return [];
    await trx.deleteFrom("job_notes").where("job_id", "=", job).execute();
    return rows.flatMap((row) => JSON.parse(row.events) as NewEvent[]);
  }

  /**
   * Adds what hooks recorded after the fact (a chat message's post_session_access, a webhook's
   * post_sensor_event) to job `id`'s history, in a write of its own. A job no worker holds takes
   * them at once (after any notes left from its last run); a running job's history is its
   * worker's to write, in sequence, so they wait in `job_notes` for that worker's next write
   * (or, when that write ended the run, for what the worker does right after it: `flushNotes`).
   * True when they were written at once; false when they wait, or the job is not `tenant`'s.
   */
  async note(id: string, tenant: string, given: readonly NewEvent[]): Promise<boolean> {
    if (given.length === 0) return false;
    const redactor = await this.redactorFor(tenant);
    const events = redactor.json(given);
    return this.store.transaction(async (trx) => {
      const row = await this.lockJob(trx, id).catch(() => undefined);
      if (row === undefined || row.tenant !== tenant) return false;
      if (row.status === "running") {
        await trx
          .insertInto("job_notes")
          .values({ job_id: id, events: JSON.stringify(events), created_at: this.clock })
          .execute();
        await trx
          .updateTable("jobs")
          .set((eb) => ({ notes_pending: eb("notes_pending", "+", 1) }))
          .where("id", "=", id)
          .execute();
        return false;
      }
      await this.appendOutside(trx, id, [...(await this.notesLeft(trx, row)), ...events]);
      return true;
    });
  }

  /**
   * Moves the notes of a job no worker holds any more into its history: after a worker's write
   * that ended the job or parked it found notes added meanwhile. True when some were written.
   */
  async flushNotes(id: string): Promise<boolean> {
    return this.store.transaction(async (trx) => {
      const row = await this.lockJob(trx, id).catch(() => undefined);
      if (row === undefined || row.status === "running" || Number(row.notes_pending ?? 0) === 0) return false;
      const left = await this.takeNotesOutside(trx, id);
      await this.appendOutside(trx, id, left);
      return left.length > 0;
    });
  }

  /**
   * The notes job `row` still has, taken out of `job_notes`, for a write made outside any run
   * (a cancel of a job whose worker died) to put first; none when it has none.
   */
  async notesLeft(trx: Trx, row: JobRow): Promise<NewEvent[]> {
    return Number(row.notes_pending ?? 0) > 0 ? this.takeNotesOutside(trx, row.id) : [];
  }

  private async takeNotesOutside(trx: Trx, id: string): Promise<NewEvent[]> {
    await trx.updateTable("jobs").set({ notes_pending: 0 }).where("id", "=", id).execute();
    return this.takeNotes(trx, id);
  }

  /**
   * Renews `lease` every third of its time from the store's heartbeat thread, whatever this
   * thread is doing, until the database's clock reaches `until`: a worker stuck past its job's
   * wall time lets the lease run out, so that another worker can end the job. `listener`
   * hears each renewal (with a cancel request), and `undefined` once the lease is no longer
   * this worker's: another took the job over, or it ended.
   */
  keep(lease: Lease, until: number, listener: (renewed: Renewal | undefined) => void): LeaseKeeper {
    const heartbeat = this.store.heartbeat(
      {
        sql: this.#queries.keep,
        parameters: keepParameters(lease, until),
        everyMs: Math.max(50, Math.floor(lease.ttlMs / 3)),
      },
      (row) =>
        listener(
          row === undefined
            ? undefined
            : {
                now: Number(row.now),
                cancelRequestedBy: (row.cancel_requested_by as string | null | undefined) ?? null,
              },
        ),
    );
    return {
      until: (later) => heartbeat.update(keepParameters(lease, later)),
      stop: () => heartbeat.stop(),
    };
  }

  /** SQLite's append with its model calls' counts, by `run` inside their transaction. */
  private appendNow(
    run: RunNow,
    lease: Lease,
    events: readonly NewEvent[],
    counts: readonly CompiledQuery[],
  ): WriteResult {
    const guarded = this.guardedAppend(lease, events);
    const result =
      guarded !== undefined && Number(run(guarded).numAffectedRows) === events.length
        ? this.unchanged(lease, events)
        : this.answered(lease, run<RenewedRow>(this.returningAppend(lease, events)).rows[0], events);
    for (const count of counts) run(count);
    return result;
  }

  /**
   * SQLite's append when the claim or the last write read what the job goes by: most often
   * nothing of it changed, and the guard says so in the insert itself (`StepQueries.append`),
   * which inserts all the events or none. Undefined until one has read the governance version.
   */
  private guardedAppend(lease: Lease, events: readonly NewEvent[]): CompiledQuery | undefined {
    const known = lease.governanceVersion;
    if (known === undefined) return undefined;
    return CompiledQuery.raw(
      this.#queries.append(events.length, true),
      appendParameters(lease, events, known),
    );
  }

  /** SQLite's owner-checked append that returns what the job goes by, or no row when the lease is gone. */
  private returningAppend(lease: Lease, events: readonly NewEvent[]): CompiledQuery {
    return CompiledQuery.raw(this.#queries.append(events.length), appendParameters(lease, events));
  }

  /** A guarded append's answer: what the last write read still holds. */
  private unchanged(lease: Lease, events: readonly NewEvent[]): WriteResult {
    lease.nextSeq += events.length;
    // SQLite's clock is this process's: the statement's `now` would be this.
    return { now: Date.now(), cancelRequestedBy: null, events, governanceVersion: lease.governanceVersion! };
  }

  /** One statement under the owner check; it answers with one row per event (or one for a renewal). */
  private async single(
    lease: Lease,
    text: string,
    parameters: unknown[],
    events: readonly NewEvent[],
  ): Promise<WriteResult> {
    const { rows } = await this.store.run<RenewedRow>(CompiledQuery.raw(text, parameters));
    return this.answered(lease, rows[0], events);
  }

  /** What a write's one statement answered with: its row, or none when the lease was lost. */
  private answered(lease: Lease, row: RenewedRow | undefined, events: readonly NewEvent[]): WriteResult {
    if (row === undefined) throw leaseLost(lease);
    lease.nextSeq += events.length;
    lease.notesPending = Number(row.notes_pending ?? 0);
    const governanceVersion = Number(row.governance_version ?? 0);
    lease.governanceVersion = governanceVersion;
    return { now: Number(row.now), cancelRequestedBy: row.cancel_requested_by, events, governanceVersion };
  }

  /** Renews the lease and applies `given` under the owner check, by a query compiled once per shape. */
  private async renewAndSet(trx: Trx, lease: Lease, given: JobUpdate): Promise<RenewedRow | undefined> {
    const shape = writeShape(given);
    if (shape !== undefined) {
      if (shape.status !== undefined) assertMove(lease.job, "running", shape.status);
      const write = this.#queries.renewAndWrite(0, shape);
      const { rows } = await trx.executeQuery<RenewedRow>(
        CompiledQuery.raw(write.sql, bind(write, writeValues(lease, [], given))),
      );
      return rows[0];
    }
    const { status, ...set } = given;
    const update = trx.updateTable("jobs");
    // A worker's write moves its job only out of running (an end, a wait), as jobs/status.ts allows.
    const moved = status === undefined ? update : moveStatus(update, status, ["running"], lease.job);
    return moved
      .set({ updated_at: this.clock, lease_expires_at: sql<number>`${this.clock} + ${lease.ttlMs}`, ...set })
      .where("id", "=", lease.job)
      .where("lease_owner", "=", lease.token)
      .where("status", "=", "running")
      .returning((eb) => [
        "cancel_requested_by",
        "notes_pending",
        sql<number>`${this.clock}`.as("now"),
        governanceVersionOf(eb, lease.job),
      ])
      .executeTakeFirst();
  }

  /**
   * Lets go of `lease` while the job runs: it is queued again, for any worker to take up (or
   * cancel) at once, and the claim is not counted as an attempt that ended badly. The worker
   * that held it can record nothing more. False when the lease was no longer this worker's.
   */
  async release(lease: Lease): Promise<boolean> {
    const released = await moveStatus(this.store.db.updateTable("jobs"), "queued", ["running"], lease.job)
      .set((eb) => ({
        lease_owner: null,
        lease_expires_at: null,
        attempts: eb("attempts", "-", 1),
        updated_at: this.clock,
      }))
      .where("id", "=", lease.job)
      .where("lease_owner", "=", lease.token)
      .where("status", "=", "running")
      .executeTakeFirst();
    return Number(released.numUpdatedRows) > 0;
  }

  /**
   * Lets go of `lease` without queuing the job at once: it stays as a job whose worker died, and
   * any node claims it once `afterMs` has passed (no NOTIFY wakes a node meanwhile). The claim is
   * not counted as an attempt. False when the lease was no longer this worker's.
   */
  async setAside(lease: Lease, afterMs: number): Promise<boolean> {
    const result = await this.store.db
      .updateTable("jobs")
      .set((eb) => ({
        lease_owner: null,
        lease_expires_at: sql<number>`${this.clock} + ${afterMs}`,
        attempts: eb("attempts", "-", 1),
        updated_at: this.clock,
      }))
      .where("id", "=", lease.job)
      .where("lease_owner", "=", lease.token)
      .where("status", "=", "running")
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async get(id: string): Promise<JobRow | undefined> {
    const { rows } = await this.store.db.executeQuery<JobRow>(CompiledQuery.raw(this.#queries.get, [id]));
    return rows[0];
  }

  /** Job `id` and its tenant's versions as they stood when it was read, in one statement. */
  async getWithVersions(id: string): Promise<{ row: JobRow; versions: TenantVersions } | undefined> {
    const { rows } = await this.store.db.executeQuery<
      JobRow & { tenant_catalog_version: number; tenant_governance_version: number }
    >(CompiledQuery.raw(this.#queries.getWithVersions, [id]));
    const found = rows[0];
    if (found === undefined) return undefined;
    const { tenant_catalog_version: catalog, tenant_governance_version: governance, ...row } = found;
    return { row, versions: { catalog: Number(catalog), governance: Number(governance) } };
  }

  /** The job's events in order, after `afterSeq` when given. */
  async events(id: string, afterSeq = 0): Promise<JobEvent[]> {
    const { rows } = await this.store.db.executeQuery<HistoryRow>(
      CompiledQuery.raw(this.#queries.events, [id, afterSeq]),
    );
    return rows.map(eventOf);
  }

  /**
   * The newest `limit` events of `kinds` among the jobs `ids`, newest first, each with its job:
   * read by the jobs' primary key, so however long the tenant's history, only those jobs' rows.
   */
  async recentEvents(
    ids: readonly string[],
    kinds: readonly JobEvent["kind"][],
    limit: number,
  ): Promise<(JobEvent & { readonly job: string })[]> {
    if (ids.length === 0 || kinds.length === 0) return [];
    const rows = await this.store.db
      .selectFrom("job_events")
      .select(["job_id", "seq", "kind", "data", "at"])
      .where("job_id", "in", ids)
      .where("kind", "in", kinds)
      .orderBy("at", "desc")
      .orderBy("seq", "desc")
      .limit(limit)
      .execute();
    return rows.map(
      (row) =>
        ({
          job: row.job_id,
          seq: row.seq,
          at: Number(row.at),
          kind: row.kind,
          data: JSON.parse(row.data),
        }) as JobEvent & { readonly job: string },
    );
  }

  async search(filter: JobFilter): Promise<JobRow[]> {
    let query = this.store.db.selectFrom("jobs").selectAll().where("tenant", "=", filter.tenant);
    if (filter.name !== undefined) query = query.where("name", "=", filter.name);
    if (filter.plugin !== undefined) query = query.where("plugin", "=", filter.plugin);
    if (filter.status !== undefined) query = query.where("status", "=", filter.status);
    if (filter.parent !== undefined) query = query.where("parent_id", "=", filter.parent);
    if (filter.since !== undefined) query = query.where("created_at", ">=", filter.since);
    if (filter.until !== undefined) query = query.where("created_at", "<", filter.until);
    if (filter.tag !== undefined) {
      // tags is a JSON list of strings; a tag holds no quote, and its '_' is escaped for LIKE.
      const pattern = `%${JSON.stringify(filter.tag).replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
      query = query.where(sql<boolean>`tags like ${pattern} escape '\\'`);
    }
    return query
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(filter.limit ?? 50)
      .execute();
  }

  /**
   * Runs `work` on a job no worker holds, with the row locked: what a person or another job
   * does to it (cancel, answer, a child's end). `work` appends through the `append` it gets.
   */
  async outside<T>(
    id: string,
    work: (
      job: JobRow,
      tools: { trx: Trx; now: number; append: (events: readonly NewEvent[]) => Promise<void> },
    ) => Promise<T>,
  ): Promise<T> {
    // What a person adds (an answer, a chat message) passes the tenant's redactor like the rest.
    const owner = await this.store.db
      .selectFrom("jobs")
      .select("tenant")
      .where("id", "=", id)
      .executeTakeFirst();
    const redactor = owner === undefined ? NO_SECRETS : await this.redactorFor(owner.tenant);
    return this.store.transaction(async (trx) => {
      const job = await this.lockJob(trx, id);
      return work(job, {
        trx,
        now: await this.nowIn(trx),
        append: (events) => this.appendOutside(trx, id, redactor.json(events)),
      });
    });
  }

  /** Reads a job with its row locked (PostgreSQL; SQLite's write lock is already held). */
  async lockJob(trx: Trx, id: string): Promise<JobRow> {
    let query = trx.selectFrom("jobs").selectAll().where("id", "=", id);
    if (this.store.engine === "postgres") query = query.forUpdate();
    const job = await query.executeTakeFirst();
    if (job === undefined) throw jobNotFound(id);
    return job;
  }

  async appendOutside(trx: Trx, id: string, events: readonly NewEvent[]): Promise<void> {
    const last = await trx
      .selectFrom("job_events")
      .select((eb) => eb.fn.max("seq").as("seq"))
      .where("job_id", "=", id)
      .executeTakeFirst();
    await this.insertEvents(trx, id, (last?.seq ?? 0) + 1, events);
  }

  async nowIn(trx: Trx): Promise<number> {
    const { rows } = await sql<{ now: number }>`select ${this.clock} as now`.execute(trx);
    return Number(rows[0]!.now);
  }

  /**
   * Tells a waiting parent that its child ended: appends `child_job_finished` and queues the
   * parent for a worker. Runs in the child's last transaction, so the news is never lost.
   */
  async notifyParent(
    trx: Trx,
    child: { readonly id: string; readonly parent: string | null },
    end: { readonly status: JobStatus; readonly output?: unknown; readonly failure?: JobFailure | null },
  ): Promise<void> {
    if (child.parent === null) return;
    const parent = await this.lockJob(trx, child.parent).catch(() => undefined);
    if (parent?.status !== "waiting" || parent.waiting_for === null) return;
    const waiting = JSON.parse(parent.waiting_for) as WaitingFor;
    if (waiting.kind !== "child" || waiting.job !== child.id) return;
    await this.appendOutside(trx, parent.id, [
      event("child_job_finished", {
        callId: waiting.callId,
        job: child.id,
        status: end.status,
        ...(end.output === undefined ? {} : { output: end.output }),
        failure: end.failure ?? null,
      }),
    ]);
    await moveJob(trx, parent.id, "queued", {
      from: ["waiting"],
      set: { waiting_for: null, updated_at: this.clock },
    });
  }

  private async insertEvents(
    trx: Trx,
    job: string,
    firstSeq: number,
    events: readonly NewEvent[],
  ): Promise<void> {
    for (const statement of this.eventsWrites(job, firstSeq, events)) await trx.executeQuery(statement);
  }

  /**
   * The statements of a transaction that inserts `events` from `firstSeq` on: the insert, and on
   * SQLite each model_call's count in its tenant's totals (migration 28). None for no events.
   */
  private eventsWrites(job: string, firstSeq: number, events: readonly NewEvent[]): CompiledQuery[] {
    if (events.length === 0) return [];
    const parameters: unknown[] = [];
    events.forEach((entry, index) => {
      parameters.push(job, firstSeq + index, entry.kind, JSON.stringify(entry.data));
    });
    return [
      CompiledQuery.raw(this.#queries.insert(events.length), parameters),
      ...this.callCounts(job, firstSeq, events),
    ];
  }

  /** On SQLite, the count of each model_call among `events` (from `firstSeq` on) in its tenant's totals. */
  private callCounts(job: string, firstSeq: number, events: readonly NewEvent[]): CompiledQuery[] {
    const counts: CompiledQuery[] = [];
    if (this.store.engine !== "sqlite") return counts;
    events.forEach((entry, index) => {
      const call = modelCallUsage(entry);
      if (call !== undefined) counts.push(sqliteCallCount(job, firstSeq + index, call));
    });
    return counts;
  }
}

/**
 * A write's column that sends `notice` (null for none) on the broadcast's `channel` when the
 * write's owner check found the lease the writer's and a process follows the job: heard once the
 * statement commits (write-group.ts's `notifyColumn`, for the renewed row of a write of its own).
 */
function noticeColumn(channel: string | undefined, notice: string) {
  const [first = "", ...rest] = notifyColumn(channel)
    .replaceAll("$job", () => '"renewed"."id"')
    .split("$notice");
  let column = sql<null>`${sql.raw(first)}`;
  for (const part of rest) column = sql<null>`${column}${notice}${sql.raw(part)}`;
  return column.as("noticed");
}

/** An event as a row of job_events has it: its data JSON text. */
interface HistoryRow {
  readonly seq: number;
  readonly kind: string;
  readonly data: string;
  readonly at: number;
}

function eventOf(row: HistoryRow): JobEvent {
  return { seq: row.seq, at: Number(row.at), kind: row.kind, data: JSON.parse(row.data) } as JobEvent;
}

/** What an end's statement answers with: the job's row besides the write's answer (`inserted` and `noticed` on PostgreSQL). */
type EndedRow = JobRow & {
  readonly now: number;
  readonly governance_version: number | null;
  readonly inserted?: number;
  readonly noticed?: null;
};

/** The job's row an end's statement handed back, without the write's own answer; undefined for a write that did not end the job. */
function endedRow(row: RenewedRow & Partial<EndedRow>): JobRow | undefined {
  if (row.id === undefined) return undefined;
  const {
    now: _now,
    governance_version: _version,
    inserted: _inserted,
    noticed: _noticed,
    ...ended
  } = row as EndedRow;
  return ended;
}

interface RenewedRow {
  readonly cancel_requested_by: string | null;
  readonly notes_pending: number | null;
  readonly now: number;
  readonly governance_version: number | null;
}

/** The governance version of the job's tenant, as a column of a step's statement. */
function governanceVersionOf(eb: ExpressionBuilder<Database, "jobs">, job: string) {
  return eb
    .selectFrom("tenants")
    .select("tenants.governance_version")
    .where(
      "tenants.name",
      "=",
      eb.selectFrom("jobs as owner").select("owner.tenant").where("owner.id", "=", job),
    )
    .as("governance_version");
}

/**
 * The queries a worker runs at every step, compiled by Kysely once per store and reused with
 * new parameters: building and compiling them anew would cost more than running them.
 */
class StepQueries {
  readonly renew: string;
  /** The renewal the heartbeat thread runs: the same, until a time by the database's clock. */
  readonly keep: string;
  /** A job's row by ID (and with its tenant's versions), and its events after a sequence number, in order. */
  readonly get: string;
  readonly getWithVersions: string;
  readonly events: string;
  /** The inserts of a job's row, by the columns it has. */
  readonly #creates = new Map<string, CompiledWrite>();
  readonly #recordedCreates = new Map<string, CompiledWrite>();
  readonly #db: Kysely<Database>;
  readonly #clock: Expression<number>;
  readonly #inserts = new Map<number, string>();
  readonly #appends = new Map<number, string>();
  readonly #writes = new Map<string, CompiledWrite>();
  readonly #claims = new Map<string, CompiledWrite>();
  readonly #recordings = new Map<string, string>();
  readonly #engine: Store["engine"];

  readonly #channel: string | undefined;

  constructor(db: Kysely<Database>, clock: Expression<number>, engine: Store["engine"], channel?: string) {
    this.#db = db;
    this.#clock = clock;
    this.#engine = engine;
    this.#channel = channel;
    const renew = db
      .updateTable("jobs")
      .set({ updated_at: clock, lease_expires_at: sql<number>`${clock} + ${RENEW_ORDER[0]}` })
      .where("id", "=", RENEW_ORDER[1])
      .where("lease_owner", "=", RENEW_ORDER[2])
      .where("status", "=", RENEW_ORDER[3])
      .returning((eb) => [
        "cancel_requested_by",
        "notes_pending",
        sql<number>`${clock}`.as("now"),
        governanceVersionOf(eb, RENEW_ORDER[1]),
      ])
      .compile();
    expectOrder(renew.parameters, [...RENEW_ORDER, RENEW_ORDER[1]]);
    this.renew = renew.sql;
    const keep = db
      .updateTable("jobs")
      .set({ updated_at: clock, lease_expires_at: sql<number>`${clock} + ${RENEW_ORDER[0]}` })
      .where("id", "=", RENEW_ORDER[1])
      .where("lease_owner", "=", RENEW_ORDER[2])
      .where("status", "=", RENEW_ORDER[3])
      .where(sql<boolean>`${clock} < ${KEEP_UNTIL}`)
      .returning(["cancel_requested_by", sql<number>`${clock}`.as("now")])
      .compile();
    expectOrder(keep.parameters, [...RENEW_ORDER, KEEP_UNTIL]);
    this.keep = keep.sql;
    const get = db.selectFrom("jobs").selectAll().where("id", "=", BY_ID[0]).compile();
    expectOrder(get.parameters, BY_ID);
    this.get = get.sql;
    const withVersions = db
      .selectFrom("jobs")
      .innerJoin("tenants", "tenants.name", "jobs.tenant")
      .selectAll("jobs")
      .select([
        "tenants.catalog_version as tenant_catalog_version",
        "tenants.governance_version as tenant_governance_version",
      ])
      .where("jobs.id", "=", BY_ID[0])
      .compile();
    expectOrder(withVersions.parameters, BY_ID);
    this.getWithVersions = withVersions.sql;
    const events = db
      .selectFrom("job_events")
      .select(["seq", "kind", "data", "at"])
      .where("job_id", "=", EVENTS_ORDER[0])
      .where("seq", ">", EVENTS_ORDER[1])
      .orderBy("seq")
      .compile();
    expectOrder(events.parameters, EVENTS_ORDER);
    this.events = events.sql;
  }

  /**
   * On PostgreSQL, the insert of a new job's row with the columns `job` has and of its first
   * `events` events from the row it returns, in one statement (one round trip and one commit),
   * compiled once per shape: building it at every start cost 4–10% of a one-step job's CPU.
   */
  createRecording(job: NewJobRow, events: number): CompiledWrite {
    const columns = Object.keys(job).filter((column) => job[column as keyof NewJobRow] !== undefined);
    const key = `${columns.join(",")}/${events}`;
    let insert = this.#recordedCreates.get(key);
    if (insert !== undefined) return insert;
    const markers = new Map(columns.map((column) => [`\u0000job:${column}`, column]));
    const values = Object.fromEntries([...markers].map(([marker, column]) => [column, marker]));
    for (let index = 0; index < events; index++) {
      markers.set(`\u0000event:kind${index}`, `kind${index}`);
      markers.set(`\u0000event:data${index}`, `data${index}`);
    }
    const clock = this.#clock;
    const compiled = this.#db
      .with("created", (db) =>
        db
          .insertInto("jobs")
          .values({ ...(values as unknown as NewJobRow), created_at: clock, updated_at: clock })
          .returningAll(),
      )
      .with("inserted", (db) => {
        const row = (index: number) =>
          db
            .selectFrom("created")
            .select((eb) => [
              "created.id as job_id",
              eb.cast<number>(eb.val(1 + index), "integer").as("seq"),
              eb.cast<string>(eb.val(`\u0000event:kind${index}`), "text").as("kind"),
              eb.cast<string>(eb.val(`\u0000event:data${index}`), "text").as("data"),
              sql<number>`${clock}`.as("at"),
            ]);
        let rows = row(0);
        for (let index = 1; index < events; index++) rows = rows.unionAll(row(index));
        return db
          .insertInto("job_events")
          .columns(["job_id", "seq", "kind", "data", "at"])
          .expression(rows)
          .returning("seq");
      })
      .selectFrom("created")
      .selectAll("created")
      // Referenced, so that the insert's failure is the statement's.
      .select((eb) =>
        eb
          .selectFrom("inserted")
          .select((inner) => inner.fn.countAll<number>().as("n"))
          .as("inserted"),
      )
      .compile();
    insert = compiledWrite(compiled, markers);
    this.#recordedCreates.set(key, insert);
    return insert;
  }

  /** The insert of a new job's row with the columns `job` has, returning the row; the times are the database's. */
  create(job: NewJobRow): CompiledWrite {
    const columns = Object.keys(job).filter((column) => job[column as keyof NewJobRow] !== undefined);
    const key = columns.join(",");
    let insert = this.#creates.get(key);
    if (insert === undefined) {
      const markers = new Map(columns.map((column) => [`\u0000job:${column}`, column]));
      const values = Object.fromEntries([...markers].map(([marker, column]) => [column, marker]));
      const compiled = this.#db
        .insertInto("jobs")
        .values({ ...(values as unknown as NewJobRow), created_at: this.#clock, updated_at: this.#clock })
        .returningAll()
        .compile();
      insert = compiledWrite(compiled, markers);
      this.#creates.set(key, insert);
    }
    return insert;
  }

  /**
   * The owner-checked insert of `count` events: each row is selected from the job's row only
   * while the lease is the writer's, and the statement returns a cancel request, the notes
   * waiting, the tenant's governance version and the time. `guarded`, it returns nothing and
   * inserts only while the row has no cancel request and no notes and the tenant's governance
   * version is the one given as well: all its rows or none, so how many went in says whether
   * anything the writer goes by changed. SQLite builds a table of its own for the rows a
   * RETURNING clause gives, which cost a step's write more than its insert.
   */
  append(count: number, guarded = false): string {
    const key = guarded ? -count : count;
    let text = this.#appends.get(key);
    if (text === undefined) {
      const clock = this.#clock;
      const [job, seq, kind, data, token, running] = APPEND_ORDER;
      const row = (index: number) =>
        this.#db
          .selectFrom("jobs")
          .select((eb) => [
            eb.cast<string>(eb.val(job), "text").as("job_id"),
            eb.cast<number>(eb.val(seq + index), "integer").as("seq"),
            eb.cast<string>(eb.val(kind), "text").as("kind"),
            eb.cast<string>(eb.val(data), "text").as("data"),
            sql<number>`${clock}`.as("at"),
          ])
          .where("id", "=", job)
          .where("lease_owner", "=", token)
          .where("status", "=", running)
          .$if(guarded, (select) =>
            select
              .where("cancel_requested_by", "is", null)
              .where("notes_pending", "=", 0)
              .where(
                (eb) =>
                  eb
                    .selectFrom("tenants")
                    .select("governance_version")
                    .whereRef("tenants.name", "=", "jobs.tenant"),
                "=",
                GOVERNANCE_MARKER,
              ),
          );
      let rows = row(0);
      for (let index = 1; index < count; index++) rows = rows.unionAll(row(index));
      const insert = this.#db
        .insertInto("job_events")
        .columns(["job_id", "seq", "kind", "data", "at"])
        .expression(rows);
      if (guarded) {
        const compiled = insert.compile();
        const expected: unknown[] = [];
        for (let index = 0; index < count; index++)
          expected.push(job, seq + index, kind, data, job, token, running, 0, GOVERNANCE_MARKER);
        expectOrder(compiled.parameters, expected);
        this.#appends.set(key, compiled.sql);
        return compiled.sql;
      }
      const compiled = insert
        .returning((eb) => [
          eb.selectFrom("jobs").select("cancel_requested_by").where("id", "=", job).as("cancel_requested_by"),
          eb.selectFrom("jobs").select("notes_pending").where("id", "=", job).as("notes_pending"),
          sql<number>`${clock}`.as("now"),
          governanceVersionOf(eb as unknown as ExpressionBuilder<Database, "jobs">, job),
        ])
        .compile();
      const expected: unknown[] = [];
      for (let index = 0; index < count; index++)
        expected.push(job, seq + index, kind, data, job, token, running);
      expected.push(job, job, job);
      expectOrder(compiled.parameters, expected);
      text = compiled.sql;
      this.#appends.set(key, text);
    }
    return text;
  }

  /**
   * The owner-checked renewal that also sets the columns of `shape` (and moves the job out of
   * running when it has a status), compiled once per shape. With `count` events (PostgreSQL
   * only) it inserts them from the row the renewal returned, in the same statement: a writer
   * that lost its lease changes nothing and inserts nothing (no row comes back). With none it
   * is the update alone, for either engine.
   */
  renewAndWrite(count: number, shape: WriteShape): CompiledWrite {
    const key = `${count}:${shape.status ?? ""}:${shape.columns.join(",")}`;
    let found = this.#writes.get(key);
    if (found !== undefined) return found;
    const clock = this.#clock;
    const ends = shape.status !== undefined && isTerminal(shape.status);
    const markers = new Map<unknown, string>([
      [WRITE_MARKERS.ttl, "ttl"],
      [WRITE_MARKERS.job, "job"],
      [WRITE_MARKERS.token, "token"],
    ]);
    const marker = (name: string) => {
      const value = `\u0000${name}`;
      markers.set(value, name);
      return value;
    };
    const set: Record<string, unknown> = {};
    for (const column of shape.columns) set[column] = marker(`set:${column}`);
    const update = this.#db.updateTable("jobs");
    // A worker's write moves its job only out of running (an end, a wait), as jobs/status.ts allows.
    const moved =
      shape.status === undefined ? update : moveStatus(update, shape.status, ["running"], "(any job)");
    const renewal = moved
      .set({
        updated_at: clock,
        lease_expires_at: sql<number>`${clock} + ${WRITE_MARKERS.ttl}`,
        ...(set as JobUpdate),
      })
      .where("id", "=", WRITE_MARKERS.job)
      .where("lease_owner", "=", WRITE_MARKERS.token)
      .where("status", "=", "running");
    let compiled: CompiledQuery<unknown>;
    if (count === 0) {
      // An end hands back the job's row as it left it, as below.
      compiled = (ends ? renewal.returningAll() : renewal.returning(["cancel_requested_by", "notes_pending"]))
        .returning((eb) => [sql<number>`${clock}`.as("now"), governanceVersionOf(eb, WRITE_MARKERS.job)])
        .compile();
    } else {
      compiled = this.#db
        // An end hands back the job's row as it left it, for the run's caller to answer with
        // instead of reading it again.
        .with("renewed", () =>
          ends
            ? renewal.returningAll()
            : renewal.returning(["id", "tenant", "cancel_requested_by", "notes_pending"]),
        )
        .with("inserted", (db) => {
          const row = (index: number) =>
            db
              .selectFrom("renewed")
              .select((eb) => [
                "renewed.id as job_id",
                eb.cast<number>(eb.val(marker(`seq${index}`)), "integer").as("seq"),
                eb.cast<string>(eb.val(marker(`kind${index}`)), "text").as("kind"),
                eb.cast<string>(eb.val(marker(`data${index}`)), "text").as("data"),
                sql<number>`${clock}`.as("at"),
              ]);
          let rows = row(0);
          for (let index = 1; index < count; index++) rows = rows.unionAll(row(index));
          return db
            .insertInto("job_events")
            .columns(["job_id", "seq", "kind", "data", "at"])
            .expression(rows)
            .returning("seq");
        })
        .selectFrom("renewed")
        .$if(ends, (qb) => qb.selectAll("renewed"))
        .select((eb) => [
          "renewed.cancel_requested_by",
          "renewed.notes_pending",
          sql<number>`${clock}`.as("now"),
          eb
            .selectFrom("tenants")
            .select("tenants.governance_version")
            .whereRef("tenants.name", "=", "renewed.tenant")
            .as("governance_version"),
          // Referenced, so that the insert's failure (a duplicate seq) is the statement's.
          eb
            .selectFrom("inserted")
            .select((inner) => inner.fn.countAll<number>().as("n"))
            .as("inserted"),
          noticeColumn(this.#channel, marker("notice")),
        ])
        .compile();
    }
    found = compiledWrite(compiled, markers);
    this.#writes.set(key, found);
    return found;
  }

  /**
   * The claim of a runnable job (one by ID, or the oldest of a tenant or of some queues),
   * compiled once per shape: building it costs more than running it.
   */
  claim(options: ClaimOptions): CompiledWrite {
    const serves = options.serves;
    const labelSets = serves === undefined ? 0 : servedLabelSets(serves.labels).length;
    const pool = serves === undefined ? "-" : serves.pool === null ? "own" : "shared";
    const key = `${options.job === undefined ? "-" : "job"}:${options.tenant === undefined ? "-" : "tenant"}:${pool}:${labelSets}`;
    let found = this.#claims.get(key);
    if (found !== undefined) return found;
    const clock = this.#clock;
    const markers = new Map<unknown, string>([
      [CLAIM_MARKERS.token, "token"],
      [CLAIM_MARKERS.ttl, "ttl"],
      [CLAIM_MARKERS.tenant, "tenant"],
      [CLAIM_MARKERS.job, "job"],
    ]);
    markers.set(CLAIM_MARKERS.format, "format");
    markers.set(CLAIM_MARKERS.pool, "pool");
    const labelMarkers = Array.from({ length: labelSets }, (_, index) => {
      const marker = `\u0000labels${index}`;
      markers.set(marker, `labels${index}`);
      return marker;
    });
    const runnable = (eb: ExpressionBuilder<Database, "jobs">) =>
      eb.and([
        eb.or([
          eb("status", "=", "queued"),
          eb.and([eb("status", "=", "running"), eb("lease_expires_at", "<", clock)]),
        ]),
        eb("needs_format", "<=", CLAIM_MARKERS.format),
      ]);
    let pick = this.#db.selectFrom("jobs").select("id").where(runnable);
    if (options.tenant !== undefined) pick = pick.where("tenant", "=", CLAIM_MARKERS.tenant);
    if (serves !== undefined) {
      pick = pick
        .where((eb) => (serves.pool === null ? eb("pool", "is", null) : eb("pool", "=", CLAIM_MARKERS.pool)))
        .where("labels", "in", labelMarkers);
    }
    pick = pick.orderBy("created_at").orderBy("id").limit(1);
    // Workers on PostgreSQL pass over a job another worker is claiming instead of waiting for it.
    if (this.#engine === "postgres") pick = pick.forUpdate().skipLocked();
    const compiled = moveStatus(
      this.#db.updateTable("jobs"),
      "running",
      ["queued", "running"],
      options.job ?? "?",
    )
      .set({
        lease_owner: CLAIM_MARKERS.token,
        lease_expires_at: sql<number>`${clock} + ${CLAIM_MARKERS.ttl}`,
        // An attempt counts only when the claim before it got going (it recorded its
        // job_claimed) and made no progress (it recorded no step's result, NOT_PROGRESS): the
        // same step was in flight when that claim's worker stopped. A job that moved on starts
        // over at 1; a claim that stopped before its run began counts nothing; a poison step
        // reaches the dead letter.
        attempts: sql<number>`case when exists (select 1 from job_events where job_events.job_id = jobs.id and job_events.seq > jobs.progress_seq and job_events.kind not in (${sql.join(NOT_PROGRESS.map((kind) => sql`${kind}`))})) then 1 when exists (select 1 from job_events where job_events.job_id = jobs.id and job_events.seq > jobs.progress_seq and job_events.kind = 'job_claimed') then jobs.attempts + 1 when jobs.attempts < 1 then 1 else jobs.attempts end`,
        progress_seq: sql<number>`(select coalesce(max(job_events.seq), 0) from job_events where job_events.job_id = jobs.id)`,
        updated_at: clock,
      })
      // `=`, not `in`: PostgreSQL runs a scalar subquery once, where `in (… limit 1)` may be
      // run again for each row and hand one claim every queued job.
      .where((eb) => (options.job === undefined ? eb("id", "=", pick) : eb("id", "=", CLAIM_MARKERS.job)))
      .$if(options.tenant !== undefined && options.job !== undefined, (qb) =>
        qb.where("tenant", "=", CLAIM_MARKERS.tenant),
      )
      .where(runnable)
      .returningAll()
      .returning((eb) => [
        sql<number>`${clock}`.as("now"),
        eb
          .selectFrom("job_events")
          .select((inner) => inner.fn.max("seq").as("seq"))
          .whereRef("job_events.job_id", "=", "jobs.id")
          .as("last_seq"),
      ])
      // On SQLite the claim reads the tenant's governance version for the run's first write's
      // guard (`append`); PostgreSQL's writes have none.
      .$if(this.#engine === "sqlite", (qb) =>
        qb.returning((eb) =>
          eb
            .selectFrom("tenants")
            .select("governance_version")
            .whereRef("tenants.name", "=", "jobs.tenant")
            .as("governance_version"),
        ),
      )
      // On PostgreSQL the claim hands over the job's history too, which its run replays first:
      // one round trip where a read after the claim was another. (On SQLite a read costs no
      // round trip.)
      .$if(this.#engine === "postgres", (qb) =>
        qb.returning(
          sql<
            HistoryRow[]
          >`(select coalesce(json_agg(json_build_object('seq', e.seq, 'kind', e.kind, 'data', e.data, 'at', e.at) order by e.seq), '[]'::json) from job_events e where e.job_id = jobs.id)`.as(
            "history",
          ),
        ),
      )
      .compile();
    found = compiledWrite(compiled, markers);
    this.#claims.set(key, found);
    return found;
  }

  /**
   * The claim `claim` (PostgreSQL) with its `job_claimed` inserted from the row it returned,
   * in one statement; parameter `nodeParameter` is the node's name as JSON text. The event's
   * data text is what `JSON.stringify({ attempt, node })` makes of it.
   */
  claimRecording(claim: string, nodeParameter: number): string {
    let text = this.#recordings.get(claim);
    if (text === undefined) {
      text =
        `with "claimed" as (${claim}), "recorded" as (insert into "job_events" ("job_id", "seq", "kind", "data", "at") ` +
        `select "id", coalesce("last_seq", 0) + 1, 'job_claimed', '{"attempt":' || cast("attempts" as text) || ',"node":' || cast($${nodeParameter} as text) || '}', "now" ` +
        `from "claimed" where coalesce("notes_pending", 0) = 0 returning "seq") ` +
        `select "claimed".*, (select "seq" from "recorded") as "recorded_seq" from "claimed"`;
      this.#recordings.set(claim, text);
    }
    return text;
  }

  /** The insert of `count` events; its parameters are job, seq, kind and data for each in turn. */
  insert(count: number): string {
    let text = this.#inserts.get(count);
    if (text === undefined) {
      const rows = Array.from({ length: count }, (_, index) => ({
        job_id: INSERT_ORDER[0],
        seq: INSERT_ORDER[1] + index,
        kind: INSERT_ORDER[2],
        data: INSERT_ORDER[3],
        at: this.#clock,
      }));
      const compiled = this.#db.insertInto("job_events").values(rows).compile();
      expectOrder(
        compiled.parameters,
        rows.flatMap((row) => [row.job_id, row.seq, row.kind, row.data]),
      );
      text = compiled.sql;
      this.#inserts.set(count, text);
    }
    return text;
  }
}

/** A query compiled once: each parameter is a constant of the query or the value of that name. */
interface CompiledWrite {
  readonly sql: string;
  readonly recipe: readonly ({ readonly value: unknown } | { readonly name: string })[];
}

/** A compiled query whose marker parameters become names, filled in from each call's values. */
function compiledWrite(
  compiled: { readonly sql: string; readonly parameters: readonly unknown[] },
  markers: ReadonlyMap<unknown, string>,
): CompiledWrite {
  return {
    sql: compiled.sql,
    recipe: compiled.parameters.map((value) => {
      const name = markers.get(value);
      return name === undefined ? { value } : { name };
    }),
  };
}

/** What a write changes on the job's row, when a query compiled once can do it. */
interface WriteShape {
  readonly status?: JobStatus;
  /** The other columns it sets, in order. */
  readonly columns: readonly string[];
}

/**
 * The shape of `set`, or undefined when a value is not a plain one (an SQL expression), which
 * the builder compiles each time.
 */
function writeShape(set: JobUpdate): WriteShape | undefined {
  const columns: string[] = [];
  for (const [column, value] of Object.entries(set)) {
    if (column === "status") continue;
    if (value !== null && typeof value !== "string" && typeof value !== "number") return undefined;
    columns.push(column);
  }
  columns.sort();
  return set.status === undefined ? { columns } : { status: set.status as JobStatus, columns };
}

/** The values a compiled write's parameters take their names from. */
function writeValues(lease: Lease, events: readonly NewEvent[], set: JobUpdate): Record<string, unknown> {
  const values: Record<string, unknown> = { ttl: lease.ttlMs, job: lease.job, token: lease.token };
  for (const [column, value] of Object.entries(set)) values[`set:${column}`] = value;
  events.forEach((entry, index) => {
    values[`seq${index}`] = lease.nextSeq + index;
    values[`kind${index}`] = entry.kind;
    values[`data${index}`] = JSON.stringify(entry.data);
  });
  return values;
}

function bind(write: CompiledWrite, values: Record<string, unknown>): unknown[] {
  return write.recipe.map((slot) => ("name" in slot ? values[slot.name] : slot.value));
}

/**
 * What a claim records without getting a step further: the claim itself, a call about to run
 * (or run again), and what hooks and servers say while a step is in flight. Anything else is a
 * step's result or a wait, and starts the count toward the dead letter over.
 */
const NOT_PROGRESS: readonly JobEvent["kind"][] = [
  "job_claimed",
  "tool_call",
  "tool_call_retried",
  "governance_checked",
  "governance_denied",
  "hook_error",
  "mcp_progress",
  "mcp_log",
  "model_warning",
];

const WRITE_MARKERS = { ttl: -3, job: "\u0000job", token: "\u0000token" } as const;

const CLAIM_MARKERS = {
  token: "\u0000token",
  ttl: -3,
  tenant: "\u0000tenant",
  job: "\u0000job",
  format: -4,
  pool: "\u0000pool",
} as const;

// Markers the queries are compiled with, to check that the parameters come in the order the
// step passes them.
const RENEW_ORDER = [-1, "\u0000job", "\u0000token", "running"] as const;
const KEEP_UNTIL = -2;
const BY_ID = ["\u0000id"] as const;
const EVENTS_ORDER = ["\u0000job", -1] as const;
const INSERT_ORDER = ["\u0000job", -1_000_000, "\u0000kind", "\u0000data"] as const;
const APPEND_ORDER = ["\u0000job", -1_000_000, "\u0000kind", "\u0000data", "\u0000token", "running"] as const;
/** Where a guarded append takes the governance version the writer knows. */
const GOVERNANCE_MARKER = -2_000_000;

function expectOrder(actual: readonly unknown[], expected: readonly unknown[]): void {
  if (actual.length !== expected.length || actual.some((value, index) => value !== expected[index])) {
    throw new Oz0Error(
      "INTERNAL",
      "the job store's compiled queries take their parameters in an unexpected order",
      {
        data: { cause: JSON.stringify({ actual, expected }) },
      },
    );
  }
}

function leaseLost(lease: Lease): Oz0Error {
  return new Oz0Error(
    "LEASE_LOST",
    `job ${lease.job}: this worker's lease was taken over by another worker (or the job ended), so it stops without writing.`,
    { data: { job: lease.job, owner: lease.token } },
  );
}

/** The row's columns that hold what a job produced (JSON text), redacted. */
function redactedUpdate(set: JobUpdate, redactor: Redactor): JobUpdate {
  const out: JobUpdate = { ...set };
  for (const column of ["output", "failure", "waiting_for"] as const) {
    const value = set[column];
    if (typeof value === "string") out[column] = redactor.text(value);
  }
  return out;
}

function keepParameters(lease: Lease, until: number): (string | number)[] {
  return [...renewParameters(lease), Math.min(until, Number.MAX_SAFE_INTEGER)];
}

function renewParameters(lease: Lease): (string | number)[] {
  return [lease.ttlMs, lease.job, lease.token, "running"];
}

/**
 * An append's parameters (`StepQueries.append`): each event's row with its owner check, then the
 * job for the columns the write returns; guarded by `governanceVersion`, each row's check takes
 * the notes and the version as well, and nothing is returned.
 */
function appendParameters(lease: Lease, events: readonly NewEvent[], governanceVersion?: number): unknown[] {
  const parameters: unknown[] = [];
  events.forEach((entry, index) => {
    parameters.push(
      lease.job,
      lease.nextSeq + index,
      entry.kind,
      JSON.stringify(entry.data),
      lease.job,
      lease.token,
      "running",
    );
    if (governanceVersion !== undefined) parameters.push(0, governanceVersion);
  });
  if (governanceVersion === undefined) parameters.push(lease.job, lease.job, lease.job);
  return parameters;
}

const groups = new WeakMap<Store, WriteGroup>();

/** The store's write group: every job store over one store shares it, so all its jobs' writes group. */
export function writeGroupOf(store: Store): WriteGroup {
  let group = groups.get(store);
  if (group === undefined) {
    group = new WriteGroup(store.db, store.clockSql.compile(store.db).sql, store.broadcast?.channel);
    groups.set(store, group);
  }
  return group;
}

export function jobNotFound(id: string): Oz0Error {
  return new Oz0Error("NOT_FOUND", `there is no job ${id}; oz0 job search lists the tenant's jobs.`, {
    data: { kind: "job", name: id },
  });
}
