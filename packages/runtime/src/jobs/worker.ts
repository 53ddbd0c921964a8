// The worker loop of a node (`oz0 node`): takes runnable jobs from the store, up to a number at
// once, from the task queues it serves (its pool and the labels it has, jobs/queues.ts), and
// runs them under leases the heartbeat thread renews. It sleeps while there is nothing to
// do and wakes when a job is queued (a NOTIFY on PostgreSQL, this process's own writes on
// SQLite), with a slow poll for what no signal tells of: another process's writes to a shared
// SQLite file, a dead worker's lease running out. While it runs it keeps a row in `workers`
// with a heartbeat (its oz0 version, job format, labels and pool), so a CLI knows a live node
// will take what it queues and `oz0 node list` shows it; a drained node's row stays, marked
// stopped, and a killed node's by its lapsed heartbeat, until a day has passed. Draining stops the
// taking; the jobs in flight finish, or at the end of the grace period let go of their leases,
// queued for another worker: a job is never lost.
import { readFileSync } from "node:fs";
import { hostname } from "node:os";
import { assertName } from "@oz0/sdk";
import { sql } from "kysely";
import type { Heartbeat, JobRow, Listening, WorkerRow } from "../store/index.js";
import { JOB_ENGINE_DEFAULTS, type JobEngine } from "./engine.js";
import { checkedLabels, type NodeServes, parseStoredLabels, serves, storedLabels } from "./queues.js";
import type { JobView } from "./view.js";

/** This oz0's version, as its nodes register it. */
export const OZ0_VERSION: string = (
  JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }
).version;

/** How long the row of a node that stopped or died stays for `oz0 node list`. */
const GONE_KEPT_MS = 24 * 3_600_000;

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
  /** The node's labels: it takes jobs whose required labels are all among these. */
  readonly labels?: readonly string[];
  /** The shared pool it serves (a tenant maps plugins to it); the plugins' own pools when left out. */
  readonly pool?: string;
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
  /** The queues it serves: its pool, its labels and the job format it understands. */
  readonly serves: NodeServes;
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
    if (options.pool !== undefined) assertName("pool", options.pool);
    this.serves = {
      pool: options.pool ?? null,
      labels: checkedLabels(options.labels ?? [], "a node"),
      format: engine.format,
    };
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
    const { db, clockSql } = store(this);
    await db
      .updateTable("workers")
      .set({ stopped_at: clockSql, expires_at: clockSql })
      .where("id", "=", this.id)
      .execute();
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
        version: OZ0_VERSION,
        format: this.serves.format,
        labels: storedLabels(this.serves.labels),
        pool: this.serves.pool,
        tenant: this.#options.tenant ?? null,
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
        taken = await this.engine.take({
          ...(this.#options.tenant === undefined ? {} : { tenant: this.#options.tenant }),
          serves: { pool: this.serves.pool, labels: this.serves.labels },
        });
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

/** How many nodes are live on this store: their heartbeat has not run out. */
export async function liveWorkers(engine: JobEngine): Promise<number> {
  const { db, clockSql } = engine.jobs.store;
  const row = await db
    .selectFrom("workers")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("expires_at", ">", clockSql)
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

/** A node as `oz0 node list` shows it. */
export interface NodeView {
  readonly id: string;
  readonly host: string;
  readonly pid: number;
  readonly version: string;
  readonly format: number;
  readonly labels: readonly string[];
  readonly pool: string | null;
  readonly tenant: string | null;
  readonly concurrency: number;
  /** live: its heartbeat runs; stopped: it drained; gone: its heartbeat lapsed (killed, or its machine gone). */
  readonly state: "live" | "stopped" | "gone";
  readonly startedAt: number;
  /** Its last heartbeat's expiry, or when it stopped. */
  readonly until: number;
}

function nodeView(row: WorkerRow, now: number): NodeView {
  const state = row.stopped_at !== null ? "stopped" : Number(row.expires_at) > now ? "live" : "gone";
  return {
    id: row.id,
    host: row.host,
    pid: row.pid,
    version: row.version,
    format: row.format,
    labels: parseStoredLabels(row.labels),
    pool: row.pool,
    tenant: row.tenant,
    concurrency: row.concurrency,
    state,
    startedAt: Number(row.started_at),
    until: Number(row.stopped_at ?? row.expires_at),
  };
}

/** The nodes on this store, live first, then those that stopped or died within the last day. */
export async function listNodes(engine: JobEngine): Promise<NodeView[]> {
  const store = engine.jobs.store;
  const [rows, now] = await Promise.all([
    store.db.selectFrom("workers").selectAll().orderBy("started_at", "desc").orderBy("id").execute(),
    store.now(),
  ]);
  const order = { live: 0, stopped: 1, gone: 2 } as const;
  return rows.map((row) => nodeView(row, now)).sort((a, b) => order[a.state] - order[b.state]);
}

/**
 * Whether a live node serves job `job`: one of its tenant (or of every tenant) whose pool,
 * labels and job format take it. A job no live node serves waits, and its view says so.
 */
export function servedBy(
  nodes: readonly NodeView[],
  job: {
    readonly tenant: string;
    readonly pool: string | null;
    readonly labels: string;
    readonly needs_format: number;
  },
): NodeView | undefined {
  return nodes.find(
    (node) =>
      node.state === "live" && (node.tenant === null || node.tenant === job.tenant) && serves(node, job),
  );
}

/**
 * Removes the rows of nodes that stopped or died more than a day ago: each node clears them as
 * it registers and at its slow poll, so the table holds the live ones and the recently gone. A
 * stalled node whose row went puts it back at its next heartbeat. Returns how many rows went.
 */
export async function clearDeadWorkers(engine: JobEngine): Promise<number> {
  const { db, clockSql } = engine.jobs.store;
  const result = await db
    .deleteFrom("workers")
    .where("expires_at", "<=", sql<number>`${clockSql} - ${GONE_KEPT_MS}`)
    .executeTakeFirst();
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

/**
 * Why no live node will take queued job `id`, or null when one will (or the job is not queued).
 * Says what to start: a node of its pool with its labels, or of a newer job format.
 */
export async function whyUnserved(engine: JobEngine, id: string): Promise<string | null> {
  const row = await engine.jobs.get(id);
  if (row === undefined) return null;
  // A running job whose node stopped renewing its lease waits to be taken over, as a queued one waits to be taken.
  const orphaned =
    row.status === "running" &&
    row.lease_expires_at !== null &&
    row.lease_expires_at < (await engine.jobs.store.now());
  if (row.status !== "queued" && !orphaned) return null;
  const nodes = await listNodes(engine);
  if (servedBy(nodes, row) !== undefined) return null;
  const why = unservedReason(nodes, row);
  return orphaned
    ? `its node ${row.lease_owner ?? "(unknown)"} stopped holding it (its lease ran out), and ${why}`
    : why;
}

function unservedReason(nodes: readonly NodeView[], row: JobRow): string {
  const labels = parseStoredLabels(row.labels);
  const start = `oz0 node${row.pool === null ? "" : ` --pool ${row.pool}`}${labels.length === 0 ? "" : ` --labels ${labels.join(",")}`}`;
  const placed = nodes.filter(
    (node) =>
      node.state === "live" &&
      (node.tenant === null || node.tenant === row.tenant) &&
      serves({ ...node, format: Number.MAX_SAFE_INTEGER }, row),
  );
  if (placed.length > 0) {
    return (
      `no live node of queue ${row.queue} understands job format ${row.needs_format} (theirs: ` +
      `${[...new Set(placed.map((node) => `${node.version}, format ${node.format}`))].join("; ")}); ` +
      `it waits for a node of a newer oz0 version (docs/deploy.md, "Upgrades")`
    );
  }
  return `no live node serves queue ${row.queue}, so the job waits; start one with ${start}`;
}
