// The store: one interface over SQLite and PostgreSQL, with Kysely as the one query layer.
// Repositories (catalog, jobs, policy …) take a Store and write portable Kysely queries.
import { homedir } from "node:os";
import { join } from "node:path";
import { Oz0Error } from "@oz0/sdk";
import { Kysely, type RawBuilder, sql, type Transaction } from "kysely";
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
  SQLITE_BUSY_TIMEOUT_MS,
  SQLITE_CLOCK_SQL,
  SQLITE_FILE_NAME,
  SQLITE_MEMORY,
  SQLITE_PRAGMAS,
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
  /** The database's clock now, in epoch milliseconds. */
  now(): Promise<number>;
  /**
   * Runs `statement` every `statement.everyMs` until stopped or until it returns no row, and
   * tells `listener` each time. On a file or a server it runs from a thread of its own, on a
   * connection of its own, so a busy main thread does not hold it up (a job's lease renewal).
   */
  heartbeat(statement: HeartbeatStatement, listener: HeartbeatListener): Heartbeat;
  /** Closes the database or the pool, and stops the heartbeats. */
  close(): Promise<void>;
}

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
    return createStore(db, "postgres", redactUrl(databaseUrl), POSTGRES_CLOCK_SQL, [], {
      engine: "postgres",
      target: databaseUrl,
      pragmas: [],
      busyTimeoutMs: 0,
    });
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
  const db = new Kysely<Database>({ dialect: new NodeSqliteDialect(openSqliteDatabase(path, warnings)) });
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
  return createStore(db, "sqlite", path, SQLITE_CLOCK_SQL, warnings, thread);
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
  const loop = new LoopHeartbeats(db);
  const heartbeats: Heartbeats = thread === undefined ? loop : new ThreadHeartbeats(thread, loop);
  return {
    engine,
    location,
    db,
    migrations,
    warnings,
    clockSql,
    transaction: (work) => db.transaction().execute(work),
    async now() {
      const { rows } = await sql<{ now: number }>`select ${clockSql} as now`.execute(db);
      return rows[0]!.now;
    },
    heartbeat: (statement, listener) => heartbeats.start(statement, listener),
    async close() {
      await heartbeats.close();
      await db.destroy();
    },
  };
}
