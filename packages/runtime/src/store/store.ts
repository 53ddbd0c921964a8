// The store: one interface over SQLite and PostgreSQL, with Kysely as the one query layer.
// Repositories (catalog, jobs, policy …) take a Store and write portable Kysely queries.
import { homedir } from "node:os";
import { join } from "node:path";
import type { DatabaseSync } from "node:sqlite";
import { Oz0Error } from "@oz0/sdk";
import { type CompiledQuery, Kysely, type QueryResult, type RawBuilder, sql, type Transaction } from "kysely";
import {
  type Heartbeat,
  type HeartbeatListener,
  type HeartbeatStatement,
  type Heartbeats,
  type HeartbeatThreadData,
  LoopHeartbeats,
  ThreadHeartbeats,
} from "./heartbeat.js";
import { type MigrationReport, migrate } from "./migrate.js";
import { openPostgresPool, POSTGRES_CLOCK_SQL, postgresDialect, redactUrl } from "./postgres.js";
import type { Database } from "./schema.js";
import {
  NodeSqliteDialect,
  openSqliteDatabase,
  type RunNow,
  SQLITE_BUSY_TIMEOUT_MS,
  SQLITE_CLOCK_SQL,
  SQLITE_FILE_NAME,
  SQLITE_MEMORY,
  SQLITE_PRAGMAS,
  WalCheckpoints,
} from "./sqlite.js";

export type StoreEngine = "sqlite" | "postgres";

export interface Store {
  readonly engine: StoreEngine;
  /** The database file, `:memory:`, or the PostgreSQL URL with its password hidden. */
  readonly location: string;
  /** The query builder; on SQLite one connection, used by one query or transaction at a time. */
  readonly db: Kysely<Database>;
  /** What opening did to the schema. */
  readonly migrations: MigrationReport;
  /** What opening found wrong but went on with: a database file other users can read. */
  readonly warnings: readonly string[];
  /**
   * The database's clock in epoch milliseconds, as an SQL expression to write into a query,
   * so a lease is set and compared by one clock whichever node writes it:
   * `.set({ lease_expires_at: sql<number>`${store.clockSql} + ${ttl}` })`.
   */
  readonly clockSql: RawBuilder<number>;
  /**
   * Runs `work` in one transaction: committed when it resolves, rolled back when it throws.
   * On SQLite it takes the write lock first, waiting for other processes rather than failing.
   */
  transaction<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T>;
  /**
   * Runs one compiled statement on its own, as `db.executeQuery` does. On SQLite a statement
   * with no transaction open on the connection runs at once rather than queueing in Kysely: a
   * job step's writes and reads, each a statement of its own, go this way.
   */
  run<R>(query: CompiledQuery): Promise<QueryResult<R>>;
  /**
   * On SQLite: runs `work` in one transaction whose statements `run` executes at once, in the
   * order `work` gives them, each seeing the last one's answer; committed when `work` returns,
   * rolled back when it throws. With no transaction open on the connection, the begin, the
   * statements and the commit go straight to it within this turn, as `run` does for one
   * statement; with one open, the work waits its turn as `transaction` does. Undefined on
   * PostgreSQL, which has no synchronous connection.
   */
  readonly transactionNow: (<T>(work: (run: RunNow) => T) => Promise<T>) | undefined;
  /** The database's clock now, in epoch milliseconds. */
  now(): Promise<number>;
  /**
   * Runs `statement` every `statement.everyMs` until stopped or until it returns no row, and
   * tells `listener` each time. On a file or a server it runs from a thread of its own, on a
   * connection of its own, so a busy main thread does not hold it up (a job's lease renewal).
   */
  heartbeat(statement: HeartbeatStatement, listener: HeartbeatListener): Heartbeat;
  /**
   * Hears that a job became queued (started, woken, released), so an idle worker wakes without
   * polling: on PostgreSQL a NOTIFY from any process, heard on a connection of its own; on
   * SQLite this process's own writes (other processes sharing the file are found by a slow
   * poll). A wake-up may be spurious (a rolled-back write); none is missed while listening.
   * Resolves once listening.
   */
  listenForJobs(listener: () => void): Promise<Listening>;
  /**
   * Transient messages to every process on the same PostgreSQL database (a running job's model
   * text), each a NOTIFY on a channel of its own; undefined on SQLite, where nothing carries a
   * message to another process. Nothing sent is stored.
   */
  readonly broadcast: Broadcast | undefined;
  /** Closes the database or the pool, and stops the heartbeats. */
  close(): Promise<void>;
}

/** A listener for queued jobs; `close` stops it and lets its connection go. */
export interface Listening {
  close(): Promise<void>;
}

/**
 * Messages between the processes of one database, delivered in the order they were sent, to
 * listeners that were listening then; a message sent while a listener's connection was down is
 * lost. The sender hears its own messages too.
 */
export interface Broadcast {
  /** The most bytes (UTF-8) one payload may have. */
  readonly maxPayloadBytes: number;
  /**
   * The NOTIFY channel the messages go on, for a write that carries one in its own statement:
   * heard once that write commits, as one `send` makes would be once it returned.
   */
  readonly channel?: string;
  /**
   * Sends `payload`, a message about job `job`, if a process follows the job (`follow`); when
   * none does it sends nothing, so the statement takes no part in the commits that notify, which
   * PostgreSQL flushes one at a time. Resolves once done: messages sent one after another arrive
   * in that order.
   */
  send(job: string, payload: string): Promise<void>;
  /**
   * Marks job `job` followed by `follower` (the follower's name on the broadcast) until the
   * function it gives is called: messages about the job are sent meanwhile. A job that is not
   * there is followed by no one.
   */
  follow(job: string, follower: string): Promise<() => Promise<void>>;
  /** Resolves once listening. */
  listen(listener: (payload: string) => void): Promise<Listening>;
}

/** Opens a listener for queued jobs, once the schema is up to date. */
type JobListen = (listener: () => void) => Promise<Listening>;

export interface StoreOptions {
  /** The oz0 home folder; the SQLite file is `<home>/oz0.db`. */
  readonly home?: string | undefined;
  /** A PostgreSQL URL; when set, it wins over `home`. */
  readonly databaseUrl?: string | undefined;
  /** A private in-memory SQLite database, gone on close: for tests and throwaway runs. */
  readonly memory?: boolean | undefined;
}

/**
 * Opens the store and brings its schema up to date. PostgreSQL when `databaseUrl` is set,
 * else an in-memory SQLite database when `memory` is set, else SQLite at `<home>/oz0.db`.
 *
 * @example
 * const store = await openStore(storeOptionsFromEnv(process.env));
 */
export async function openStore(options: StoreOptions): Promise<Store> {
  const databaseUrl = options.databaseUrl?.trim();
  if (databaseUrl !== undefined && databaseUrl !== "") {
    const pool = await openPostgresPool(databaseUrl);
    const db = new Kysely<Database>({ dialect: postgresDialect(pool) });
    return createStore(
      db,
      "postgres",
      redactUrl(databaseUrl),
      POSTGRES_CLOCK_SQL,
      [],
      { engine: "postgres", target: databaseUrl, pragmas: [], busyTimeoutMs: 0 },
      async () => (listener) => listenPostgres(databaseUrl, JOBS_CHANNEL, () => listener()),
      (db) => postgresBroadcast(db, databaseUrl),
    );
  }
  let path: string;
  if (options.memory === true) path = SQLITE_MEMORY;
  else if (options.home !== undefined && options.home !== "") path = join(options.home, SQLITE_FILE_NAME);
  else {
    throw new Oz0Error(
      "INTERNAL",
      "openStore needs a place for the database: a home folder (--home or OZ0_HOME), a PostgreSQL URL " +
        "(OZ0_DATABASE_URL), or memory: true.",
      { data: { cause: "no home, databaseUrl or memory given" } },
    );
  }
  const warnings: string[] = [];
  const database = openSqliteDatabase(path, warnings);
  const dialect = new NodeSqliteDialect(database);
  const db = new Kysely<Database>({ dialect });
  // The file is in WAL mode already: the thread's connection takes the other pragmas.
  const thread: HeartbeatThreadData | undefined =
    path === SQLITE_MEMORY
      ? undefined
      : {
          engine: "sqlite",
          target: path,
          pragmas: SQLITE_PRAGMAS.filter((pragma) => !pragma.startsWith("journal_mode")),
          busyTimeoutMs: SQLITE_BUSY_TIMEOUT_MS,
        };
  let checkpoints: ThreadHeartbeats | undefined;
  const store = await createStore(
    db,
    "sqlite",
    path,
    SQLITE_CLOCK_SQL,
    warnings,
    thread,
    () => listenSqlite(database, db),
    () => undefined,
    dialect,
    (heartbeats) => {
      const elsewhere = new WalCheckpoints(database, heartbeats);
      dialect.onCommit = () => elsewhere.committed();
      checkpoints = heartbeats;
    },
  );
  if (checkpoints !== undefined) walCheckpoints.set(store, checkpoints);
  return store;
}

const walCheckpoints = new WeakMap<Store, ThreadHeartbeats>();

/** The WAL checkpoints a file store asked of its heartbeat thread and that thread ran; undefined in memory and on PostgreSQL. */
export function walCheckpointsOf(store: Store): ThreadHeartbeats["checkpoints"] | undefined {
  return walCheckpoints.get(store)?.checkpoints;
}

/** The options the environment asks for: `OZ0_DATABASE_URL`, else `OZ0_HOME` (default `~/.oz0`). */
export function storeOptionsFromEnv(env: Readonly<Record<string, string | undefined>>): StoreOptions {
  const home = env.OZ0_HOME !== undefined && env.OZ0_HOME !== "" ? env.OZ0_HOME : join(homedir(), ".oz0");
  return { home, databaseUrl: env.OZ0_DATABASE_URL };
}

async function createStore(
  db: Kysely<Database>,
  engine: StoreEngine,
  location: string,
  clock: string,
  warnings: readonly string[],
  thread: HeartbeatThreadData | undefined,
  listening: () => Promise<JobListen>,
  broadcasting: (db: Kysely<Database>) => Broadcast | undefined,
  sqlite?: NodeSqliteDialect,
  withThread?: (heartbeats: ThreadHeartbeats) => void,
): Promise<Store> {
  const clockSql = sql<number>`${sql.raw(clock)}`;
  let migrations: MigrationReport;
  try {
    migrations = await migrate(db, engine, clockSql);
  } catch (error) {
    await db.destroy().catch(() => {});
    if (error instanceof Oz0Error) throw error;
    throw new Oz0Error(
      "INTERNAL",
      `Cannot bring the ${engine} database at ${location} up to date: ${error instanceof Error ? error.message : String(error)}`,
      { data: { cause: String(error) }, cause: error },
    );
  }
  let listen: JobListen;
  try {
    listen = await listening();
  } catch (error) {
    await db.destroy().catch(() => {});
    throw error;
  }
  const loop = new LoopHeartbeats(db);
  let heartbeats: Heartbeats = loop;
  if (thread !== undefined) {
    const threaded = new ThreadHeartbeats(thread, loop);
    withThread?.(threaded);
    heartbeats = threaded;
  }
  return {
    engine,
    location,
    db,
    migrations,
    warnings,
    clockSql,
    transaction: (work) => db.transaction().execute(work),
    async run<R>(query: CompiledQuery) {
      return sqlite?.runAlone<R>(query) ?? (await db.executeQuery<R>(query));
    },
    transactionNow: sqlite === undefined ? undefined : (work) => sqliteTransactionNow(db, sqlite, work),
    async now() {
      const { rows } = await sql<{ now: number }>`select ${clockSql} as now`.execute(db);
      return rows[0]!.now;
    },
    heartbeat: (statement, listener) => heartbeats.start(statement, listener),
    listenForJobs: (listener) => listen(listener),
    broadcast: broadcasting(db),
    async close() {
      await heartbeats.close();
      await db.destroy();
    },
  };
}

/** `Store.transactionNow` on SQLite. */
async function sqliteTransactionNow<T>(
  db: Kysely<Database>,
  sqlite: NodeSqliteDialect,
  work: (run: RunNow) => T,
): Promise<T> {
  const now = sqlite.transactionNow(work);
  if (now !== undefined) return now.value;
  // A transaction of Kysely's holds the connection: this one waits its turn in Kysely's queue,
  // then runs its statements at once inside the transaction that gives it.
  return db.transaction().execute(async () => sqlite.inTransaction(work));
}

/** The channel migration 9's trigger notifies when a job becomes queued. */
const JOBS_CHANNEL = "oz0_jobs";

/** How long a lost LISTEN connection waits before it connects again. */
const RELISTEN_MS = 1_000;

/** The channel of `Store.broadcast`'s messages. */
const BROADCAST_CHANNEL = "oz0_live";

/**
 * PostgreSQL refuses a NOTIFY payload of 8000 bytes or more; a little is kept back, so a
 * payload measured at the limit is always taken.
 */
const NOTIFY_PAYLOAD_BYTES = 7_900;

function postgresBroadcast(db: Kysely<Database>, url: string): Broadcast {
  return {
    maxPayloadBytes: NOTIFY_PAYLOAD_BYTES,
    channel: BROADCAST_CHANNEL,
    async send(job, payload) {
      // Migration 27: a message nobody follows is not sent.
      await sql`select pg_notify(${BROADCAST_CHANNEL}, ${payload}) where exists (select 1 from job_followers where job_id = ${job})`.execute(
        db,
      );
    },
    async follow(job, follower) {
      await sql`insert into job_followers (job_id, follower, created_at)
        select ${job}, ${follower}, ${sql.raw(POSTGRES_CLOCK_SQL)} where exists (select 1 from jobs where id = ${job})
        on conflict do nothing`.execute(db);
      return async () => {
        await db
          .deleteFrom("job_followers")
          .where("job_id", "=", job)
          .where("follower", "=", follower)
          .execute();
      };
    },
    // What a lost connection missed is lost: a message is no use late.
    listen: (listener) =>
      listenPostgres(url, BROADCAST_CHANNEL, (payload) => {
        if (payload !== undefined) listener(payload);
      }),
  };
}

/**
 * LISTENs on a connection of its own, outside the pool (a pooled one would be handed to
 * queries). A lost connection is opened again, and the listener told once with no payload, for
 * what it missed.
 */
async function listenPostgres(
  url: string,
  channel: string,
  listener: (payload: string | undefined) => void,
): Promise<Listening> {
  const { default: pg } = await import("pg");
  let closed = false;
  let client: InstanceType<typeof pg.Client> | undefined;
  let retry: NodeJS.Timeout | undefined;
  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url });
    next.on("notification", (message) => {
      if (message.channel === channel) listener(message.payload);
    });
    const lost = () => {
      if (closed || client !== next) return;
      client = undefined;
      void next.end().catch(() => {});
      retry = setTimeout(() => {
        void connect()
          .then(() => listener(undefined))
          .catch(() => lost());
      }, RELISTEN_MS);
      retry.unref();
    };
    next.on("error", lost);
    next.on("end", lost);
    client = next;
    await next.connect();
    await next.query(`listen ${channel}`);
  };
  await connect();
  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      await client?.end().catch(() => {});
    },
  };
}

/**
 * A TEMP trigger lives on this connection alone: it calls a function only this process
 * defines, so other processes sharing the file (and older oz0s) never see it. It fires inside
 * the writing statement, before the commit: the listener is told once the write is done.
 */
async function listenSqlite(database: DatabaseSync, db: Kysely<Database>): Promise<JobListen> {
  const listeners = new Set<() => void>();
  database.function("oz0_job_queued", () => {
    if (listeners.size > 0) {
      setImmediate(() => {
        for (const listener of listeners) listener();
      });
    }
    return null;
  });
  for (const on of ["insert", "update of status"]) {
    await sql
      .raw(
        `create temp trigger if not exists oz0_job_queued_on_${on.split(" ")[0]} after ${on} on main.jobs ` +
          "when new.status = 'queued' begin select oz0_job_queued(); end",
      )
      .execute(db);
  }
  return async (listener) => {
    const once = () => listener();
    listeners.add(once);
    return {
      async close() {
        listeners.delete(once);
      },
    };
  };
}
