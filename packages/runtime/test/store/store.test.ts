import { isOz0Error } from "@oz0/sdk";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  APPROVAL_STATUSES,
  DEFAULT_TENANT,
  JOB_KINDS,
  JOB_STATUSES,
  MIGRATIONS,
  type NewJob,
  openStore,
  PART_KINDS,
  POLICY_ACTIONS,
  type Store,
  SWITCH_KINDS,
  storeOptionsFromEnv,
} from "../../src/store/index.js";
import { runTogether } from "./children.js";
import { disposeFixtures, engineFixtures } from "./engines.js";

const fixtures = engineFixtures();
afterAll(() => disposeFixtures(fixtures));

const ALL_VERSIONS = MIGRATIONS.map((migration) => migration.version);
const LATEST = ALL_VERSIONS.at(-1)!;

function job(id: string, overrides: Partial<NewJob> = {}): NewJob {
  return {
    id,
    tenant: DEFAULT_TENANT,
    name: "triage",
    plugin: "support-triage",
    kind: "agent",
    queue: "pool.support-triage",
    status: "queued",
    input: JSON.stringify("a ticket"),
    created_at: 1,
    updated_at: 1,
    ...overrides,
  };
}

async function addPlugin(store: Store, name: string): Promise<void> {
  await store.db
    .insertInto("plugins")
    .values({
      tenant: DEFAULT_TENANT,
      name,
      version: "1.0.0",
      dir: `/plugins/${name}`,
      manifest: JSON.stringify({ name }),
      installed_at: 1,
    })
    .execute();
}

describe.each(fixtures)("the store on $label", (fixture) => {
  let store: Store;
  beforeAll(async () => {
    store = await openStore(await fixture.fresh());
  });
  afterAll(() => store?.close());

  it("opens the engine its options choose", () => {
    expect(store.engine).toBe(fixture.engine);
  });

  it("runs every migration on a fresh database and records each", async () => {
    expect(store.migrations).toEqual({ version: LATEST, applied: ALL_VERSIONS });
    const rows = await store.db
      .selectFrom("oz0_migrations")
      .select(["version", "name"])
      .orderBy("version")
      .execute();
    expect(rows).toEqual(MIGRATIONS.map(({ version, name }) => ({ version, name })));
  });

  it("has the tenant default from the start", async () => {
    const tenants = await store.db.selectFrom("tenants").select("name").execute();
    expect(tenants).toEqual([{ name: DEFAULT_TENANT }]);
  });

  it("reads the database clock in epoch milliseconds", async () => {
    const before = Date.now();
    const first = await store.now();
    const second = await store.now();
    const after = Date.now();
    expect(Number.isInteger(first)).toBe(true);
    // Within the time the queries took, give or take a skew between this clock and the server's.
    const SKEW_MS = 5_000;
    expect(first).toBeGreaterThanOrEqual(before - SKEW_MS);
    expect(first).toBeLessThanOrEqual(after + SKEW_MS);
    expect(second).toBeGreaterThanOrEqual(first);
  });

  it("writes the database clock into a row through clockSql", async () => {
    const before = await store.now();
    await store.db.insertInto("tenants").values({ name: "clocked", created_at: store.clockSql }).execute();
    const after = await store.now();
    const row = await store.db
      .selectFrom("tenants")
      .select("created_at")
      .where("name", "=", "clocked")
      .executeTakeFirstOrThrow();
    expect(row.created_at).toBeGreaterThanOrEqual(before);
    expect(row.created_at).toBeLessThanOrEqual(after);
  });

  it("compares a lease with the database clock inside a query", async () => {
    await store.db
      .insertInto("jobs")
      .values(job("lease-1", { status: "running", lease_owner: "node-a", lease_expires_at: 1 }))
      .execute();
    await store.db
      .insertInto("jobs")
      .values({
        ...job("lease-2", { status: "running", lease_owner: "node-b" }),
        lease_expires_at: sql<number>`${store.clockSql} + 60000`,
      })
      .execute();
    const expired = await store.db
      .selectFrom("jobs")
      .select("id")
      .where("status", "=", "running")
      .where("lease_expires_at", "<", store.clockSql)
      .execute();
    expect(expired).toEqual([{ id: "lease-1" }]);
  });

  it("commits a transaction whose work resolves and returns its value", async () => {
    const value = await store.transaction(async (trx) => {
      await trx.insertInto("tenants").values({ name: "committed", created_at: 1 }).execute();
      return 42;
    });
    expect(value).toBe(42);
    const row = await store.db
      .selectFrom("tenants")
      .select("name")
      .where("name", "=", "committed")
      .executeTakeFirst();
    expect(row).toEqual({ name: "committed" });
  });

  it("rolls a transaction back when its work throws, and rethrows the error", async () => {
    const failure = new Error("the step failed");
    await expect(
      store.transaction(async (trx) => {
        await trx.insertInto("tenants").values({ name: "rolled-back", created_at: 1 }).execute();
        throw failure;
      }),
    ).rejects.toBe(failure);
    const row = await store.db
      .selectFrom("tenants")
      .select("name")
      .where("name", "=", "rolled-back")
      .executeTakeFirst();
    expect(row).toBeUndefined();
  });

  it("rolls a transaction back when one of its statements fails", async () => {
    await expect(
      store.transaction(async (trx) => {
        await trx.insertInto("tenants").values({ name: "half-done", created_at: 1 }).execute();
        await trx.insertInto("tenants").values({ name: DEFAULT_TENANT, created_at: 1 }).execute();
      }),
    ).rejects.toThrow();
    const row = await store.db
      .selectFrom("tenants")
      .select("name")
      .where("name", "=", "half-done")
      .executeTakeFirst();
    expect(row).toBeUndefined();
  });

  it("appends job events in order and rejects a second event with the same seq", async () => {
    await store.db.insertInto("jobs").values(job("job-events")).execute();
    const event = (seq: number, kind: string) => ({
      job_id: "job-events",
      seq,
      kind,
      data: JSON.stringify({ seq }),
      at: store.clockSql,
    });
    await store.db
      .insertInto("job_events")
      .values([event(1, "job_started"), event(2, "model_call")])
      .execute();
    await expect(store.db.insertInto("job_events").values(event(2, "tool_call")).execute()).rejects.toThrow();
    const kinds = await store.db
      .selectFrom("job_events")
      .select(["seq", "kind"])
      .where("job_id", "=", "job-events")
      .orderBy("seq")
      .execute();
    expect(kinds).toEqual([
      { seq: 1, kind: "job_started" },
      { seq: 2, kind: "model_call" },
    ]);
  });

  it("holds two plugins' agents of one name, a clash from before installs refused it", async () => {
    await addPlugin(store, "a");
    await addPlugin(store, "b");
    const part = (plugin: string) => ({
      tenant: DEFAULT_TENANT,
      kind: "agent" as const,
      name: "triage",
      plugin,
      definition: JSON.stringify({ name: "triage" }),
    });
    await store.db
      .insertInto("parts")
      .values([part("a"), part("b")])
      .execute();
    const owners = await store.db
      .selectFrom("parts")
      .select("plugin")
      .where("tenant", "=", DEFAULT_TENANT)
      .where("kind", "=", "agent")
      .where("name", "=", "triage")
      .orderBy("plugin")
      .execute();
    expect(owners).toEqual([{ plugin: "a" }, { plugin: "b" }]);
    await expect(store.db.insertInto("parts").values(part("a")).execute()).rejects.toThrow();
  });

  it("removes a plugin's parts with the plugin", async () => {
    await addPlugin(store, "removable");
    await store.db
      .insertInto("parts")
      .values({
        tenant: DEFAULT_TENANT,
        kind: "tool",
        name: "tickets",
        plugin: "removable",
        definition: "{}",
      })
      .execute();
    await store.db.deleteFrom("plugins").where("name", "=", "removable").execute();
    const parts = await store.db
      .selectFrom("parts")
      .select("name")
      .where("plugin", "=", "removable")
      .execute();
    expect(parts).toEqual([]);
  });

  it("refuses a row for a tenant that does not exist", async () => {
    await expect(
      store.db
        .insertInto("policies")
        .values({ tenant: "nobody", pattern: "github/*", action: "deny", created_at: 1 })
        .execute(),
    ).rejects.toThrow();
  });

  it("accepts every value of the schema's fixed lists and refuses any other", async () => {
    for (const [index, status] of JOB_STATUSES.entries()) {
      await store.db
        .insertInto("jobs")
        .values(job(`status-${index}`, { status }))
        .execute();
    }
    for (const [index, kind] of JOB_KINDS.entries()) {
      await store.db
        .insertInto("jobs")
        .values(job(`kind-${index}`, { kind }))
        .execute();
    }
    await addPlugin(store, "lists");
    for (const kind of PART_KINDS) {
      await store.db
        .insertInto("parts")
        .values({ tenant: DEFAULT_TENANT, kind, name: "x", plugin: "lists", definition: "{}" })
        .execute();
    }
    for (const action of POLICY_ACTIONS) {
      await store.db
        .insertInto("policies")
        .values({ tenant: DEFAULT_TENANT, pattern: `lists/${action}`, action, created_at: 1 })
        .execute();
    }
    for (const kind of SWITCH_KINDS) {
      await store.db
        .insertInto("kill_switches")
        .values({ tenant: DEFAULT_TENANT, kind, address: "lists/x", created_at: 1 })
        .execute();
      await store.db
        .insertInto("inventory")
        .values({ tenant: DEFAULT_TENANT, kind, address: "lists/x", purpose: "Tests.", updated_at: 1 })
        .execute();
    }
    for (const status of APPROVAL_STATUSES) {
      await store.db
        .insertInto("approvals")
        .values({
          id: `approval-${status}`,
          tenant: DEFAULT_TENANT,
          job_id: "status-0",
          address: "lists/x.y",
          request: "{}",
          status,
          requested_at: 1,
        })
        .execute();
    }
    const bogus = job("bogus-status", { status: "sleeping" as never });
    await expect(store.db.insertInto("jobs").values(bogus).execute()).rejects.toThrow();
    await expect(
      store.db
        .insertInto("policies")
        .values({ tenant: DEFAULT_TENANT, pattern: "lists/*", action: "maybe" as never, created_at: 1 })
        .execute(),
    ).rejects.toThrow();
  });

  it("fills a new job's defaults and gives integer columns back as numbers", async () => {
    await store.db
      .insertInto("jobs")
      .values(job("defaults", { created_at: 1_790_000_000_123, updated_at: 1_790_000_000_123 }))
      .execute();
    const row = await store.db
      .selectFrom("jobs")
      .select(["depth", "attempts", "tags", "created_at", "output", "failure", "parent_id", "lease_owner"])
      .where("id", "=", "defaults")
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      depth: 0,
      attempts: 0,
      tags: "[]",
      created_at: 1_790_000_000_123,
      output: null,
      failure: null,
      parent_id: null,
      lease_owner: null,
    });
    const count = await store.db
      .selectFrom("jobs")
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .where("id", "=", "defaults")
      .executeTakeFirstOrThrow();
    expect(count.count).toBe(1);
  });

  it("gives JSON text back exactly as it was stored", async () => {
    const value = JSON.stringify({
      model: "test:default",
      nested: { list: [1, "two", null], unicode: "é✓" },
    });
    await store.db
      .insertInto("settings")
      .values({ tenant: DEFAULT_TENANT, key: "model.default", value, updated_at: store.clockSql })
      .execute();
    const row = await store.db
      .selectFrom("settings")
      .select("value")
      .where("key", "=", "model.default")
      .executeTakeFirstOrThrow();
    expect(row.value).toBe(value);
  });
});

describe.each(fixtures.filter((fixture) => fixture.persistent))(
  "reopening the store on $label",
  (fixture) => {
    it("applies no migration when the database is already up to date", async () => {
      const options = await fixture.fresh();
      const first = await openStore(options);
      await first.close();
      const second = await openStore(options);
      try {
        expect(second.migrations).toEqual({ version: LATEST, applied: [] });
        const versions = await second.db
          .selectFrom("oz0_migrations")
          .select("version")
          .orderBy("version")
          .execute();
        expect(versions.map((row) => row.version)).toEqual(ALL_VERSIONS);
        const tenants = await second.db.selectFrom("tenants").select("name").execute();
        expect(tenants).toEqual([{ name: DEFAULT_TENANT }]);
      } finally {
        await second.close();
      }
    });

    it("keeps what was written across a close and an open", async () => {
      const options = await fixture.fresh();
      const first = await openStore(options);
      await first.db.insertInto("jobs").values(job("kept")).execute();
      await first.close();
      const second = await openStore(options);
      try {
        const row = await second.db.selectFrom("jobs").select(["id", "input"]).executeTakeFirst();
        expect(row).toEqual({ id: "kept", input: JSON.stringify("a ticket") });
      } finally {
        await second.close();
      }
    });

    it("refuses a database migrated by a newer oz0, saying to upgrade", async () => {
      const options = await fixture.fresh();
      const first = await openStore(options);
      const newer = LATEST + 1;
      await first.db
        .insertInto("oz0_migrations")
        .values({ version: newer, name: "future", applied_at: 1 })
        .execute();
      await first.close();
      const opening = openStore(options);
      await expect(opening).rejects.toSatisfy((error) => isOz0Error(error, "INTERNAL"));
      await expect(opening).rejects.toThrow(
        `The database is at schema version ${newer}, written by a newer oz0; this oz0 knows versions up to ${LATEST}. Upgrade oz0 to use this database.`,
      );
    });

    it("lets two processes open a fresh database at once: both succeed and it is migrated once", async () => {
      const options = await fixture.fresh();
      const results = await runTogether([
        { mode: "open", options },
        { mode: "open", options },
      ]);
      for (const result of results) expect(result).toMatchObject({ ok: true });
      const applied = results.flatMap((result) => (result.ok ? result.applied : []));
      expect(applied).toEqual(ALL_VERSIONS);
      const store = await openStore(options);
      try {
        expect(store.migrations.applied).toEqual([]);
        const versions = await store.db
          .selectFrom("oz0_migrations")
          .select("version")
          .orderBy("version")
          .execute();
        expect(versions.map((row) => row.version)).toEqual(ALL_VERSIONS);
        const tenants = await store.db.selectFrom("tenants").select("name").execute();
        expect(tenants).toEqual([{ name: DEFAULT_TENANT }]);
      } finally {
        await store.close();
      }
    });
  },
);

describe("choosing the engine", () => {
  it("uses PostgreSQL when a database URL is set, even beside a home folder", async () => {
    const postgres = fixtures.find((fixture) => fixture.label === "postgres")!;
    const sqlite = fixtures.find((fixture) => fixture.label === "sqlite")!;
    const store = await openStore({ ...(await sqlite.fresh()), ...(await postgres.fresh()) });
    try {
      expect(store.engine).toBe("postgres");
    } finally {
      await store.close();
    }
  });

  it("refuses to open with no home, no database URL and no memory", async () => {
    await expect(openStore({ databaseUrl: "  " })).rejects.toThrow(
      "openStore needs a place for the database: a home folder (--home or OZ0_HOME), a PostgreSQL URL (OZ0_DATABASE_URL), or memory: true.",
    );
  });

  it("reads OZ0_DATABASE_URL and OZ0_HOME from the environment", () => {
    expect(storeOptionsFromEnv({ OZ0_HOME: "/srv/oz0", OZ0_DATABASE_URL: "postgres://db/oz0" })).toEqual({
      home: "/srv/oz0",
      databaseUrl: "postgres://db/oz0",
    });
  });

  it("puts the home at ~/.oz0 when OZ0_HOME is not set", () => {
    const options = storeOptionsFromEnv({});
    expect(options.home).toMatch(/[/\\]\.oz0$/);
    expect(options.databaseUrl).toBeUndefined();
  });
});
