// The worker loop (`oz0 worker`): takes runnable jobs from the store, up to a number at once,
// and runs them under leases the heartbeat thread renews. It sleeps while there is nothing to
// do and wakes when a job is queued (a NOTIFY on PostgreSQL, this process's own writes on
// SQLite), with a slow poll for what no signal tells of: another process's writes to a shared
// SQLite file, a dead worker's lease running out. While it runs it keeps a row in `workers`
// with a heartbeat, so a CLI knows a live worker will take what it queues. Draining stops the
// taking; the jobs in flight finish, or at the end of the grace period let go of their leases,
// queued for another worker: a job is never lost.
import { hostname } from "node:os";
import { sql } from "kysely";
import type { Heartbeat, Listening } from "../store/index.js";
import { JOB_ENGINE_DEFAULTS, type JobEngine } from "./engine.js";
import type { JobView } from "./view.js";

/** Worker settings when the options leave them out. */
export const WORKER_DEFAULTS = {
  concurrency: 4,
  /** The slow poll on PostgreSQL, where a NOTIFY tells of every queued job: for dead workers' leases. */
  pollMs: 10_000,
  /**
   * The slow poll on SQLite, where nothing tells of another process's writes: shorter than the
   * 5 s `oz0 run` gives a live worker to take the job it queued.
   */
  sqlitePollMs: 2_000,
  /** How long a drain lets the jobs in flight run on before it lets go of their leases. */
  graceMs: 30_000,
  /** How long the worker's row counts as live without a heartbeat; renewed every third of it. */
  ttlMs: JOB_ENGINE_DEFAULTS.leaseMs,
} as const;

export interface WorkerOptions {
  readonly concurrency?: number;
  readonly pollMs?: number;
  readonly graceMs?: number;
  readonly ttlMs?: number;
  /** Only jobs of this tenant; every tenant's when left out. */
  readonly tenant?: string;
  /** Told of each job as the worker takes it, and as its run stops (ended, waiting or let go). */
  readonly onClaimed?: (job: JobView) => void;
  readonly onStopped?: (job: JobView) => void;
  /** Told each time the worker goes to sleep: nothing to take, or as many jobs as it runs at once. */
  readonly onIdle?: () => void;
  /** Told of a fault the loop went on after (the database briefly away). */
  readonly onError?: (error: unknown) => void;
}

export class JobWorker {
  readonly engine: JobEngine;
  /** This worker's row in `workers`: the engine's node. */
  readonly id: string;
  readonly concurrency: number;
  readonly #options: WorkerOptions;
  readonly #pollMs: number;
  readonly #graceMs: number;
  readonly #ttlMs: number;
  readonly #running = new Map<string, { readonly stop: AbortController; readonly done: Promise<void> }>();
  #draining = false;
  #kicked = false;
  #wake: (() => void) | undefined;
  #listening: Listening | undefined;
  #heartbeat: Heartbeat | undefined;
  #loop: Promise<void> | undefined;

  constructor(engine: JobEngine, options: WorkerOptions = {}) {
    const concurrency = options.concurrency ?? WORKER_DEFAULTS.concurrency;
    if (!Number.isInteger(concurrency) || concurrency < 1) {
      throw new RangeError(`a worker's concurrency is a whole number of jobs from 1, not ${concurrency}`);
    }
    this.engine = engine;
    this.id = engine.node;
    this.concurrency = concurrency;
    this.#options = options;
    this.#pollMs =
      options.pollMs ??
      (engine.jobs.store.engine === "postgres" ? WORKER_DEFAULTS.pollMs : WORKER_DEFAULTS.sqlitePollMs);
    this.#graceMs = options.graceMs ?? WORKER_DEFAULTS.graceMs;
    this.#ttlMs = options.ttlMs ?? WORKER_DEFAULTS.ttlMs;
  }

  /** The jobs running here now. */
  get inFlight(): readonly string[] {
    return [...this.#running.keys()];
  }

  /**
   * Registers the worker, listens for queued jobs and starts taking them; resolves once it
   * listens, so a job queued after this resolves wakes it.
   */
  async start(): Promise<void> {
    if (this.#loop !== undefined) throw new Error("this worker has started already");
    const store = this.engine.jobs.store;
    this.#listening = await store.listenForJobs(() => this.#kick());
    await this.#register();
    this.#loop = this.#take();
  }

  /**
   * Stops taking jobs; the ones in flight run on for the grace period, then let go of their
   * leases (queued for another worker). Resolves once every run has stopped and the worker's
   * row is gone.
   */
  async drain(graceMs = this.#graceMs): Promise<void> {
    this.#draining = true;
    this.#kick();
    await this.#loop;
    const runs = [...this.#running.values()];
    const all = Promise.all(runs.map((run) => run.done));
    await Promise.race([all, delay(graceMs)]);
    // Each run lets go of its lease before it is stopped; a call that does not heed the stop is
    // not waited for long, since nothing it ends with can be recorded any more.
    for (const run of runs) run.stop.abort();
    await Promise.race([all, delay(STOP_WAIT_MS)]);
    this.#heartbeat?.stop();
    await this.#listening?.close();
    await store(this).db.deleteFrom("workers").where("id", "=", this.id).execute();
  }

  async #register(): Promise<void> {
    const db = store(this).db;
    const clock = store(this).clockSql;
    await clearDeadWorkers(this.engine);
    await db
      .insertInto("workers")
      .values({
        id: this.id,
        host: hostname(),
        pid: process.pid,
        concurrency: this.concurrency,
        started_at: clock,
        expires_at: sql<number>`${clock} + ${this.#ttlMs}`,
      })
      .onConflict((conflict) =>
        conflict.column("id").doUpdateSet({ expires_at: sql<number>`${clock} + ${this.#ttlMs}` }),
      )
      .execute();
    const renew = db
      .updateTable("workers")
      .set({ expires_at: sql<number>`${clock} + ${this.#ttlMs}` })
      .where("id", "=", this.id)
      .returning("id")
      .compile();
    this.#heartbeat = store(this).heartbeat(
      {
        sql: renew.sql,
        parameters: renew.parameters as (string | number | null)[],
        everyMs: Math.max(50, Math.floor(this.#ttlMs / 3)),
      },
      (row) => {
        // The row went (someone cleared dead workers while this one was stalled): put it back.
        if (row === undefined && !this.#draining) void this.#register().catch((error) => this.#fault(error));
      },
    );
  }

  async #take(): Promise<void> {
    while (!this.#draining) {
      if (this.#running.size >= this.concurrency) {
        await this.#idle();
        continue;
      }
      let taken: Awaited<ReturnType<JobEngine["take"]>>;
      try {
        taken = await this.engine.take(
          this.#options.tenant === undefined ? {} : { tenant: this.#options.tenant },
        );
      } catch (error) {
        this.#fault(error);
        await this.#idle();
        continue;
      }
      if (taken === undefined) {
        await this.#idle();
        continue;
      }
      const { job } = taken;
      const stop = new AbortController();
      this.#tell(() => this.#options.onClaimed?.(job));
      const done = taken
        .run({ signal: stop.signal })
        .then(
          (view) => this.#tell(() => this.#options.onStopped?.(view)),
          (error) => this.#fault(error),
        )
        .finally(() => {
          this.#running.delete(job.id);
          this.#kick();
        });
      this.#running.set(job.id, { stop, done });
    }
  }

  /** Waits for a kick (a queued job, a free slot, a drain) or the slow poll. A kick while busy is kept. */
  async #idle(): Promise<void> {
    if (!this.#kicked) {
      this.#tell(() => this.#options.onIdle?.());
      let timer: NodeJS.Timeout | undefined;
      let polled = false;
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
        timer = setTimeout(() => {
          polled = true;
          resolve();
        }, this.#pollMs);
      });
      clearTimeout(timer);
      this.#wake = undefined;
      // The slow poll also clears what dead workers left, for a store whose workers seldom restart.
      if (polled) await clearDeadWorkers(this.engine).catch((error) => this.#fault(error));
    }
    this.#kicked = false;
  }

  #kick(): void {
    this.#kicked = true;
    this.#wake?.();
  }

  #fault(error: unknown): void {
    this.#tell(() => this.#options.onError?.(error));
  }

  #tell(listener: () => void): void {
    try {
      listener();
    } catch {
      // A listener's fault is its own; the worker goes on.
    }
  }
}

/** Whether a worker is live on this store: one whose heartbeat has not run out. */
export async function liveWorkers(engine: JobEngine): Promise<number> {
  const { db, clockSql } = engine.jobs.store;
  const row = await db
    .selectFrom("workers")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("expires_at", ">", clockSql)
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

/**
 * Removes the rows of workers whose heartbeat has lapsed (killed outright, or their machine
 * gone): each worker clears them as it registers, so the table holds the live ones and the
 * recently dead. A stalled worker whose row went puts it back at its next heartbeat. Returns
 * how many rows went.
 */
export async function clearDeadWorkers(engine: JobEngine): Promise<number> {
  const { db, clockSql } = engine.jobs.store;
  const result = await db.deleteFrom("workers").where("expires_at", "<=", clockSql).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** How long a drain waits for stopped runs to return once their leases are let go. */
const STOP_WAIT_MS = 5_000;

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

function store(worker: JobWorker) {
  return worker.engine.jobs.store;
}
