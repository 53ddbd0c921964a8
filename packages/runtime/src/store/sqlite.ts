// The SQLite engine: a Kysely dialect over Node's built-in `node:sqlite`, so the embedded
// store needs no native build. Several oz0 processes may share one file, which is what the
// pragmas and the `begin immediate` transactions below are for. The file holds every
// tenant's history, so it and its home are readable by their owner only.
import { chmodSync, closeSync, mkdirSync, openSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { DatabaseSync, type SQLInputValue, type StatementSync } from "node:sqlite";
import { Oz0Error } from "@oz0/sdk";
import {
  CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type TransactionSettings,
} from "kysely";

/**
 * How long a statement waits for another process's write lock before failing with
 * SQLITE_BUSY. Writes are short, so a wait this long means something is stuck.
 */
export const SQLITE_BUSY_TIMEOUT_MS = 10_000;

/**
 * Applied to every connection, in order. WAL lets readers go on while one process writes;
 * `synchronous = NORMAL` in WAL mode keeps every commit across a crash of the process (not
 * across a power cut), which is what job durability asks for, at a fraction of the cost.
 */
export const SQLITE_PRAGMAS: readonly string[] = [
  `busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`,
  "journal_mode = WAL",
  "synchronous = NORMAL",
  "foreign_keys = ON",
];

/**
 * How many pages the WAL of a file may hold before the store's own connection checkpoints it
 * in the commit that got there, as SQLite does at 1,000 by default. The heartbeat thread
 * checkpoints it long before (`WalCheckpoints`); this is the backstop for when it cannot: a
 * thread that does not answer, or a WAL that grows faster than it copies. 10,000 pages of 4 KiB
 * is a WAL of 40 MiB at most.
 */
export const SQLITE_BACKSTOP_CHECKPOINT_PAGES = 10_000;

/** SQLite's own automatic checkpoint, which the store's connection goes back to when the thread cannot checkpoint. */
const SQLITE_DEFAULT_CHECKPOINT_PAGES = 1_000;

/**
 * How many commits of the store's connection go between two checkpoints asked of the
 * heartbeat thread. A one-step job's commit adds a few pages to the WAL, so a checkpoint copies
 * a few hundred, under SQLITE_BACKSTOP_CHECKPOINT_PAGES by far.
 */
export const CHECKPOINT_EVERY_COMMITS = 100;

/** Another thread with a connection of its own to the file, which runs passive checkpoints when asked (the heartbeat thread). */
export interface CheckpointThread {
  /** Asks for one; false when it cannot be asked. */
  checkpoint(): boolean;
  /** How many it was asked for and ran (failed ones among them), read without waiting for a message. */
  readonly checkpoints: {
    readonly asked: number;
    readonly ran: number;
    readonly failed: number;
    readonly gone: boolean;
  };
}

/**
 * Takes the WAL's checkpoints off the store's own connection. SQLite runs a checkpoint inside
 * the commit that brings the WAL to 1,000 pages: an fsync of the WAL, the pages copied, an fsync
 * of the database, on the thread that committed. Here the connection counts its commits and,
 * every CHECKPOINT_EVERY_COMMITS once the last one ran, asks another thread's connection for a
 * passive checkpoint, which waits for no writer; its own automatic checkpoint waits until
 * SQLITE_BACKSTOP_CHECKPOINT_PAGES. When the thread cannot (it is gone, or a checkpoint of its
 * failed), the connection goes back to SQLite's default. Durability is the same either way: in
 * WAL mode a commit is in the WAL, which survives a crash of the process whether or not it was
 * copied into the database yet.
 */
export class WalCheckpoints {
  readonly #database: DatabaseSync;
  readonly #thread: CheckpointThread;
  #commits = 0;
  #given = false;

  constructor(database: DatabaseSync, thread: CheckpointThread) {
    this.#database = database;
    this.#thread = thread;
    database.exec(`pragma wal_autocheckpoint = ${SQLITE_BACKSTOP_CHECKPOINT_PAGES}`);
  }

  /** Hears one commit of the store's connection. */
  committed(): void {
    if (++this.#commits < CHECKPOINT_EVERY_COMMITS || this.#given) return;
    const { asked, ran, failed, gone } = this.#thread.checkpoints;
    if (failed > 0 || gone) {
      this.#giveUp();
      return;
    }
    // The last one still running (or the thread stuck): the backstop holds meanwhile.
    if (ran < asked) return;
    this.#commits = 0;
    if (!this.#thread.checkpoint()) this.#giveUp();
  }

  #giveUp(): void {
    this.#given = true;
    this.#database.exec(`pragma wal_autocheckpoint = ${SQLITE_DEFAULT_CHECKPOINT_PAGES}`);
  }
}

/** The SQLite clock in epoch milliseconds; constant within one statement. */
export const SQLITE_CLOCK_SQL = "cast(unixepoch('subsec') * 1000 as integer)";

/** The name of the database file under `$OZ0_HOME`. */
export const SQLITE_FILE_NAME = "oz0.db";

/** A path of `:memory:` opens a private in-memory database (the store's in-memory twin). */
export const SQLITE_MEMORY = ":memory:";

/** The mode of oz0's home folder: its owner's only. */
export const HOME_MODE = 0o700;

/** The mode of the database file and its `-wal` and `-shm` files: its owner's only. */
export const DATABASE_FILE_MODE = 0o600;

/**
 * Opens a SQLite database with oz0's pragmas. Within one process, open a file once: two
 * connections of one thread waiting on each other's lock would only time out. A file's
 * folder is made owner-only and the file itself created owner-only; an existing home or file
 * that others may read is tightened, and what cannot be (another user owns it) is added to
 * `warnings`.
 */
export function openSqliteDatabase(path: string, warnings: string[] = []): DatabaseSync {
  const memory = path === SQLITE_MEMORY;
  let database: DatabaseSync | undefined;
  try {
    if (!memory) prepareFile(path, warnings);
    database = new DatabaseSync(path, { timeout: SQLITE_BUSY_TIMEOUT_MS });
    for (const pragma of SQLITE_PRAGMAS) {
      if (pragma.startsWith("journal_mode")) {
        if (!memory) enterWalMode(database);
      } else {
        database.exec(`pragma ${pragma}`);
      }
    }
    // SQLite gives a new -wal and -shm the database file's mode; ones an older oz0 left keep theirs.
    if (!memory)
      for (const file of [`${path}-wal`, `${path}-shm`]) confine(file, DATABASE_FILE_MODE, warnings);
  } catch (error) {
    if (database?.isOpen) database.close();
    throw new Oz0Error(
      "INTERNAL",
      `Cannot open the SQLite database at ${path}: ${error instanceof Error ? error.message : String(error)}. ` +
        "Check that the oz0 home folder (--home or OZ0_HOME) exists and is writable.",
      { data: { cause: String(error) }, cause: error },
    );
  }
  return database;
}

/** Makes the home owner-only and the database file exist, owner-only, before SQLite opens it. */
function prepareFile(path: string, warnings: string[]): void {
  const home = dirname(path);
  mkdirSync(home, { recursive: true, mode: HOME_MODE });
  confine(home, HOME_MODE, warnings);
  try {
    closeSync(openSync(path, "wx", DATABASE_FILE_MODE));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  confine(path, DATABASE_FILE_MODE, warnings);
}

/** Takes group and other permissions off `path` when it has any; a file that is not there is left alone. */
function confine(path: string, mode: number, warnings: string[]): void {
  // Windows keeps no POSIX modes; its ACLs are the user's to set.
  if (process.platform === "win32") return;
  let current: number;
  try {
    current = statSync(path).mode & 0o777;
  } catch {
    return;
  }
  if ((current & 0o077) === 0) return;
  try {
    chmodSync(path, mode);
  } catch (error) {
    warnings.push(
      `${path} can be read by other users (mode ${current.toString(8)}) and oz0 cannot change that ` +
        `(${(error as NodeJS.ErrnoException).code ?? String(error)}); run chmod ${mode.toString(8)} ${path} as its owner.`,
    );
  }
}

/**
 * Switching a new file to WAL needs a lock that SQLite does not wait for: when several
 * processes open a new file at once, all but one get SQLITE_BUSY at once. They wait and try
 * again, as the busy timeout would; once the file is in WAL mode, that lasts.
 */
function enterWalMode(database: DatabaseSync): void {
  const deadline = Date.now() + SQLITE_BUSY_TIMEOUT_MS;
  for (;;) {
    try {
      if (journalMode(database, "pragma journal_mode") === "wal") return;
      const mode = journalMode(database, "pragma journal_mode = WAL");
      if (mode !== "wal") throw new Error(`SQLite kept journal mode ${mode} where WAL was asked for`);
      return;
    } catch (error) {
      if (!isBusy(error) || Date.now() >= deadline) throw error;
      Atomics.wait(SLEEPER, 0, 0, 5 + Math.random() * 20);
    }
  }
}

function journalMode(database: DatabaseSync, pragma: string): string | undefined {
  return (database.prepare(pragma).get() as { journal_mode?: string } | undefined)?.journal_mode;
}

/** Something to wait on synchronously: opening the database is synchronous. */
const SLEEPER = new Int32Array(new SharedArrayBuffer(4));

const SQLITE_BUSY = 5;

function isBusy(error: unknown): boolean {
  const code = (error as { errcode?: unknown } | null)?.errcode;
  return typeof code === "number" && (code & 0xff) === SQLITE_BUSY;
}

/** A Kysely dialect over an open `node:sqlite` database; Kysely closes it on `destroy()`. */
export class NodeSqliteDialect implements Dialect {
  readonly #database: DatabaseSync;
  readonly #connection: NodeSqliteConnection;

  constructor(database: DatabaseSync) {
    this.#database = database;
    this.#connection = new NodeSqliteConnection(database);
  }

  /** Hears every commit the connection makes: each write outside a transaction, each `commit`. */
  set onCommit(listener: (() => void) | undefined) {
    this.#connection.onCommit = listener;
  }

  /**
   * Runs `query` at once on the connection when no transaction is open on it, and answers
   * undefined when one is (the query then waits its turn through Kysely). A statement outside
   * a transaction is its own: node:sqlite runs it synchronously, so nothing else runs on the
   * connection meanwhile, and going straight to it skips Kysely's connection queue, several
   * awaits per statement that a job step's few statements paid as much for as for SQLite.
   */
  runAlone<R>(query: CompiledQuery): QueryResult<R> | undefined {
    if (this.#database.isTransaction) return undefined;
    return this.#connection.run<R>(query);
  }

  /**
   * Runs `work` between `begin immediate` and `commit` within this turn when no transaction is
   * open on the connection; undefined when one is. node:sqlite runs each statement
   * synchronously, so nothing else reaches the connection between them: the transaction is
   * whole without Kysely's connection queue, whose transaction object and awaits cost a one-step
   * job's three transactions more than their statements did.
   */
  transactionNow<T>(work: (run: RunNow) => T): { readonly value: T } | undefined {
    if (this.#database.isTransaction) return undefined;
    const connection = this.#connection;
    connection.run(BEGIN_IMMEDIATE);
    try {
      const value = work(this.#runNow);
      connection.run(COMMIT);
      return { value };
    } catch (error) {
      // SQLite rolls back by itself on some errors (a full disk, say).
      if (this.#database.isTransaction) connection.run(ROLLBACK);
      throw error;
    }
  }

  /** Runs `work`'s statements at once on the connection, inside the transaction its caller holds it for. */
  inTransaction<T>(work: (run: RunNow) => T): T {
    return work(this.#runNow);
  }

  readonly #runNow: RunNow = (query) => this.#connection.run(query);

  createAdapter(): DialectAdapter {
    return new SqliteAdapter();
  }

  createDriver(): Driver {
    return new NodeSqliteDriver(this.#database, this.#connection);
  }

  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler();
  }

  // biome-ignore lint/suspicious/noExplicitAny: Kysely's Dialect interface takes Kysely<any>.
  createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new SqliteIntrospector(db);
  }
}

/**
 * One connection, which Kysely serialises with a mutex since the SQLite adapter says it
 * supports only one. Transactions begin with `begin immediate`: a deferred transaction that
 * reads and then writes fails at once with SQLITE_BUSY when another process wrote in between,
 * without waiting; taking the write lock first makes it wait its turn instead.
 */
class NodeSqliteDriver implements Driver {
  readonly #database: DatabaseSync;
  readonly #connection: NodeSqliteConnection;

  constructor(database: DatabaseSync, connection: NodeSqliteConnection) {
    this.#database = database;
    this.#connection = connection;
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return this.#connection;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const begin = settings.accessMode === "read only" ? "begin" : "begin immediate";
    await connection.executeQuery(CompiledQuery.raw(begin));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("commit"));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    // SQLite rolls back by itself on some errors (a full disk, say); a second rollback would
    // then throw and hide the error that caused it.
    if (!this.#database.isTransaction) return;
    await connection.executeQuery(CompiledQuery.raw("rollback"));
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`savepoint ${quoteIdentifier(name)}`));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to ${quoteIdentifier(name)}`));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release ${quoteIdentifier(name)}`));
  }

  async releaseConnection(): Promise<void> {}

  async destroy(): Promise<void> {
    if (this.#database.isOpen) this.#database.close();
  }
}

interface CachedStatement {
  readonly statement: StatementSync;
  /** Whether the statement returns rows (a select, or a write with `returning`). */
  readonly reader: boolean;
  /** Whether it commits when it runs outside a transaction: anything but a read or a transaction's own statement. */
  readonly commits: boolean;
  /** When it was last used, by the connection's count of uses: the least recent goes first. */
  used: number;
}

/** Executes one compiled statement at once (`NodeSqliteDialect.transactionNow`). */
export type RunNow = <R>(query: CompiledQuery) => QueryResult<R>;

const BEGIN_IMMEDIATE = CompiledQuery.raw("begin immediate");
const COMMIT = CompiledQuery.raw("commit");
const ROLLBACK = CompiledQuery.raw("rollback");

/** Statements that commit nothing outside a transaction. */
const NOT_COMMITTING = /^\s*(select|pragma|explain|begin|savepoint|release|rollback)\b/i;

/** How many prepared statements a connection keeps; a job step reuses the same few. */
const STATEMENT_CACHE_SIZE = 256;

class NodeSqliteConnection implements DatabaseConnection {
  readonly #database: DatabaseSync;
  readonly #statements = new Map<string, CachedStatement>();
  #uses = 0;
  onCommit: (() => void) | undefined;

  constructor(database: DatabaseSync) {
    this.#database = database;
  }

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    return this.run<R>(compiledQuery);
  }

  run<R>(compiledQuery: CompiledQuery): QueryResult<R> {
    const { statement, reader, commits } = this.#prepare(compiledQuery.sql);
    const parameters = toSqliteParameters(compiledQuery.parameters);
    const committing =
      this.onCommit !== undefined &&
      (this.#database.isTransaction ? compiledQuery.sql === "commit" : commits);
    let result: QueryResult<R>;
    if (reader) result = { rows: statement.all(...parameters) as R[] };
    else {
      const { changes, lastInsertRowid } = statement.run(...parameters);
      result = { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
    }
    if (committing) this.onCommit?.();
    return result;
  }

  async *streamQuery<R>(compiledQuery: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    // A fresh statement: a cached one could be reset by another query while this is iterated.
    const statement = this.#database.prepare(compiledQuery.sql);
    for (const row of statement.iterate(...toSqliteParameters(compiledQuery.parameters))) {
      yield { rows: [row as R] };
    }
  }

  #prepare(sql: string): CachedStatement {
    const cached = this.#statements.get(sql);
    // Each use is stamped, and the least recently used goes when the cache is full: a stamp is
    // a write to the entry where moving it to the map's end was two more look-ups of its text.
    if (cached !== undefined) {
      cached.used = ++this.#uses;
      return cached;
    }
    const statement = this.#database.prepare(sql);
    const entry = {
      statement,
      reader: statement.columns().length > 0,
      commits: !NOT_COMMITTING.test(sql),
      used: ++this.#uses,
    };
    if (this.#statements.size >= STATEMENT_CACHE_SIZE) this.#evictLeastUsed();
    this.#statements.set(sql, entry);
    return entry;
  }

  #evictLeastUsed(): void {
    let oldest: string | undefined;
    let stamp = Number.POSITIVE_INFINITY;
    for (const [text, entry] of this.#statements) {
      if (entry.used < stamp) {
        stamp = entry.used;
        oldest = text;
      }
    }
    if (oldest !== undefined) this.#statements.delete(oldest);
  }
}

/**
 * node:sqlite binds a Date or a plain object as NULL without a word, which would lose data;
 * refuse anything PostgreSQL would not store the same way.
 */
function toSqliteParameters(parameters: readonly unknown[]): SQLInputValue[] {
  const values: SQLInputValue[] = new Array(parameters.length);
  for (let index = 0; index < parameters.length; index++) {
    const value = parameters[index];
    if (
      value === null ||
      typeof value === "string" ||
      typeof value === "number" ||
      typeof value === "bigint"
    ) {
      values[index] = value;
    } else if (typeof value === "boolean") {
      values[index] = value ? 1 : 0;
    } else if (value instanceof Uint8Array) {
      values[index] = value;
    } else {
      const what = value instanceof Date ? "a Date" : value === undefined ? "undefined" : `a ${typeof value}`;
      throw new Oz0Error(
        "INTERNAL",
        `Query parameter ${index + 1} is ${what}, which the store does not take: pass epoch milliseconds ` +
          "for a time, JSON.stringify(...) for a JSON column, and null for no value.",
        { data: { cause: `parameter ${index + 1} is ${what}` } },
      );
    }
  }
  return values;
}

function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
