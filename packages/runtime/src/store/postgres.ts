// The PostgreSQL engine: a `pg` pool under Kysely's PostgresDialect, for an API edge and many
// worker nodes sharing one database. `pg` is loaded only when this engine is chosen, so the
// embedded runtime never pays for it.
import { Oz0Error } from "@oz0/sdk";
import { PostgresDialect } from "kysely";
import type { Pool, PoolConfig } from "pg";

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
