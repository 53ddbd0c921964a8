// The PostgreSQL engine: a `pg` pool under Kysely's PostgresDialect, for an API edge and many
// worker nodes sharing one database. `pg` is loaded only when this engine is chosen, so the
// embedded runtime never pays for it.
import { Oz0Error } from "@oz0/sdk";
import { PostgresDialect } from "kysely";
import type { Pool, PoolClient, PoolConfig } from "pg";

/** The PostgreSQL clock in epoch milliseconds; like SQLite's, constant within one statement. */
export const POSTGRES_CLOCK_SQL = "floor(extract(epoch from statement_timestamp()) * 1000)::bigint";

/** Connections per process: a node runs its jobs' steps over a few short transactions. */
const POOL_SIZE = 10;

/** int8: `count(*)`, the epoch-ms columns. */
const INT8_OID = 20;

/**
 * Opens a pool and checks the database answers, so a wrong URL or a stopped server fails at
 * start with a message that says so rather than at the first job.
 */
export async function openPostgresPool(url: string): Promise<Pool> {
  const { default: pg } = await import("pg");
  const config: PoolConfig = {
    connectionString: url,
    max: POOL_SIZE,
    // pg returns int8 as a string to be safe for values past 2^53; timestamps and counts are
    // far below that, and SQLite returns them as numbers, so both engines give numbers.
    types: {
      getTypeParser: ((oid: number, format?: "text" | "binary") =>
        oid === INT8_OID && format !== "binary"
          ? parseInt8
          : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  };
  const pool = new pg.Pool(config);
  pool.on("connect", (client) => prepareRepeated(client));
  // An idle client whose server went away emits "error" on the pool; unheard, that would end
  // the process. The pool drops the client, and the next query reports the fault itself.
  pool.on("error", () => {});
  try {
    await pool.query("select 1");
  } catch (error) {
    await pool.end().catch(() => {});
    throw new Oz0Error(
      "INTERNAL",
      `Cannot reach the PostgreSQL database at ${redactUrl(url)} (OZ0_DATABASE_URL): ` +
        `${error instanceof Error ? error.message : String(error)}. Check that the server is running and the URL is right.`,
      { data: { cause: String(error) }, cause: error },
    );
  }
  return pool;
}

/** Texts named for preparing, at most this many a process; the rest go unnamed. */
const MOST_PREPARED = 256;
/** Texts seen once, at most this many before they are forgotten. */
const MOST_SEEN = 4_096;
/** PostgreSQL's "cached plan must not change result type": another process changed a table under a prepared `*`. */
const PLAN_CHANGED = "0A000";

const seen = new Set<string>();
const names = new Map<string, string>();

/** The name to prepare `text` under: once it came a second time, while there is room. */
function nameOf(text: string): string | undefined {
  const name = names.get(text);
  if (name !== undefined || names.size >= MOST_PREPARED) return name;
  if (!seen.has(text)) {
    if (seen.size >= MOST_SEEN) seen.clear();
    seen.add(text);
    return undefined;
  }
  seen.delete(text);
  const named = `oz0_${names.size + 1}`;
  names.set(text, named);
  return named;
}

type QueryOf = (text: unknown, values?: unknown, callback?: unknown) => unknown;

/**
 * Has `client` send a statement whose text repeats (the job store's, compiled once, and the
 * look-ups the set-up makes at every job) as a named prepared statement, parsed once per
 * connection: the server parses and plans it once instead of at every round trip, which more
 * than halved a one-row read's time here. Only outside a transaction, so that the one way a
 * prepared statement can fail where its text would not (another process's migration changed
 * the columns under its `*`) is retried at once, unnamed, and prepared afresh under a new name.
 */
function prepareRepeated(client: PoolClient): void {
  const query = client.query.bind(client) as QueryOf;
  let open = false;
  let epoch = 0;
  (client as unknown as { query: QueryOf }).query = (text, values, callback) => {
    if (typeof text !== "string" || !Array.isArray(values) || callback !== undefined)
      return query(text, values, callback);
    const head = text.slice(0, 12).toLowerCase();
    if (head.startsWith("begin") || head.startsWith("start")) open = true;
    // A rollback to a savepoint leaves the transaction open.
    else if (head.startsWith("commit") || (head.startsWith("rollback") && !/^rollback\s+to\b/.test(head)))
      open = false;
    const name = open ? undefined : nameOf(text);
    if (name === undefined) return query(text, values);
    const named = { name: epoch === 0 ? name : `${name}_${epoch}`, text, values };
    return (query(named) as Promise<unknown>).catch((error: unknown) => {
      if ((error as { code?: unknown } | null)?.code !== PLAN_CHANGED) throw error;
      epoch++;
      return query(text, values);
    });
  };
}

export function postgresDialect(pool: Pool): PostgresDialect {
  return new PostgresDialect({ pool });
}

/** The URL with its password hidden, for messages and `store.location`. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== "") parsed.password = "***";
    return parsed.toString();
  } catch {
    return "(an unparsable URL)";
  }
}

function parseInt8(text: string): number | string {
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : text;
}
