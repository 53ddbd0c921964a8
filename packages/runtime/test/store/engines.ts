// Every store engine as a test fixture, so one suite runs against each: SQLite in memory,
// SQLite in a temporary folder, and PostgreSQL in a database created for the run and dropped
// after it. Other suites that need a store (catalog, jobs) can use these too.
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { DEFAULT_TEST_DATABASE_URL, printable } from "../../../../scripts/test-postgres.js";
import type { StoreEngine, StoreOptions } from "../../src/store/index.js";

/**
 * The server the PostgreSQL fixture creates its databases on: the one the run's global setup
 * (scripts/test-postgres.ts) chose or started, handed to the workers in OZ0_TEST_DATABASE_URL.
 */
export const POSTGRES_ADMIN_URL = process.env.OZ0_TEST_DATABASE_URL ?? DEFAULT_TEST_DATABASE_URL;

export interface EngineFixture {
  readonly label: "memory" | "sqlite" | "postgres";
  readonly engine: StoreEngine;
  /** Whether opening the same options twice reaches the same database (not so in memory). */
  readonly persistent: boolean;
  /** Options for a new, empty database of this engine. */
  fresh(): Promise<StoreOptions>;
  /** Removes every database `fresh()` made. */
  dispose(): Promise<void>;
}

export function engineFixtures(): EngineFixture[] {
  return [memoryFixture(), sqliteFixture(), postgresFixture()];
}

export async function disposeFixtures(fixtures: readonly EngineFixture[]): Promise<void> {
  await Promise.all(fixtures.map((fixture) => fixture.dispose()));
}

function memoryFixture(): EngineFixture {
  return {
    label: "memory",
    engine: "sqlite",
    persistent: false,
    fresh: async () => ({ memory: true }),
    dispose: async () => {},
  };
}

function sqliteFixture(): EngineFixture {
  const homes: string[] = [];
  return {
    label: "sqlite",
    engine: "sqlite",
    persistent: true,
    async fresh() {
      const home = await mkdtemp(join(tmpdir(), "oz0-store-"));
      homes.push(home);
      return { home };
    },
    async dispose() {
      await Promise.all(homes.map((home) => rm(home, { recursive: true, force: true })));
    },
  };
}

function postgresFixture(): EngineFixture {
  const databases: string[] = [];
  let admin: Promise<pg.Client> | undefined;
  const connect = async (): Promise<pg.Client> => {
    const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
    try {
      await client.connect();
    } catch (error) {
      await client.end().catch(() => {});
      throw new Error(
        `PostgreSQL is not reachable at ${printable(POSTGRES_ADMIN_URL)} (${error instanceof Error ? error.message : String(error)}); ` +
          "the store's tests run against it and skip nothing. The run's global setup (scripts/test-postgres.ts) " +
          "chose that server when the run started: it stopped since.",
      );
    }
    return client;
  };
  return {
    label: "postgres",
    engine: "postgres",
    persistent: true,
    async fresh() {
      admin ??= connect();
      const client = await admin;
      const name = `oz0_test_${randomBytes(6).toString("hex")}`;
      await client.query(`create database ${name}`);
      databases.push(name);
      const url = new URL(POSTGRES_ADMIN_URL);
      url.pathname = `/${name}`;
      return { databaseUrl: url.toString() };
    },
    async dispose() {
      if (admin === undefined) return;
      const client = await admin.catch(() => undefined);
      if (client === undefined) return;
      for (const name of databases) await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}
