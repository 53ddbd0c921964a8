import { isOz0Error } from "@oz0/sdk";
import { sql } from "kysely";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { openStore, redactUrl } from "../../src/store/index.js";
import { disposeFixtures, engineFixtures } from "./engines.js";

const fixtures = engineFixtures().filter((fixture) => fixture.label === "postgres");
afterAll(() => disposeFixtures(fixtures), 60_000);

describe("the PostgreSQL store", () => {
  it("says which database it could not reach, with the password hidden", async () => {
    const opening = openStore({ databaseUrl: "postgres://oz0:s3cret@127.0.0.1:1/oz0" });
    await expect(opening).rejects.toSatisfy((error) => isOz0Error(error, "INTERNAL"));
    await expect(opening).rejects.toThrow(
      /^Cannot reach the PostgreSQL database at postgres:\/\/oz0:\*\*\*@127\.0\.0\.1:1\/oz0 \(OZ0_DATABASE_URL\): .+\. Check that the server is running and the URL is right\.$/,
    );
    await expect(opening).rejects.not.toThrow(/s3cret/);
  });

  it("hides only the password of a URL", () => {
    expect(redactUrl("postgres://oz0:pw@db.example:5432/oz0?sslmode=require")).toBe(
      "postgres://oz0:***@db.example:5432/oz0?sslmode=require",
    );
    expect(redactUrl("postgres://oz0@db.example/oz0")).toBe("postgres://oz0@db.example/oz0");
  });
});

describe.each(fixtures)("statements that repeat on $label", (fixture) => {
  it("are prepared once per connection, and one whose columns another process changed answers with the new ones", async () => {
    const options = await fixture.fresh();
    const store = await openStore(options);
    const other = new pg.Client({ connectionString: options.databaseUrl });
    await other.connect();
    try {
      await other.query("create table prepared_probe (id integer primary key, name text)");
      await other.query("insert into prepared_probe values (1, 'one')");
      const read = () =>
        sql<Record<string, unknown>>`select * from prepared_probe where id = ${1}`.execute(store.db);
      // Held on one connection, so that every read goes on it.
      await store.db.connection().execute(async (db) => {
        const again = () =>
          sql<Record<string, unknown>>`select * from prepared_probe where id = ${1}`.execute(db);
        for (let round = 0; round < 3; round++)
          expect((await again()).rows).toEqual([{ id: 1, name: "one" }]);
        const { rows } = await sql<{
          n: number;
        }>`select count(*)::int as n from pg_prepared_statements where statement like ${"%prepared_probe%"}`.execute(
          db,
        );
        expect(rows[0]!.n).toBe(1);
        await other.query("alter table prepared_probe add column note text default 'added'");
        expect((await again()).rows).toEqual([{ id: 1, name: "one", note: "added" }]);
        expect((await again()).rows).toEqual([{ id: 1, name: "one", note: "added" }]);
      });
      expect((await read()).rows).toEqual([{ id: 1, name: "one", note: "added" }]);
    } finally {
      await other.end();
      await store.close();
    }
  });
});
