// Heartbeats: a statement the store runs on a timer, such as a job's lease renewal. On a file
// or a server they run from a thread of their own with a connection of its own
// (heartbeat-thread.ts), so they go on however long the main thread is busy: what keeps a live
// worker's lease is the process being alive, not its event loop being free. The in-memory
// database lives in this thread alone, so there they run on this thread's timers.
import { Worker } from "node:worker_threads";
import { CompiledQuery, type Kysely } from "kysely";
import {
  CHECKPOINT_SLOTS,
  type FromHeartbeatThread,
  type HeartbeatThreadData,
  type PendingHeartbeat,
  type ToHeartbeatThread,
} from "./heartbeat-thread.js";
import type { Database } from "./schema.js";

export type { HeartbeatThreadData } from "./heartbeat-thread.js";

/** A statement to run every `everyMs`, compiled for the store's engine; its first row is what counts. */
export interface HeartbeatStatement {
  readonly sql: string;
  readonly parameters: readonly (string | number | null)[];
  readonly everyMs: number;
}

/**
 * Hears each run of a heartbeat: the statement's first row, or `undefined` when it returned
 * none, after which the heartbeat has stopped. A run that failed (the database briefly away)
 * is not heard of; the next one tries again.
 */
export type HeartbeatListener = (row: Readonly<Record<string, unknown>> | undefined) => void;

export interface Heartbeat {
  /**
   * Runs the statement with these parameters from its next run on, its timer left as it is: one
   * message to the thread, where a stop and a new start were two and restarted the timer.
   */
  update(parameters: HeartbeatStatement["parameters"]): void;
  stop(): void;
}

export interface Heartbeats {
  start(statement: HeartbeatStatement, listener: HeartbeatListener): Heartbeat;
  close(): Promise<void>;
}

/** How long the thread stays after its last heartbeat stops: the next job's claim reuses it. */
const THREAD_LINGER_MS = 10_000;

/**
 * How long a new heartbeat may wait before the thread hears of it, at most (and never past half
 * its period, so its first run is on time): one that stops sooner (a short job's lease) costs
 * the thread no message at all.
 */
export const HEARTBEAT_HANDOVER_MS = 100;

/**
 * Until then the thread reads the heartbeat from memory the two threads share (heartbeat-thread.ts,
 * `PendingHeartbeat`), looking this often: so it runs it on time however long this thread is busy.
 */
const PENDING_POLL_MS = 20;
/** The shared memory's size; a heartbeat that does not fit with the others pending is handed over at once. */
const PENDING_BYTES = 64 * 1024;
/** The two Int32s before the JSON: the version (odd while written) and the JSON's length. */
const PENDING_HEADER_BYTES = 8;

interface Entry {
  statement: HeartbeatStatement;
  readonly listener: HeartbeatListener;
  /** `Date.now()` when it was started: its first run is `everyMs` after that, wherever it runs. */
  readonly since: number;
  /** When it must be handed to the thread; undefined once it was. */
  handover: number | undefined;
}

/** Heartbeats on this thread's timers, through the store's own connection. */
export class LoopHeartbeats implements Heartbeats {
  readonly #db: Kysely<Database>;
  readonly #timers = new Set<NodeJS.Timeout>();

  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  start(statement: HeartbeatStatement, listener: HeartbeatListener): Heartbeat {
    let running = false;
    let query = CompiledQuery.raw(statement.sql, [...statement.parameters]);
    const timer = setInterval(async () => {
      if (running) return;
      running = true;
      try {
        const { rows } = await this.#db.executeQuery<Record<string, unknown>>(query);
        if (!this.#timers.has(timer)) return;
        const row = rows[0];
        if (row === undefined) this.#clear(timer);
        hear(listener, row);
      } catch {
        // Tried again at the next run, as the thread does.
      } finally {
        running = false;
      }
    }, statement.everyMs);
    timer.unref();
    this.#timers.add(timer);
    return {
      update: (parameters) => {
        query = CompiledQuery.raw(statement.sql, [...parameters]);
      },
      stop: () => this.#clear(timer),
    };
  }

  async close(): Promise<void> {
    for (const timer of this.#timers) this.#clear(timer);
  }

  #clear(timer: NodeJS.Timeout): void {
    clearInterval(timer);
    this.#timers.delete(timer);
  }
}

/**
 * Heartbeats on a thread of their own, started with the first and let go a while after the
 * last. A new heartbeat is written to memory the two threads share, which the thread reads on
 * its own timer (and before every run), so it runs on time however long this thread stays busy;
 * one timer here hands it over by message within HEARTBEAT_HANDOVER_MS. Most job leases end
 * sooner and cost the thread no message: each message wakes it, on a loaded machine at the cost
 * of the sender's core. Changes to a heartbeat handed over are sent at once, stops above all.
 * Should the thread fail (it cannot open a connection of its own, say), they go on from this
 * thread.
 */
export class ThreadHeartbeats implements Heartbeats {
  readonly #data: HeartbeatThreadData;
  readonly #fallback: Heartbeats;
  readonly #entries = new Map<number, Entry>();
  /** The heartbeats handed over to this thread's timers once the thread failed. */
  readonly #moved = new Map<number, Heartbeat>();
  #worker: Worker | undefined;
  #failed = false;
  #linger: NodeJS.Timeout | undefined;
  #next = 1;
  /** The one timer that hands new heartbeats to the thread, and when it fires. */
  #handover: NodeJS.Timeout | undefined;
  #handoverAt = Number.POSITIVE_INFINITY;
  readonly #pending = new SharedArrayBuffer(PENDING_BYTES);
  readonly #pendingHeader = new Int32Array(this.#pending, 0, 2);
  readonly #pendingBytes = new Uint8Array(this.#pending);
  readonly #encoder = new TextEncoder();
  /** The WAL checkpoints asked of the thread, and what it counts of them (`CHECKPOINT_SLOTS`). */
  #checkpointsAsked = 0;
  readonly #checkpoints = new Int32Array(new SharedArrayBuffer(3 * Int32Array.BYTES_PER_ELEMENT));

  constructor(data: HeartbeatThreadData, fallback: Heartbeats) {
    this.#data = {
      ...data,
      pending: { buffer: this.#pending, pollMs: PENDING_POLL_MS },
      ...(data.engine === "sqlite" ? { checkpoints: this.#checkpoints.buffer as SharedArrayBuffer } : {}),
    };
    this.#fallback = fallback;
  }

  /**
   * Asks the thread for a passive checkpoint of the SQLite file's WAL on its own connection;
   * false when it cannot be asked (it failed, or the store is not a file). The thread stays
   * until it ran it, and its while after.
   */
  checkpoint(): boolean {
    if (this.#failed || this.#data.checkpoints === undefined) return false;
    this.#checkpointsAsked++;
    clearTimeout(this.#linger);
    this.#send({ op: "checkpoint" });
    this.#idle();
    return true;
  }

  /** The checkpoints asked, those the thread ran (failed ones among them), and the ID of the thread that ran the last. */
  get checkpoints(): { asked: number; ran: number; failed: number; thread: number; gone: boolean } {
    return {
      asked: this.#checkpointsAsked,
      ran: Atomics.load(this.#checkpoints, CHECKPOINT_SLOTS.ran),
      failed: Atomics.load(this.#checkpoints, CHECKPOINT_SLOTS.failed),
      thread: Atomics.load(this.#checkpoints, CHECKPOINT_SLOTS.thread),
      gone: this.#failed,
    };
  }

  start(statement: HeartbeatStatement, listener: HeartbeatListener): Heartbeat {
    if (this.#failed) return this.#fallback.start(statement, listener);
    const id = this.#next++;
    const since = Date.now();
    const handover = since + Math.min(HEARTBEAT_HANDOVER_MS, Math.floor(statement.everyMs / 2));
    this.#entries.set(id, { statement, listener, since, handover });
    clearTimeout(this.#linger);
    // The thread is there to read it from the shared memory from now on.
    this.#thread();
    if (this.#share()) this.#handOverAt(handover, since);
    else this.#handOver(id);
    return { update: (parameters) => this.#update(id, parameters), stop: () => this.#stop(id) };
  }

  /**
   * Writes the heartbeats not handed over yet to the shared memory; false when they do not fit
   * (the last one started is then handed over at once).
   */
  #share(): boolean {
    const pending: PendingHeartbeat[] = [];
    for (const [id, entry] of this.#entries) {
      if (entry.handover === undefined) continue;
      const { sql, parameters, everyMs } = entry.statement;
      pending.push({ id, sql, parameters, everyMs, since: entry.since });
    }
    const encoded = this.#encoder.encode(JSON.stringify(pending));
    if (encoded.length > PENDING_BYTES - PENDING_HEADER_BYTES) return false;
    const header = this.#pendingHeader;
    // Odd while written: the thread takes what it read only when the version was even and the same after.
    Atomics.add(header, 0, 1);
    this.#pendingBytes.set(encoded, PENDING_HEADER_BYTES);
    Atomics.store(header, 1, encoded.length);
    Atomics.add(header, 0, 1);
    return true;
  }

  /** Hands the thread the heartbeats that are due (or heartbeat `only`, at once), and sets the timer for the next. */
  #handOver(only?: number): void {
    if (only === undefined) {
      this.#handover = undefined;
      this.#handoverAt = Number.POSITIVE_INFINITY;
    }
    const time = Date.now();
    let next = Number.POSITIVE_INFINITY;
    let handed = false;
    for (const [id, entry] of this.#entries) {
      if (entry.handover === undefined) continue;
      if (only === undefined ? entry.handover > time : id !== only) {
        next = Math.min(next, entry.handover);
        continue;
      }
      entry.handover = undefined;
      handed = true;
      const { statement } = entry;
      this.#send({
        op: "start",
        id,
        sql: statement.sql,
        parameters: statement.parameters,
        everyMs: statement.everyMs,
        since: entry.since,
      });
    }
    // The thread has them from its messages now (it drops from the shared list what it no longer finds there).
    if (handed) this.#share();
    if (only === undefined && next < Number.POSITIVE_INFINITY) this.#handOverAt(next, time);
  }

  #handOverAt(at: number, now: number): void {
    if (at >= this.#handoverAt) return;
    clearTimeout(this.#handover);
    this.#handoverAt = at;
    this.#handover = setTimeout(() => this.#handOver(), Math.max(0, at - now));
    this.#handover.unref();
  }

  async close(): Promise<void> {
    clearTimeout(this.#linger);
    clearTimeout(this.#handover);
    this.#handover = undefined;
    this.#handoverAt = Number.POSITIVE_INFINITY;
    this.#entries.clear();
    for (const moved of this.#moved.values()) moved.stop();
    this.#moved.clear();
    await this.#fallback.close();
    const worker = this.#worker;
    this.#worker = undefined;
    await worker?.terminate();
  }

  #update(id: number, parameters: HeartbeatStatement["parameters"]): void {
    const moved = this.#moved.get(id);
    if (moved !== undefined) {
      moved.update(parameters);
      return;
    }
    const entry = this.#entries.get(id);
    if (entry === undefined) return;
    // Kept here too, so that the heartbeat goes on with them should the thread fail, and is
    // handed over with them.
    entry.statement = { ...entry.statement, parameters };
    if (entry.handover === undefined) this.#send({ op: "update", id, parameters });
    else if (!this.#share()) this.#handOver(id);
  }

  #stop(id: number): void {
    const moved = this.#moved.get(id);
    if (moved !== undefined) {
      this.#moved.delete(id);
      moved.stop();
      return;
    }
    const entry = this.#entries.get(id);
    if (entry === undefined) return;
    this.#entries.delete(id);
    if (entry.handover === undefined) this.#send({ op: "stop", id });
    else this.#share();
    this.#idle();
  }

  #send(message: ToHeartbeatThread): void {
    if (this.#failed) return;
    this.#thread().postMessage(message);
  }

  #thread(): Worker {
    if (this.#worker !== undefined) return this.#worker;
    const worker = new Worker(THREAD_FILE, { workerData: this.#data, execArgv: [] });
    // The thread never keeps the process alive: a process that is done exits, heartbeats or not.
    worker.unref();
    worker.on("message", (message: FromHeartbeatThread) => this.#hear(message));
    worker.on("error", () => this.#fail(worker));
    worker.on("exit", () => this.#fail(worker));
    this.#worker = worker;
    return worker;
  }

  #hear(message: FromHeartbeatThread): void {
    if ("fatal" in message) {
      if (this.#worker !== undefined) this.#fail(this.#worker);
      return;
    }
    const entry = this.#entries.get(message.id);
    if (entry === undefined) return;
    if (message.row === null) {
      this.#entries.delete(message.id);
      if (entry.handover !== undefined) this.#share();
      this.#idle();
    }
    hear(entry.listener, message.row ?? undefined);
  }

  /** The thread is gone without being asked: its heartbeats go on from this thread. */
  #fail(worker: Worker): void {
    if (this.#worker !== worker) return;
    this.#worker = undefined;
    this.#failed = true;
    void worker.terminate();
    for (const [id, entry] of this.#entries) {
      this.#moved.set(id, this.#fallback.start(entry.statement, entry.listener));
    }
    this.#entries.clear();
  }

  #idle(): void {
    if (this.#entries.size > 0 || this.#worker === undefined) return;
    clearTimeout(this.#linger);
    this.#linger = setTimeout(() => {
      if (this.#entries.size > 0) return;
      // A checkpoint asked and not run yet keeps it: a thread let go would never count it.
      if (Atomics.load(this.#checkpoints, CHECKPOINT_SLOTS.ran) < this.#checkpointsAsked) {
        this.#idle();
        return;
      }
      const worker = this.#worker;
      this.#worker = undefined;
      void worker?.terminate();
    }, THREAD_LINGER_MS);
    this.#linger.unref();
  }
}

/** The thread's module beside this one: the TypeScript source in tests, the built file otherwise. */
const THREAD_FILE = new URL(
  `./heartbeat-thread.${import.meta.url.endsWith(".ts") ? "ts" : "js"}`,
  import.meta.url,
);

function hear(listener: HeartbeatListener, row: Readonly<Record<string, unknown>> | undefined): void {
  try {
    listener(row);
  } catch {
    // A listener's fault is its own; the heartbeats go on.
  }
}
