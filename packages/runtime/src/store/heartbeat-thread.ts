// The thread that runs the store's heartbeats (heartbeat.ts) on a database connection of its
// own, so they go on while the main thread is busy: a plugin's tool that computes for a minute
// or calls execSync does not stop a job's lease renewal. Node runs this file as it is, in its
// own thread, so it imports nothing of oz0's: only Node's modules and `pg`, and types.
import type { DatabaseSync, SQLInputValue, StatementSync } from "node:sqlite";
import { parentPort, threadId, workerData } from "node:worker_threads";
import type { Client } from "pg";

/** What the main thread gives the thread when it starts it. */
export interface HeartbeatThreadData {
  readonly engine: "sqlite" | "postgres";
  /** The SQLite file, or the PostgreSQL URL. */
  readonly target: string;
  /** Pragmas for a SQLite connection, applied in order. */
  readonly pragmas: readonly string[];
  readonly busyTimeoutMs: number;
  /** The pending heartbeats (`PendingHeartbeat`) when the main thread shares them, and how often to look at them. */
  readonly pending?: { readonly buffer: SharedArrayBuffer; readonly pollMs: number } | undefined;
  /** Where the thread counts the WAL checkpoints it ran (`CHECKPOINT_SLOTS`), when the main thread asks for them. */
  readonly checkpoints?: SharedArrayBuffer | undefined;
}

/**
 * The Int32 slots of `HeartbeatThreadData.checkpoints`, which the thread writes and the main
 * thread reads as it commits: it goes on committing without yielding to its event loop for
 * seconds (a run of short jobs), so it could not hear a message back.
 */
export const CHECKPOINT_SLOTS = { ran: 0, failed: 1, thread: 2 } as const;

/** A message to the thread: start a heartbeat, give one new parameters, or stop one. */
export type ToHeartbeatThread =
  | {
      readonly op: "start";
      readonly id: number;
      readonly sql: string;
      readonly parameters: readonly SQLInputValue[];
      readonly everyMs: number;
      /** `Date.now()` when it was asked for: the first run is `everyMs` after that. */
      readonly since: number;
    }
  | { readonly op: "update"; readonly id: number; readonly parameters: readonly SQLInputValue[] }
  | { readonly op: "stop"; readonly id: number }
  | { readonly op: "checkpoint" };

/**
 * The heartbeats the main thread started and has not sent yet (heartbeat.ts hands each over
 * within a moment of its start), in memory both threads share, so that the thread runs them
 * however long the main thread stays busy: an Int32 that is odd while the main thread writes and
 * moves on with every write, the byte length, then the JSON of `PendingHeartbeat[]`.
 */
export interface PendingHeartbeat {
  readonly id: number;
  readonly sql: string;
  readonly parameters: readonly SQLInputValue[];
  readonly everyMs: number;
  readonly since: number;
}

/** Where the pending heartbeats' JSON starts in the shared memory, after the two Int32s (heartbeat.ts writes it so). */
const PENDING_HEADER_BYTES = 8;

/** A message from the thread: a run's first row (null: none, so the heartbeat stopped), or that it cannot run any. */
export type FromHeartbeatThread =
  | { readonly id: number; readonly row: Record<string, unknown> | null }
  | { readonly fatal: string };

interface Beat {
  readonly sql: string;
  parameters: readonly SQLInputValue[];
  timer: NodeJS.Timeout | undefined;
  running: boolean;
  /** Known from the shared memory only: it goes when the main thread's pending list no longer has it. */
  pending: boolean;
}

const port = parentPort;
const data = workerData as HeartbeatThreadData;
const beats = new Map<number, Beat>();

/** Runs one statement and gives its first row; a PostgreSQL connection opens again after a fault. */
type Runner = (
  sql: string,
  parameters: readonly SQLInputValue[],
) => Promise<Record<string, unknown> | undefined>;

async function sqliteRunner(): Promise<Runner> {
  const { DatabaseSync } = await import("node:sqlite");
  const database: DatabaseSync = new DatabaseSync(data.target, { timeout: data.busyTimeoutMs });
  for (const pragma of data.pragmas) database.exec(`pragma ${pragma}`);
  const statements = new Map<string, StatementSync>();
  return async (sql, parameters) => {
    let statement = statements.get(sql);
    if (statement === undefined) {
      statement = database.prepare(sql);
      statements.set(sql, statement);
    }
    return statement.get(...parameters) as Record<string, unknown> | undefined;
  };
}

async function postgresRunner(): Promise<Runner> {
  const { default: pg } = await import("pg");
  let client: Promise<Client> | undefined;
  const connect = async (): Promise<Client> => {
    const next = new pg.Client({ connectionString: data.target });
    // A connection the server drops is opened again at the next run.
    next.on("error", () => {
      client = undefined;
    });
    try {
      await next.connect();
    } catch (error) {
      await next.end().catch(() => {});
      throw error;
    }
    return next;
  };
  client = connect();
  await client;
  return async (sql, parameters) => {
    client ??= connect();
    const open = client;
    try {
      const result = await (await open).query(sql, parameters as unknown[]);
      return result.rows[0] as Record<string, unknown> | undefined;
    } catch (error) {
      if (client === open) client = undefined;
      await open.then((failed) => failed.end()).catch(() => {});
      throw error;
    }
  };
}

function main(): void {
  if (port === null) return;
  // Messages are heard from the start; runs wait for the first connection. A thread that
  // cannot open one says so, and the main thread runs the heartbeats itself.
  const ready = data.engine === "sqlite" ? sqliteRunner() : postgresRunner();
  ready.catch((error: unknown) => {
    port.postMessage({ fatal: String(error) } satisfies FromHeartbeatThread);
  });
  const stop = (id: number): void => {
    const beat = beats.get(id);
    if (beat === undefined) return;
    clearTimeout(beat.timer);
    clearInterval(beat.timer);
    beats.delete(id);
  };
  const begin = (id: number, beat: Beat, since: number, everyMs: number): void => {
    beats.set(id, beat);
    const first = Math.max(0, since + everyMs - Date.now());
    beat.timer = setTimeout(() => {
      if (beats.get(id) !== beat) return;
      beat.timer = setInterval(() => void run(id, beat), everyMs);
      void run(id, beat);
    }, first);
  };
  // What the main thread has pending, read whenever it moved on (and before every run, so that
  // a heartbeat stopped while pending never runs after its stop).
  const shared = data.pending === undefined ? undefined : new Int32Array(data.pending.buffer, 0, 2);
  const bytes = data.pending === undefined ? undefined : new Uint8Array(data.pending.buffer);
  const decoder = new TextDecoder();
  let seen = 0;
  /** Pending heartbeats that stopped here (their statement returned no row): not begun again while listed. */
  const ended = new Set<number>();
  const look = (): void => {
    if (shared === undefined || bytes === undefined) return;
    const version = Atomics.load(shared, 0);
    if (version === seen || (version & 1) === 1) return;
    const length = Atomics.load(shared, 1);
    const text = decoder.decode(bytes.slice(PENDING_HEADER_BYTES, PENDING_HEADER_BYTES + length));
    // Written over meanwhile: the next look reads it whole.
    if (Atomics.load(shared, 0) !== version) return;
    seen = version;
    const pending = JSON.parse(text) as PendingHeartbeat[];
    const ids = new Set<number>();
    for (const entry of pending) {
      ids.add(entry.id);
      const beat = beats.get(entry.id);
      if (ended.has(entry.id)) continue;
      if (beat === undefined) {
        begin(
          entry.id,
          { sql: entry.sql, parameters: entry.parameters, timer: undefined, running: false, pending: true },
          entry.since,
          entry.everyMs,
        );
      } else if (beat.pending) {
        beat.parameters = entry.parameters;
      }
    }
    for (const [id, beat] of beats) if (beat.pending && !ids.has(id)) stop(id);
    for (const id of ended) if (!ids.has(id)) ended.delete(id);
  };
  if (data.pending !== undefined) setInterval(look, data.pending.pollMs);
  const run = async (id: number, beat: Beat): Promise<void> => {
    // A run still waiting for the database (SQLite's busy timeout, a slow server) is not doubled.
    if (beat.running) return;
    look();
    if (beats.get(id) !== beat) return;
    beat.running = true;
    let row: Record<string, unknown> | undefined;
    try {
      row = await (await ready)(beat.sql, beat.parameters);
    } catch {
      // The database briefly away: the next run tries again, and a lease outlasts a few.
      return;
    } finally {
      beat.running = false;
    }
    // A heartbeat stopped meanwhile is not heard of again.
    if (beats.get(id) !== beat) return;
    if (row === undefined) {
      if (beat.pending) ended.add(id);
      stop(id);
    }
    port.postMessage({ id, row: row === undefined ? null : { ...row } } satisfies FromHeartbeatThread);
  };
  // A passive checkpoint copies what the WAL holds into the database without waiting for any
  // writer or reader: the fsyncs and the copy happen here, not in a commit of the main thread.
  const counts = data.checkpoints === undefined ? undefined : new Int32Array(data.checkpoints);
  const checkpoint = async (): Promise<void> => {
    if (counts === undefined) return;
    try {
      await (await ready)("pragma wal_checkpoint(PASSIVE)", []);
    } catch {
      // Counted: the main thread goes back to SQLite's own checkpoints.
      Atomics.add(counts, CHECKPOINT_SLOTS.failed, 1);
    }
    Atomics.store(counts, CHECKPOINT_SLOTS.thread, threadId);
    Atomics.add(counts, CHECKPOINT_SLOTS.ran, 1);
  };
  port.on("message", (message: ToHeartbeatThread) => {
    if (message.op === "checkpoint") {
      void checkpoint();
      return;
    }
    if (message.op === "stop") {
      stop(message.id);
      return;
    }
    if (message.op === "update") {
      const beat = beats.get(message.id);
      if (beat !== undefined) beat.parameters = message.parameters;
      return;
    }
    // Handed over: a heartbeat already running from the pending list goes on, its timer kept.
    ended.delete(message.id);
    const known = beats.get(message.id);
    if (known !== undefined) {
      known.pending = false;
      known.parameters = message.parameters;
      return;
    }
    begin(
      message.id,
      { sql: message.sql, parameters: message.parameters, timer: undefined, running: false, pending: false },
      message.since,
      message.everyMs,
    );
  });
}

main();
