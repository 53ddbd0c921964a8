// How the run chooses its PostgreSQL server (scripts/test-postgres.ts): the configured one when it
// answers, a real server of its own when nothing does, and never another when the configured one
// answers and refuses.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { userInfo } from "node:os";
import { dirname } from "node:path";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { testPostgres } from "./test-postgres.js";

/** Nothing listens on port 1: the address of a machine without PostgreSQL. */
const NOTHING_THERE = "postgres://postgres@127.0.0.1:1/test";

async function query<Row extends pg.QueryResultRow>(url: string, sql: string): Promise<Row> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<Row>(sql)).rows[0]!;
  } finally {
    await client.end();
  }
}

describe("the tests' PostgreSQL server", () => {
  it("is one the run starts itself when nothing answers at OZ0_TEST_DATABASE_URL, and is gone after the run", async () => {
    const server = await testPostgres(NOTHING_THERE);
    let folder: string;
    try {
      expect(server.description).toContain(`since nothing answers at ${NOTHING_THERE}`);
      const client = new pg.Client({ connectionString: server.url });
      await client.connect();
      try {
        const row = (
          await client.query<{ version: number; data: string; pid: number }>(
            "select current_setting('server_version_num')::int as version, current_setting('data_directory') as data, pg_backend_pid() as pid",
          )
        ).rows[0]!;
        expect(row.version).toBeGreaterThanOrEqual(180000);
        folder = dirname(row.data);
        // PostgreSQL refuses to run as root: started by root, the server runs as nobody.
        const user = execFileSync("ps", ["-o", "user=", "-p", String(row.pid)], {
          encoding: "utf8",
        }).trim();
        expect(user).toBe(process.getuid?.() === 0 ? "nobody" : userInfo().username);
      } finally {
        await client.end();
      }
    } finally {
      await server.stop();
    }
    expect(existsSync(folder)).toBe(false);
    await expect(query(server.url, "select 1")).rejects.toMatchObject({ code: "ECONNREFUSED" });
  });

  it("is the server at OZ0_TEST_DATABASE_URL when one answers there, which the run leaves running", async () => {
    const configured = process.env.OZ0_TEST_DATABASE_URL!;
    const server = await testPostgres(configured);
    expect(server.url).toBe(configured);
    await server.stop();
    expect(await query<{ one: number }>(configured, "select 1 as one")).toEqual({ one: 1 });
  });

  it("is not replaced when the server at OZ0_TEST_DATABASE_URL answers and refuses, and the error hides its password", async () => {
    const url = new URL(process.env.OZ0_TEST_DATABASE_URL!);
    url.pathname = "/oz0_no_such_database";
    // The run's own server has a password; a trust-auth server takes any.
    url.password ||= "oz0-test-password";
    const refused = testPostgres(url.toString());
    await expect(refused).rejects.toThrow(
      /answered, but the tests cannot use it: database "oz0_no_such_database" does not exist/,
    );
    await expect(refused).rejects.not.toThrow(url.password);
  });
});
