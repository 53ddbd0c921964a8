import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { errorShape, isOz0Error, type Oz0Error } from "@oz0/sdk";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { type Caller, localAdmin, requireRole } from "../../src/callers/index.js";
import { SIGN_IN_REFUSED } from "../../src/identity/index.js";
import { Runtime } from "../../src/runtime.js";
import { disposeFixtures, engineFixtures } from "../store/engines.js";

const fixtures = engineFixtures();
afterAll(() => disposeFixtures(fixtures));

const PASSWORD = "correct horse battery staple";
const ADMIN: Caller = localAdmin("default", "cli:root");

/** The Oz0Error `work` is refused with. */
async function refusal(work: Promise<unknown>): Promise<Oz0Error> {
  try {
    await work;
  } catch (error) {
    if (isOz0Error(error)) return error;
    throw error;
  }
  throw new Error("expected a refusal");
}

/** Every byte of the store's files (the SQLite file and its write-ahead log) as text. */
async function databaseBytes(home: string): Promise<string> {
  const files = (await readdir(home)).filter((name) => name.startsWith("oz0.db"));
  const parts = await Promise.all(files.map((name) => readFile(join(home, name))));
  return Buffer.concat(parts).toString("latin1");
}

describe.each(fixtures)("identity on $label", (fixture) => {
  let runtime: Runtime;
  let home: string | undefined;
  beforeEach(async () => {
    const options = await fixture.fresh();
    home = "home" in options ? options.home : undefined;
    runtime = await Runtime.open({ ...options, defaultPlugins: [], throttle: { perUser: 3, perSource: 5 } });
    await runtime.identity.createTenant(ADMIN, "acme");
    return () => runtime.close();
  });
  const acmeAdmin = () => localAdmin("acme", "cli:root");

  it("stores a password as an argon2id hash, and the password nowhere in the database", async () => {
    await runtime.identity.addUser(ADMIN, "alice", PASSWORD);
    const row = await runtime.store.db.selectFrom("users").selectAll().executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=\d+,t=\d+,p=\d+\$/);
    expect(JSON.stringify(row)).not.toContain(PASSWORD);
    if (home !== undefined) expect(await databaseBytes(home)).not.toContain(PASSWORD);
  });

  it("shows a key once and stores only its hash", async () => {
    const made = await runtime.identity.createKey(acmeAdmin(), { name: "ci", role: "runner" });
    expect(made.key).toMatch(/^oz0k_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
    const secret = made.key.split("_").slice(2).join("_");
    const listed = await runtime.identity.listKeys(acmeAdmin());
    expect(JSON.stringify(listed)).not.toContain(secret);
    expect(listed).toEqual([made.view]);
    const row = await runtime.store.db.selectFrom("api_keys").selectAll().executeTakeFirstOrThrow();
    expect(row.secret_hash).toBe(createHash("sha256").update(secret).digest("hex"));
    expect(JSON.stringify(row)).not.toContain(secret);
    if (home !== undefined) {
      const bytes = await databaseBytes(home);
      expect(bytes).not.toContain(secret);
      expect(bytes).not.toContain(made.key);
    }
  });

  it("refuses revoked, expired, wrong-secret, unknown and unreadable keys identically", async () => {
    const revoked = await runtime.identity.createKey(acmeAdmin(), { name: "old", role: "runner" });
    await runtime.identity.revokeKey(acmeAdmin(), revoked.id);
    const expired = await runtime.identity.createKey(acmeAdmin(), {
      name: "brief",
      role: "runner",
      expiresInMs: 60_000,
    });
    await runtime.store.db
      .updateTable("api_keys")
      .set({ expires_at: 1 })
      .where("id", "=", expired.id)
      .execute();
    const good = await runtime.identity.createKey(acmeAdmin(), { name: "good", role: "runner" });
    const wrongSecret = `${good.key.slice(0, -1)}${good.key.endsWith("A") ? "B" : "A"}`;
    const unknown = `oz0k_0123456789abcdef_${good.key.split("_").slice(2).join("_")}`;
    const presented = [revoked.key, expired.key, wrongSecret, unknown, "not a key at all"];
    const shapes = [];
    for (const key of presented) {
      const error = await refusal(runtime.identity.authenticateKey(key, { source: "10.0.0.1" }));
      expect(error.code).toBe("UNAUTHENTICATED");
      shapes.push(errorShape(error));
    }
    for (const shape of shapes) expect(shape).toEqual(shapes[0]);
    expect(shapes[0]!.error.message).toBe(SIGN_IN_REFUSED);
    // The reason is for the audit log alone.
    const failures = await runtime.store.db
      .selectFrom("audit_log")
      .select(["tenant", "target", "detail"])
      .where("action", "=", "auth.fail")
      .orderBy("seq")
      .execute();
    expect(failures.map((row) => [row.tenant, row.target, JSON.parse(row.detail).reason])).toEqual([
      ["acme", `key:${revoked.id}`, "revoked"],
      ["acme", `key:${expired.id}`, "expired"],
      ["acme", `key:${good.id}`, "wrong secret"],
      [null, "key:0123456789abcdef", "unknown key"],
      [null, "key:unreadable", "not an oz0 key"],
    ]);
    expect(await runtime.identity.authenticateKey(good.key)).toMatchObject({
      tenant: "acme",
      role: "runner",
    });
  });

  it("refuses an unknown user, a wrong password, and a tenant the user is not a member of identically", async () => {
    await runtime.identity.addUser(ADMIN, "alice", PASSWORD);
    await runtime.identity.addMember(acmeAdmin(), { user: "alice", role: "viewer" });
    const attempts = [
      () => runtime.identity.authenticatePassword("nobody", PASSWORD, "acme"),
      () => runtime.identity.authenticatePassword("alice", "not the password at all", "acme"),
      () => runtime.identity.authenticatePassword("alice", PASSWORD, "default"),
      () => runtime.identity.authenticatePassword("alice", PASSWORD, "no-such-tenant"),
    ];
    const shapes = [];
    for (const attempt of attempts) shapes.push(errorShape(await refusal(attempt())));
    for (const shape of shapes) expect(shape).toEqual(shapes[0]);
    expect(shapes[0]!.error.code).toBe("UNAUTHENTICATED");
  });

  it("makes the membership's role and agents the Caller of a password sign-in", async () => {
    await runtime.identity.addUser(ADMIN, "alice", PASSWORD);
    await runtime.identity.addMember(acmeAdmin(), {
      user: "alice",
      role: "operator",
      agents: ["tag:hr", "hr/onboarding"],
    });
    const caller = await runtime.identity.authenticatePassword("alice", PASSWORD, "acme");
    expect(caller).toEqual({
      tenant: "acme",
      actor: "user:alice",
      role: "operator",
      agents: ["tag:hr", "hr/onboarding"],
    });
    requireRole(caller, "operator", "set policy");
    expect(() => requireRole(caller, "admin", "manage members")).toThrow(/needs the admin role/);
    const changed = await runtime.identity.addMember(acmeAdmin(), { user: "alice", role: "viewer" });
    expect(changed.previous).toEqual({ role: "operator", agents: ["tag:hr", "hr/onboarding"] });
    expect(await runtime.identity.authenticatePassword("alice", PASSWORD, "acme")).toMatchObject({
      role: "viewer",
      agents: ["*"],
    });
  });

  it("makes a key's role and agents the Caller of a key sign-in", async () => {
    const made = await runtime.identity.createKey(acmeAdmin(), {
      name: "hr-bot",
      role: "approver",
      agents: ["tag:hr"],
    });
    expect(await runtime.identity.authenticateKey(made.key)).toEqual({
      tenant: "acme",
      actor: `key:${made.id}`,
      role: "approver",
      agents: ["tag:hr"],
    });
  });

  it("rate-limits failed sign-ins per source after N failures, the right password included", async () => {
    await runtime.identity.addUser(ADMIN, "alice", PASSWORD);
    await runtime.identity.addMember(acmeAdmin(), { user: "alice", role: "viewer" });
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const error = await refusal(
        runtime.identity.authenticatePassword(`guess${attempt}`, PASSWORD, "acme", { source: "10.0.0.9" }),
      );
      expect(error.code).toBe("UNAUTHENTICATED");
    }
    const limited = await refusal(
      runtime.identity.authenticatePassword("alice", PASSWORD, "acme", { source: "10.0.0.9" }),
    );
    expect(limited.code).toBe("TOO_MANY_REQUESTS");
    expect(limited.data).toMatchObject({ limit: "auth.source" });
    expect((limited.data as { retryAfter: number }).retryAfter).toBeGreaterThan(0);
    // Another source is not held back by this one's failures.
    expect(
      await runtime.identity.authenticatePassword("alice", PASSWORD, "acme", { source: "10.0.0.10" }),
    ).toMatchObject({
      actor: "user:alice",
    });
  });

  it("rate-limits failed sign-ins per user after N failures, from any source", async () => {
    await runtime.identity.addUser(ADMIN, "alice", PASSWORD);
    await runtime.identity.addUser(ADMIN, "bob", PASSWORD);
    await runtime.identity.addMember(acmeAdmin(), { user: "alice", role: "viewer" });
    await runtime.identity.addMember(acmeAdmin(), { user: "bob", role: "viewer" });
    for (let attempt = 0; attempt < 3; attempt += 1) {
      await refusal(
        runtime.identity.authenticatePassword("alice", "wrong password here", "acme", {
          source: `10.1.0.${attempt}`,
        }),
      );
    }
    const limited = await refusal(
      runtime.identity.authenticatePassword("alice", PASSWORD, "acme", { source: "10.1.0.99" }),
    );
    expect(limited.code).toBe("TOO_MANY_REQUESTS");
    expect(limited.data).toMatchObject({ limit: "auth.user" });
    expect(
      await runtime.identity.authenticatePassword("bob", PASSWORD, "acme", { source: "10.1.0.99" }),
    ).toMatchObject({
      actor: "user:bob",
    });
    const key = await runtime.identity.createKey(acmeAdmin(), { name: "ci", role: "runner" });
    const wrong = `${key.key.slice(0, -1)}${key.key.endsWith("A") ? "B" : "A"}`;
    for (let attempt = 0; attempt < 3; attempt += 1) await refusal(runtime.identity.authenticateKey(wrong));
    expect((await refusal(runtime.identity.authenticateKey(key.key))).code).toBe("TOO_MANY_REQUESTS");
  });

  it("records each change in the audit log, and never a secret", async () => {
    await runtime.identity.addUser(ADMIN, "alice", PASSWORD);
    await runtime.identity.addMember(acmeAdmin(), { user: "alice", role: "viewer" });
    await runtime.identity.addMember(acmeAdmin(), { user: "alice", role: "runner", agents: ["tag:hr"] });
    const key = await runtime.identity.createKey(acmeAdmin(), { name: "ci", role: "runner" });
    await runtime.identity.revokeKey(acmeAdmin(), key.id);
    await runtime.identity.removeMember(acmeAdmin(), "alice");
    await runtime.identity.removeUser(ADMIN, "alice");
    const acme = await runtime.audit.list(acmeAdmin());
    expect(acme.map((entry) => [entry.actor, entry.action, entry.target]).reverse()).toEqual([
      ["cli:root", "member.add", "user:alice"],
      ["cli:root", "member.update", "user:alice"],
      ["cli:root", "key.create", `key:${key.id}`],
      ["cli:root", "key.revoke", `key:${key.id}`],
      ["cli:root", "member.remove", "user:alice"],
    ]);
    const installation = await runtime.audit.list(ADMIN);
    expect(installation.map((entry) => entry.action).reverse()).toEqual([
      "tenant.create",
      "user.add",
      "user.remove",
    ]);
    expect(acme.every((entry) => entry.at > 0 && entry.role === "admin")).toBe(true);
    const rows = JSON.stringify(await runtime.store.db.selectFrom("audit_log").selectAll().execute());
    const secret = key.key.split("_").slice(2).join("_");
    expect(rows).not.toContain(PASSWORD);
    expect(rows).not.toContain(secret);
    const hash = (
      await runtime.store.db.selectFrom("api_keys").select("secret_hash").executeTakeFirstOrThrow()
    ).secret_hash;
    expect(rows).not.toContain(hash);
  });

  it("filters the audit log by action, actor and time", async () => {
    await runtime.identity.createKey(acmeAdmin(), { name: "one", role: "runner" });
    await runtime.identity.createKey(localAdmin("acme", "cli:other"), { name: "two", role: "runner" });
    await runtime.identity.addUser(ADMIN, "alice", PASSWORD);
    await runtime.identity.addMember(acmeAdmin(), { user: "alice", role: "viewer" });
    expect((await runtime.audit.list(acmeAdmin(), { action: "key" })).map((entry) => entry.action)).toEqual([
      "key.create",
      "key.create",
    ]);
    expect((await runtime.audit.list(acmeAdmin(), { action: "member.add" })).length).toBe(1);
    expect(
      (await runtime.audit.list(acmeAdmin(), { actor: "cli:other" })).map((entry) => entry.detail.name),
    ).toEqual(["two"]);
    expect(await runtime.audit.list(acmeAdmin(), { since: (await runtime.store.now()) + 60_000 })).toEqual(
      [],
    );
  });

  it("refuses identity changes to a caller without the admin role, before anything else", async () => {
    const runner: Caller = { tenant: "nowhere", actor: "key:x", role: "runner", agents: ["*"] };
    for (const attempt of [
      () => runtime.identity.createKey(runner, { name: "BAD NAME", role: "admin" }),
      () => runtime.identity.addMember(runner, { user: "nobody", role: "viewer" }),
      () => runtime.identity.listKeys(runner),
      () => runtime.identity.revokeKey(runner, "nothing"),
      () => runtime.identity.addUser(runner, "x", "short"),
      () => runtime.identity.createTenant(runner, "BAD"),
      () => runtime.audit.list(runner),
    ]) {
      expect((await refusal(attempt())).code).toBe("FORBIDDEN");
    }
    const error = await refusal(runtime.identity.addUser(acmeAdmin(), "bob", PASSWORD));
    expect(error.code).toBe("FORBIDDEN");
    expect(error.message).toContain("the admins of tenant default manage them");
  });

  it("lets only an admin of tenant default with every agent manage tenants and users: one limited to some agents is refused", async () => {
    const scoped: Caller = { tenant: "default", actor: "key:some", role: "admin", agents: ["tag:hr"] };
    for (const attempt of [
      () => runtime.identity.createTenant(scoped, "scoped-made"),
      () => runtime.identity.listTenants(scoped),
      () => runtime.identity.addUser(scoped, "scoped-user", PASSWORD),
      () => runtime.identity.listUsers(scoped),
      () => runtime.identity.removeUser(scoped, "nobody"),
    ]) {
      const error = await refusal(attempt());
      expect(error.code).toBe("FORBIDDEN");
      expect(error.message).toContain("only the admins of tenant default with every agent");
    }
    const all: Caller = { ...scoped, agents: ["*"] };
    expect((await runtime.identity.listTenants(all)).map((tenant) => tenant.name)).not.toContain(
      "scoped-made",
    );
  });

  it("refuses a key or membership reaching past the granting caller's own agents", async () => {
    const scoped: Caller = { tenant: "acme", actor: "user:hr-admin", role: "admin", agents: ["tag:hr"] };
    expect(
      await runtime.identity.createKey(scoped, { name: "hr", role: "runner", agents: ["tag:hr"] }),
    ).toBeDefined();
    const error = await refusal(runtime.identity.createKey(scoped, { name: "all", role: "runner" }));
    expect(error.code).toBe("FORBIDDEN");
    expect(error.message).toContain("may grant only the agents in its own scope (tag:hr)");
  });

  it("refuses a second tenant, user or live key of one name, and takes a revoked key's name again", async () => {
    expect((await refusal(runtime.identity.createTenant(ADMIN, "acme"))).code).toBe("ALREADY_EXISTS");
    await runtime.identity.addUser(ADMIN, "alice", PASSWORD);
    expect((await refusal(runtime.identity.addUser(ADMIN, "alice", PASSWORD))).code).toBe("ALREADY_EXISTS");
    const first = await runtime.identity.createKey(acmeAdmin(), { name: "ci", role: "runner" });
    expect(
      (await refusal(runtime.identity.createKey(acmeAdmin(), { name: "ci", role: "runner" }))).code,
    ).toBe("ALREADY_EXISTS");
    await runtime.identity.revokeKey(acmeAdmin(), first.id);
    expect((await runtime.identity.createKey(acmeAdmin(), { name: "ci", role: "runner" })).id).not.toBe(
      first.id,
    );
  });

  it("refuses a key of another tenant as one that does not exist", async () => {
    const made = await runtime.identity.createKey(acmeAdmin(), { name: "ci", role: "runner" });
    const error = await refusal(runtime.identity.revokeKey(ADMIN, made.id));
    expect(error.code).toBe("NOT_FOUND");
    expect(await runtime.identity.authenticateKey(made.key)).toMatchObject({ tenant: "acme" });
  });
});

describe.each(fixtures.filter((fixture) => fixture.persistent))("sign-in limits on $label", (fixture) => {
  it("counts failed sign-ins across processes sharing the store", async () => {
    const options = await fixture.fresh();
    const throttle = { perUser: 3 };
    const first = await Runtime.open({ ...options, defaultPlugins: [], throttle });
    const second = await Runtime.open({ ...options, defaultPlugins: [], throttle });
    try {
      await first.identity.addUser(ADMIN, "alice", PASSWORD);
      await first.identity.addMember(ADMIN, { user: "alice", role: "viewer" });
      await refusal(first.identity.authenticatePassword("alice", "wrong password here", "default"));
      await refusal(second.identity.authenticatePassword("alice", "wrong password here", "default"));
      await refusal(first.identity.authenticatePassword("alice", "wrong password here", "default"));
      const limited = await refusal(second.identity.authenticatePassword("alice", PASSWORD, "default"));
      expect(limited.code).toBe("TOO_MANY_REQUESTS");
    } finally {
      await first.close();
      await second.close();
    }
  });
});

describe("sign-in limits", () => {
  it("drops the counts of windows that ended, and limits an unknown user as it does a known one", async () => {
    const runtime = await Runtime.open({
      memory: true,
      defaultPlugins: [],
      throttle: { perUser: 2, windowMs: 60_000 },
    });
    try {
      for (let attempt = 0; attempt < 2; attempt += 1) {
        await refusal(runtime.identity.authenticatePassword("nobody", PASSWORD, "default"));
      }
      // Two failures reach the limit whether or not the user exists, so the limit tells nobody which do.
      expect((await refusal(runtime.identity.authenticatePassword("nobody", PASSWORD, "default"))).code).toBe(
        "TOO_MANY_REQUESTS",
      );
      await runtime.store.db.updateTable("auth_throttle").set({ window_start: 1 }).execute();
      await refusal(runtime.identity.authenticatePassword("someone-else", PASSWORD, "default"));
      const buckets = await runtime.store.db.selectFrom("auth_throttle").select("bucket").execute();
      expect(buckets).toEqual([{ bucket: "user:someone-else" }]);
    } finally {
      await runtime.close();
    }
  });
});
