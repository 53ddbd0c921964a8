// oz0 tenant, user, member, key and audit: who may do what, as the embedded CLI's local admin.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Runtime } from "@oz0/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { oz0, tempHome } from "./run-cli.js";

const MAIN = join(import.meta.dirname, "../src/main.ts");
const RESOLVE_TS = join(import.meta.dirname, "../../runtime/test/store/fixtures/resolve-ts.ts");
const PASSWORD = "a long enough passphrase";

let home: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ home, cleanup } = await tempHome());
});
afterAll(() => cleanup());

const run = (...args: string[]) => oz0([...args, "--home", home]);

/** Every byte of the home's SQLite file and its write-ahead log, as text. */
async function databaseBytes(): Promise<string> {
  const files = (await readdir(home)).filter((name) => name.startsWith("oz0.db"));
  const parts = await Promise.all(files.map((name) => readFile(join(home, name))));
  return Buffer.concat(parts).toString("latin1");
}

async function withHome<T>(work: (runtime: Runtime) => Promise<T>): Promise<T> {
  const runtime = await Runtime.open({ home, defaultPlugins: [] });
  try {
    return await work(runtime);
  } finally {
    await runtime.close();
  }
}

describe("oz0 tenant", () => {
  it("creates a tenant, which gets std, and lists the tenants", async () => {
    expect((await run("tenant", "create", "acme")).stdout).toBe("created tenant acme\n");
    const plugins = await run("plugin", "list", "--tenant", "acme", "--json");
    expect(plugins.json<{ name: string }[]>().map((plugin) => plugin.name)).toContain("std");
    const tenants = (await run("tenant", "list", "--json")).json<{ name: string }[]>();
    expect(tenants.map((tenant) => tenant.name)).toEqual(["acme", "default"]);
  });

  it("refuses a tenant that exists, and a tenant managed from another tenant", async () => {
    const again = await run("tenant", "create", "acme");
    expect(again.code).toBe(1);
    expect(again.stderr).toBe("oz0: tenant acme exists already; oz0 tenant list shows the tenants.\n");
    const elsewhere = await run("tenant", "create", "other", "--tenant", "acme");
    expect(elsewhere.code).toBe(1);
    expect(elsewhere.stderr).toContain("the admins of tenant default manage them");
  });
});

describe("oz0 user", () => {
  it("never accepts the password as an argument, and does not repeat it", async () => {
    for (const args of [
      ["user", "add", "mallory", "hunter2hunter2hunter2"],
      ["user", "add", "mallory", "--password", "hunter2hunter2hunter2"],
      ["user", "add", "mallory", "--password=hunter2hunter2hunter2"],
    ]) {
      const result = await run(...args);
      expect(result.code, args.join(" ")).toBe(1);
      expect(result.stderr).toContain("oz0 user add never takes the password on its command line");
      expect(result.stderr + result.stdout).not.toContain("hunter2");
    }
    expect((await run("user", "list", "--json")).json()).toEqual([]);
  });

  it("reads the password from --password-file and stores it as an argon2id hash, the password nowhere in the database", async () => {
    const file = join(home, "alice.pw");
    await writeFile(file, `${PASSWORD}\n`, { mode: 0o600 });
    const added = await run("user", "add", "alice", "--password-file", file);
    expect(added.stdout).toContain("added user alice");
    const bytes = await databaseBytes();
    expect(bytes).not.toContain(PASSWORD);
    expect(bytes).toContain("$argon2id$v=19$");
  });

  it("reads the password piped to stdin, without its final newline", async () => {
    const child = spawn(
      process.execPath,
      ["--conditions=@oz0/source", "--import", RESOLVE_TS, MAIN, "user", "add", "bob", "--home", home],
      { stdio: ["pipe", "pipe", "pipe"] },
    );
    let stderr = "";
    child.stderr.on("data", (chunk) => {
      stderr += String(chunk);
    });
    child.stdin.end(`${PASSWORD}\n`);
    const [code] = await once(child, "exit");
    expect(stderr).toBe("");
    expect(code).toBe(0);
    await run("member", "add", "bob", "--role", "runner");
    const caller = await withHome((runtime) =>
      runtime.identity.authenticatePassword("bob", PASSWORD, "default"),
    );
    expect(caller).toEqual({ tenant: "default", actor: "user:bob", role: "runner", agents: ["*"] });
  });

  it("refuses an empty or missing password file", async () => {
    const empty = join(home, "empty.pw");
    await writeFile(empty, "\n");
    expect((await run("user", "add", "carol", "--password-file", empty)).stderr).toBe(
      `oz0: --password-file ${empty} held no password\n`,
    );
    expect((await run("user", "add", "carol", "--password-file", join(home, "none"))).stderr).toContain(
      "there is no such file",
    );
  });
});

describe("oz0 member", () => {
  it("makes a user a member with a role and agents, and the membership becomes the Caller", async () => {
    const added = await run(
      "member",
      "add",
      "alice",
      "--tenant",
      "acme",
      "--role",
      "operator",
      "--agents",
      "tag:hr,hr/onboarding",
    );
    expect(added.stdout).toBe("alice is operator in tenant acme, agents tag:hr, hr/onboarding\n");
    const changed = await run("member", "add", "alice", "--tenant", "acme", "--role", "viewer");
    expect(changed.stdout).toBe(
      "alice is viewer in tenant acme, agents * (was operator, agents tag:hr, hr/onboarding)\n",
    );
    const members = (await run("member", "list", "--tenant", "acme", "--json")).json<
      { user: string; role: string }[]
    >();
    expect(members.map(({ user, role }) => [user, role])).toEqual([["alice", "viewer"]]);
    const caller = await withHome((runtime) =>
      runtime.identity.authenticatePassword("alice", PASSWORD, "acme"),
    );
    expect(caller).toMatchObject({ tenant: "acme", role: "viewer", agents: ["*"] });
  });

  it("creates a tenant with --admin: the user is its admin of every agent at once, as its audit log says", async () => {
    const made = await run("tenant", "create", "research", "--admin", "alice");
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toBe("created tenant research; alice is its admin\n");
    const members = (await run("member", "list", "--tenant", "research", "--json")).json<
      { user: string; role: string; agents: string[] }[]
    >();
    expect(members.map(({ user, role, agents }) => [user, role, agents])).toEqual([
      ["alice", "admin", ["*"]],
    ]);
    const audit = (await run("audit", "list", "--tenant", "research", "--json")).json<
      { action: string; target: string }[]
    >();
    expect(audit.map(({ action, target }) => [action, target])).toContainEqual(["member.add", "user:alice"]);
    const nobody = await run("tenant", "create", "lonely", "--admin", "nobody");
    expect(nobody.code).toBe(1);
    expect(nobody.stderr).toContain("nobody");
    expect(
      (await run("tenant", "list", "--json")).json<{ name: string }[]>().map((one) => one.name),
    ).not.toContain("lonely");
  });

  it("refuses bad --agents entries with a clear error", async () => {
    const result = await run(
      "member",
      "add",
      "alice",
      "--tenant",
      "acme",
      "--role",
      "viewer",
      "--agents",
      "hr/onboarding,onboarding",
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^oz0: --agents entry 'onboarding': .*; each entry is an agent's address \(<plugin>\/<agent>\), tag:<tag>, or \* for every agent\.\n$/,
    );
    const tag = await run(
      "member",
      "add",
      "alice",
      "--tenant",
      "acme",
      "--role",
      "viewer",
      "--agents",
      "tag:Not OK",
    );
    expect(tag.stderr).toContain("--agents entry 'tag:Not OK': tag name 'Not OK' must be");
  });

  it("refuses a role that is not one of the five", async () => {
    const result = await run("member", "add", "alice", "--role", "owner");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      "--role owner: Allowed choices are viewer, runner, approver, operator, admin",
    );
  });

  it("removes a membership", async () => {
    expect((await run("member", "remove", "bob")).stdout).toBe(
      "bob is no longer a member of tenant default\n",
    );
    expect((await run("member", "remove", "bob")).stderr).toBe(
      "oz0: bob is not a member of tenant default; oz0 member list shows its members.\n",
    );
  });
});

describe("oz0 key", () => {
  let made: { id: string; key: string };

  it("prints a new key once, as {id, key} with --json, and stores only its hash", async () => {
    const result = await run(
      "key",
      "create",
      "--tenant",
      "acme",
      "--name",
      "ci",
      "--role",
      "runner",
      "--expires",
      "30d",
      "--json",
    );
    made = result.json<{ id: string; key: string }>();
    expect(Object.keys(made).sort()).toEqual(["id", "key"]);
    expect(made.key).toMatch(new RegExp(`^oz0k_${made.id}_[A-Za-z0-9_-]{43}$`));
    const secret = made.key.slice(`oz0k_${made.id}_`.length);
    const list = await run("key", "list", "--tenant", "acme", "--json");
    expect(list.stdout).not.toContain(secret);
    expect(list.json<{ id: string; status: string }[]>()).toMatchObject([{ id: made.id, status: "active" }]);
    const bytes = await databaseBytes();
    expect(bytes).not.toContain(secret);
    const caller = await withHome((runtime) => runtime.identity.authenticateKey(made.key));
    expect(caller).toEqual({ tenant: "acme", actor: `key:${made.id}`, role: "runner", agents: ["*"] });
  });

  it("prints the key alone on stdout, and says on stderr it is shown this once", async () => {
    const result = await run(
      "key",
      "create",
      "--tenant",
      "acme",
      "--name",
      "deploy",
      "--role",
      "admin",
      "--agents",
      "tag:ops",
    );
    expect(result.stdout).toMatch(/^oz0k_[0-9a-f]{16}_[A-Za-z0-9_-]{43}\n$/);
    expect(result.stderr).toContain("this is the only time it is shown");
  });

  it("revokes a key, which is then refused", async () => {
    expect((await run("key", "revoke", made.id, "--tenant", "acme")).stdout).toBe(
      `revoked key ${made.id} (ci)\n`,
    );
    const error = await withHome((runtime) =>
      runtime.identity.authenticateKey(made.key).catch((thrown) => thrown),
    );
    expect(error).toMatchObject({ code: "UNAUTHENTICATED" });
    const list = (await run("key", "list", "--tenant", "acme", "--json")).json<
      { id: string; status: string }[]
    >();
    expect(list.find((each) => each.id === made.id)?.status).toBe("revoked");
  });

  it("refuses an --expires it cannot read", async () => {
    const result = await run("key", "create", "--name", "x", "--role", "viewer", "--expires", "soon");
    expect(result.stderr).toBe(
      "oz0: --expires soon: it takes a whole number and a unit, m (minutes), h (hours), d (days) or w (weeks), such as 30d, up to 3650d.\n",
    );
  });
});

describe("oz0 audit list", () => {
  it("shows each change in the tenant with who and what, filtered, and never a secret", async () => {
    const entries = (await run("audit", "list", "--tenant", "acme", "--json")).json<
      { actor: string; action: string; target: string; detail: Record<string, unknown> }[]
    >();
    expect(entries.map((entry) => entry.action).reverse()).toEqual([
      "member.add",
      "member.update",
      "key.create",
      "key.create",
      "key.revoke",
      "auth.fail",
    ]);
    const [failure, ...changes] = entries;
    expect(changes.every((entry) => entry.actor.startsWith("cli"))).toBe(true);
    // The revoked key's refused sign-in: the reason is here, never in the answer.
    expect(failure).toMatchObject({ actor: "unauthenticated", detail: { reason: "revoked" } });
    const keys = (
      await run("audit", "list", "--tenant", "acme", "--action", "key", "--since", "1h", "--json")
    ).json<unknown[]>();
    expect(keys).toHaveLength(3);
    const installation = (await run("audit", "list", "--json")).json<{ action: string; target: string }[]>();
    expect(installation.map((entry) => `${entry.action} ${entry.target}`).reverse()).toEqual([
      "tenant.create tenant:acme",
      "user.add user:alice",
      "user.add user:bob",
      "member.add user:bob",
      "tenant.create tenant:research",
      "member.remove user:bob",
    ]);
    const text = await run("audit", "list", "--tenant", "acme");
    expect(text.stdout.split("\n")[0]).toMatch(/^AT +ACTOR +ACTION +TARGET +DETAIL$/);
    const all = (await run("audit", "list", "--tenant", "acme")).stdout + (await run("audit", "list")).stdout;
    expect(all).not.toContain(PASSWORD);
    expect(all).not.toContain("oz0k_");
  });

  it("refuses a --since it cannot read", async () => {
    expect((await run("audit", "list", "--since", "yesterday")).stderr).toContain(
      "--since yesterday: it takes a time such as 2026-12-01",
    );
  });
});

// After the audit log's tests, whose entries it would add to.
describe("oz0 key create --expires", () => {
  it("makes a key with --expires 12h that works for twelve hours, as key list shows, and then is refused", async () => {
    const before = Date.now();
    const made = (
      await run("key", "create", "--name", "brief", "--role", "viewer", "--expires", "12h", "--json")
    ).json<{ id: string; key: string }>();
    const after = Date.now();
    const listed = (await run("key", "list", "--json"))
      .json<{ id: string; status: string; expiresAt: number | null }[]>()
      .find((each) => each.id === made.id);
    expect(listed?.status).toBe("active");
    const twelveHours = 12 * 60 * 60 * 1000;
    expect(listed?.expiresAt).toBeGreaterThanOrEqual(before + twelveHours);
    expect(listed?.expiresAt).toBeLessThanOrEqual(after + twelveHours);
    const text = await run("key", "list");
    expect(text.stdout).toContain(new Date(listed?.expiresAt ?? 0).toISOString());
    await withHome(async (runtime) => {
      expect(await runtime.identity.authenticateKey(made.key)).toMatchObject({ role: "viewer" });
      await runtime.store.db
        .updateTable("api_keys")
        .set({ expires_at: 1 })
        .where("id", "=", made.id)
        .execute();
      await expect(runtime.identity.authenticateKey(made.key)).rejects.toMatchObject({
        code: "UNAUTHENTICATED",
      });
    });
    const expired = (await run("key", "list", "--json"))
      .json<{ id: string; status: string }[]>()
      .find((each) => each.id === made.id);
    expect(expired?.status).toBe("expired");
  });
});
