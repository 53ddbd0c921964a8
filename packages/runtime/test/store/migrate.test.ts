import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { isOz0Error } from "@oz0/sdk";
import { CompiledQuery, Kysely, PostgresDialect, type RawBuilder, sql } from "kysely";
import pg from "pg";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import {
  type Database,
  MIGRATIONS,
  type Migration,
  migrate,
  NodeSqliteDialect,
  openStore,
  POSTGRES_CLOCK_SQL,
  SQLITE_CLOCK_SQL,
  type Store,
  type StoreEngine,
  type StoreOptions,
} from "../../src/store/index.js";
import { disposeFixtures, engineFixtures } from "./engines.js";

const fixtures = engineFixtures();
afterAll(() => disposeFixtures(fixtures));

const latest = MIGRATIONS.at(-1)!.version;

const addNotes: Migration = {
  version: latest + 1,
  name: "notes",
  async up(db) {
    await db.schema
      .createTable("notes")
      .addColumn("id", "text", (column) => column.primaryKey())
      .execute();
  },
};

const broken: Migration = {
  version: latest + 1,
  name: "broken",
  async up(db) {
    await db.schema
      .createTable("half_made")
      .addColumn("id", "text", (column) => column.primaryKey())
      .execute();
    throw new Error("the second statement failed");
  },
};

async function tableExists(store: Store, name: string): Promise<boolean> {
  const tables = await store.db.introspection.getTables();
  return tables.some((table) => table.name === name);
}

describe.each(fixtures)("migrations on $label", (fixture) => {
  let store: Store;
  beforeEach(async () => {
    store = await openStore(await fixture.fresh());
    return () => store.close();
  });

  it("applies a new migration to a database at an earlier version, then nothing more", async () => {
    const list = [...MIGRATIONS, addNotes];
    expect(await migrate(store.db, store.engine, store.clockSql, list)).toEqual({
      version: latest + 1,
      applied: [latest + 1],
    });
    expect(await migrate(store.db, store.engine, store.clockSql, list)).toEqual({
      version: latest + 1,
      applied: [],
    });
    expect(await tableExists(store, "notes")).toBe(true);
  });

  it("undoes all of a migration that fails and leaves the database at its version", async () => {
    const running = migrate(store.db, store.engine, store.clockSql, [...MIGRATIONS, broken]);
    await expect(running).rejects.toSatisfy((error) => isOz0Error(error, "INTERNAL"));
    await expect(running).rejects.toThrow(
      `Migration ${latest + 1} (broken) failed on ${store.engine}, so the database was left at version ${latest}: ` +
        "the second statement failed",
    );
    expect(await tableExists(store, "half_made")).toBe(false);
    const versions = await store.db.selectFrom("oz0_migrations").select("version").execute();
    expect(versions).toHaveLength(MIGRATIONS.length);
  });

  it("refuses a list whose versions do not increase", async () => {
    const repeating = { ...addNotes, version: latest };
    await expect(migrate(store.db, store.engine, store.clockSql, [...MIGRATIONS, repeating])).rejects.toThrow(
      `Migration "notes" is at position ${MIGRATIONS.length + 1} of the list with version ${latest}, ` +
        `not above the version before it (${latest}); versions must increase along the list.`,
    );
  });

  it("applies a version the list skipped once it joins, below a version the database has", async () => {
    const later = { ...addNotes, version: latest + 2 };
    expect(await migrate(store.db, store.engine, store.clockSql, [...MIGRATIONS, later])).toEqual({
      version: latest + 2,
      applied: [latest + 2],
    });
    const between: Migration = {
      version: latest + 1,
      name: "between",
      async up(db) {
        await db.schema
          .createTable("between")
          .addColumn("id", "text", (column) => column.primaryKey())
          .execute();
      },
    };
    expect(await migrate(store.db, store.engine, store.clockSql, [...MIGRATIONS, between, later])).toEqual({
      version: latest + 2,
      applied: [latest + 1],
    });
    expect(await tableExists(store, "between")).toBe(true);
  });

  it("migration 21 lets a routine fire have cause channel, keeping the fires, their uniqueness and the other checks", async () => {
    await store.db.insertInto("tenants").values({ name: "m21", created_at: 1 }).execute();
    const fire = (id: string, key: string, cause: string) =>
      store.db
        .insertInto("routine_fires")
        .values({
          id,
          tenant: "m21",
          routine: "desk/on-message",
          key,
          cause: cause as never,
          outcome: "started",
          created_at: 1,
          updated_at: 1,
        })
        .execute();
    await fire("f1", "channel:chm_1", "webhook");
    // Migration 21 runs again over a table with a fire in it, as it does over a database at 20.
    await store.db.deleteFrom("oz0_migrations").where("version", "=", 21).execute();
    expect(await migrate(store.db, store.engine, store.clockSql)).toMatchObject({ applied: [21] });
    const kept = await store.db.selectFrom("routine_fires").select(["id", "cause"]).execute();
    expect(kept).toEqual([{ id: "f1", cause: "webhook" }]);
    await fire("f2", "channel:chm_2", "channel");
    await expect(fire("f3", "channel:chm_2", "channel")).rejects.toThrow();
    await expect(fire("f4", "channel:chm_4", "carrier-pigeon")).rejects.toThrow();
  });

  it("migration 24 keeps only the job indexes a query reads: jobs_by_queue is gone, and a parent's children are found through jobs_by_parent, which holds child jobs only", async () => {
    const indexes = await jobIndexes(store);
    expect([...indexes.keys()].sort()).toEqual([
      "jobs_by_lease",
      "jobs_by_name",
      "jobs_by_parent",
      "jobs_by_status",
      "jobs_runnable_by_pool",
    ]);
    expect(indexes.get("jobs_by_parent")).toMatch(/where \(?"?parent_id"? is not null\)?/i);
    // The store's search for a parent's children (JobStore.search with `parent`).
    const children = store.db
      .selectFrom("jobs")
      .selectAll()
      .where("tenant", "=", "t")
      .where("parent_id", "=", "job-1")
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(50)
      .compile();
    expect(await queryPlan(store, children.sql, children.parameters)).toMatch(/jobs_by_parent/);
  });

  it("migration 26 keeps a tenant's usage totals, each at slot 0, and the calls after it add to them", async () => {
    const options = await fixture.fresh();
    const { db, engine, clockSql, done } = bareDatabase(options);
    try {
      await migrate(
        db,
        engine,
        clockSql,
        MIGRATIONS.filter((migration) => migration.version < 26),
      );
      await db.insertInto("tenants").values({ name: "m26", created_at: 1 }).execute();
      const HOUR = 3_600_000 * 500_000;
      await sql`insert into usage_totals (tenant, agent, model, hour, input_tokens, output_tokens, model_calls, cost_usd)
        values ('m26', 'desk/writer', 'test:x', ${HOUR}, 70, 7, 3, 0.25)`.execute(db);
      expect(
        (
          await migrate(
            db,
            engine,
            clockSql,
            MIGRATIONS.filter((migration) => migration.version <= 26),
          )
        ).applied,
      ).toContain(26);
      const kept = await db.selectFrom("usage_totals").selectAll().execute();
      expect(
        kept.map((row) => ({
          ...row,
          hour: Number(row.hour),
          input_tokens: Number(row.input_tokens),
          output_tokens: Number(row.output_tokens),
          model_calls: Number(row.model_calls),
        })),
      ).toEqual([
        {
          tenant: "m26",
          agent: "desk/writer",
          model: "test:x",
          hour: HOUR,
          slot: 0,
          input_tokens: 70,
          output_tokens: 7,
          model_calls: 3,
          cost_usd: 0.25,
        },
      ]);
      // The trigger still counts a model_call, into the hour's rows the readers sum.
      await sql`insert into jobs (id, tenant, name, plugin, kind, queue, status, input, created_at, updated_at)
        values ('j26', 'm26', 'writer', 'desk', 'agent', 'pool.desk', 'running', '""', 1, 1)`.execute(db);
      await sql`insert into job_events (job_id, seq, kind, data, at)
        values ('j26', 1, 'model_call', ${JSON.stringify({ step: 1, model: "test:x", usage: { input: 5, output: 1 } })}, ${HOUR + 1})`.execute(
        db,
      );
      const { rows } = await sql<{
        calls: number;
        input: number;
      }>`select cast(sum(model_calls) as integer) as calls, cast(sum(input_tokens) as integer) as input from usage_totals where tenant = 'm26' and hour = ${HOUR}`.execute(
        db,
      );
      expect(rows.map((row) => ({ calls: Number(row.calls), input: Number(row.input) }))).toEqual([
        { calls: 4, input: 75 },
      ]);
    } finally {
      await done();
    }
  });

  it("migration 28 leaves SQLite's events with no trigger, where PostgreSQL's trigger still counts each model_call", async () => {
    const options = await fixture.fresh();
    const { db, engine, clockSql, done } = bareDatabase(options);
    try {
      await migrate(db, engine, clockSql);
      await db.insertInto("tenants").values({ name: "m28", created_at: 1 }).execute();
      await sql`insert into jobs (id, tenant, name, plugin, kind, queue, status, input, created_at, updated_at)
        values ('j28', 'm28', 'writer', 'desk', 'agent', 'pool.desk', 'running', '""', 1, 1)`.execute(db);
      await sql`insert into job_events (job_id, seq, kind, data, at)
        values ('j28', 1, 'model_call', ${JSON.stringify({ step: 1, model: "test:x", usage: { input: 5, output: 1 } })}, 1)`.execute(
        db,
      );
      const counted = await db
        .selectFrom("usage_totals")
        .select("model_calls")
        .where("tenant", "=", "m28")
        .execute();
      if (engine === "sqlite") {
        const { rows } = await sql<{
          name: string;
        }>`select name from sqlite_master where type = 'trigger' and tbl_name = 'job_events'`.execute(db);
        expect(rows).toEqual([]);
        // The job store counts its writes' model calls itself (usage/engines.test.ts).
        expect(counted).toEqual([]);
      } else expect(counted.map((row) => Number(row.model_calls))).toEqual([1]);
    } finally {
      await done();
    }
  });

  it("refuses a database that records a version this list does not have", async () => {
    const later = { ...addNotes, version: latest + 2 };
    await migrate(store.db, store.engine, store.clockSql, [
      ...MIGRATIONS,
      { ...addNotes, version: latest + 1 },
    ]);
    await expect(migrate(store.db, store.engine, store.clockSql, [...MIGRATIONS, later])).rejects.toThrow(
      `The database records schema version ${latest + 1}, which this oz0 does not have; it was written by another build of oz0.`,
    );
  });
});

describe.each(fixtures.filter((fixture) => fixture.persistent))("starting on $label", (fixture) => {
  it("a start that finds the database up to date takes no lock: it opens while another holds the migration lock", async () => {
    const options = await fixture.fresh();
    await (await openStore(options)).close();
    const release = await holdMigrationLock(options);
    try {
      const store = await openStore(options);
      expect(await migrate(store.db, store.engine, store.clockSql)).toEqual({ version: latest, applied: [] });
      await store.close();
    } finally {
      await release();
    }
  });
});

/** A connection to the fixture's database that runs no migrations by itself, as a database an older oz0 left. */
function bareDatabase(options: StoreOptions): {
  db: Kysely<Database>;
  engine: StoreEngine;
  clockSql: RawBuilder<number>;
  done: () => Promise<void>;
} {
  if (options.databaseUrl !== undefined) {
    const db = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: options.databaseUrl, max: 1 }) }),
    });
    return {
      db,
      engine: "postgres",
      clockSql: sql<number>`${sql.raw(POSTGRES_CLOCK_SQL)}`,
      done: () => db.destroy(),
    };
  }
  const db = new Kysely<Database>({ dialect: new NodeSqliteDialect(new DatabaseSync(":memory:")) });
  return {
    db,
    engine: "sqlite",
    clockSql: sql<number>`${sql.raw(SQLITE_CLOCK_SQL)}`,
    done: () => db.destroy(),
  };
}

/** The jobs table's own indexes (not its primary key's), by name, with their definitions. */
async function jobIndexes(store: Store): Promise<Map<string, string>> {
  const { rows } =
    store.engine === "sqlite"
      ? await sql<{
          name: string;
          definition: string;
        }>`select name, sql as definition from sqlite_master where type = 'index' and tbl_name = 'jobs' and sql is not null`.execute(
          store.db,
        )
      : await sql<{
          name: string;
          definition: string;
        }>`select indexname as name, indexdef as definition from pg_indexes where tablename = 'jobs' and indexname <> 'jobs_pkey'`.execute(
          store.db,
        );
  return new Map(rows.map((row) => [row.name, row.definition]));
}

/** How the engine would run `query`; PostgreSQL is told to use an index where it can, as it would with rows in the table. */
async function queryPlan(store: Store, query: string, parameters: readonly unknown[]): Promise<string> {
  return store.db.connection().execute(async (connection) => {
    if (store.engine === "sqlite") {
      const { rows } = await connection.executeQuery<{ detail: string }>(
        CompiledQuery.raw(`explain query plan ${query}`, [...parameters]),
      );
      return rows.map((row) => row.detail).join("\n");
    }
    await sql`set enable_seqscan = off`.execute(connection);
    try {
      const { rows } = await connection.executeQuery<{ "QUERY PLAN": string }>(
        CompiledQuery.raw(`explain ${query}`, [...parameters]),
      );
      return rows.map((row) => row["QUERY PLAN"]).join("\n");
    } finally {
      await sql`reset enable_seqscan`.execute(connection);
    }
  });
}

/** Takes the lock a migration takes (SQLite's write lock, PostgreSQL's advisory lock) from another connection. */
async function holdMigrationLock(options: StoreOptions): Promise<() => Promise<void>> {
  if (options.databaseUrl !== undefined) {
    const client = new pg.Client({ connectionString: options.databaseUrl });
    await client.connect();
    await client.query(`select pg_advisory_lock(${0x6f7a30})`);
    return async () => {
      await client.end();
    };
  }
  const database = new DatabaseSync(join(String(options.home), "oz0.db"));
  database.exec("begin immediate");
  return async () => {
    database.exec("rollback");
    database.close();
  };
}

describe("the migration list", () => {
  it("numbers its migrations in increasing order with distinct names", () => {
    const versions = MIGRATIONS.map((migration) => migration.version);
    expect(versions).toEqual([...new Set(versions)].sort((a, b) => a - b));
    expect(new Set(MIGRATIONS.map((migration) => migration.name)).size).toBe(MIGRATIONS.length);
  });
});
