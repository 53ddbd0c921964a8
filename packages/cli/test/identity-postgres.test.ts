// oz0 tenant, user, member, key and audit on PostgreSQL (OZ0_DATABASE_URL), as an operator of a
// shared database runs them; identity.test.ts runs the same commands on the embedded SQLite store.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Runtime } from "@oz0/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disposeFixtures, engineFixtures } from "../../runtime/test/store/engines.js";
import { oz0, tempHome } from "./run-cli.js";

const postgres = engineFixtures().filter((fixture) => fixture.label === "postgres");
const PASSWORD = "a long enough passphrase";

let home: string;
let databaseUrl: string;
let cleanup: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ({ home, cleanup } = await tempHome());
  databaseUrl = (await postgres[0]!.fresh()).databaseUrl!;
  process.env.OZ0_DATABASE_URL = databaseUrl;
});
afterAll(async () => {
  delete process.env.OZ0_DATABASE_URL;
  await cleanup?.();
  await disposeFixtures(postgres);
});

const run = (...args: string[]) => oz0([...args, "--home", home]);

describe("identity through the CLI on PostgreSQL", () => {
  it("creates a tenant, a user, a membership and a key that sign in, and audits each change", async () => {
    expect((await run("tenant", "create", "acme")).code).toBe(0);
    const file = join(home, "alice.pw");
    await writeFile(file, `${PASSWORD}\n`, { mode: 0o600 });
    expect((await run("user", "add", "alice", "--password-file", file)).code).toBe(0);
    expect((await run("member", "add", "alice", "--tenant", "acme", "--role", "approver")).code).toBe(0);
    const made = (
      await run(
        "key",
        "create",
        "--tenant",
        "acme",
        "--name",
        "ci",
        "--role",
        "runner",
        "--agents",
        "tag:ci",
        "--json",
      )
    ).json<{ id: string; key: string }>();
    const runtime = await Runtime.open({ home, databaseUrl, defaultPlugins: [] });
    try {
      expect(await runtime.identity.authenticatePassword("alice", PASSWORD, "acme")).toMatchObject({
        role: "approver",
      });
      expect(await runtime.identity.authenticateKey(made.key)).toMatchObject({
        role: "runner",
        agents: ["tag:ci"],
      });
    } finally {
      await runtime.close();
    }
    expect((await run("key", "revoke", made.id, "--tenant", "acme")).code).toBe(0);
    const entries = (await run("audit", "list", "--tenant", "acme", "--json")).json<{ action: string }[]>();
    expect(entries.map((entry) => entry.action).reverse()).toEqual([
      "member.add",
      "key.create",
      "key.revoke",
    ]);
    expect(JSON.stringify(entries)).not.toContain(made.key.slice(-43));
  });
});
