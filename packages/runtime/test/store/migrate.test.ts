import { isOz0Error } from "@oz0/sdk";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { MIGRATIONS, type Migration, migrate, openStore, type Store } from "../../src/store/index.js";
import { disposeFixtures, engineFixtures } from "./engines.js";

const fixtures = engineFixtures();
afterAll(() => disposeFixtures(fixtures));

const latest = MIGRATIONS.length;

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
    expect(versions).toHaveLength(latest);
  });

  it("refuses a list whose versions do not run 1, 2, 3 in order", async () => {
    const skipping = { ...addNotes, version: latest + 2 };
    await expect(migrate(store.db, store.engine, store.clockSql, [...MIGRATIONS, skipping])).rejects.toThrow(
      `Migration "notes" is at position ${latest + 1} of the list but has version ${latest + 2}; ` +
        "versions must run 1, 2, 3, … in order.",
    );
  });
});

describe("the migration list", () => {
  it("numbers its migrations 1, 2, 3 … with distinct names", () => {
    expect(MIGRATIONS.map((migration) => migration.version)).toEqual(MIGRATIONS.map((_, index) => index + 1));
    expect(new Set(MIGRATIONS.map((migration) => migration.name)).size).toBe(MIGRATIONS.length);
  });
});
