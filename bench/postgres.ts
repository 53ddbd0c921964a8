// The PostgreSQL server the benches measure against, and a fresh database on it for one run.
import { randomBytes } from "node:crypto";
import pg from "pg";

export const POSTGRES_URL =
  process.env.OZ0_BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

/** A new database on the bench's server, dropped by `drop`; undefined when no server answers. */
export async function postgresDatabase(): Promise<{ url: string; drop: () => Promise<void> } | undefined> {
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  try {
    await admin.connect();
  } catch {
    await admin.end().catch(() => {});
    return undefined;
  }
  const name = `oz0_bench_${randomBytes(6).toString("hex")}`;
  await admin.query(`create database ${name}`);
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}
