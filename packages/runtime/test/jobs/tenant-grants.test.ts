// A tenant admin's grants of uses: at run time: another plugin's function, agent or skill is
// reached only when the calling plugin's uses: lists it and a tenant admin granted that. Install
// and update by an admin grant at once; a default plugin, or one whose grant was revoked, is
// refused with the command to run; the grant is read at each call, so a revoke stops a running
// job's next one. Plugins installed before grants were kept are granted by the migration.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Caller } from "../../src/callers/index.js";
import type { JobEvent } from "../../src/jobs/index.js";
import { Runtime } from "../../src/runtime.js";
import type { ChangeEvent } from "../../src/services/index.js";
import { MIGRATIONS, migrate } from "../../src/store/index.js";
import { disposeFixtures, engineFixtures } from "../store/engines.js";
import { ofKind } from "./helpers.js";

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/plugins/${name}`, import.meta.url));

let runtime: Runtime;
let home: string;
let tenants = 0;
const changes: ChangeEvent[] = [];
beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), "oz0-tenant-grants-"));
  runtime = await Runtime.open({
    home,
    memory: true,
    defaultPlugins: [],
    onChange: (change) => void changes.push(change),
  });
  return async () => {
    await runtime.close();
    await rm(home, { recursive: true, force: true });
  };
});

const admin = (tenant: string): Caller => ({ tenant, actor: "user:alice", role: "admin", agents: ["*"] });

/** A fresh tenant where admin alice installed github and grantee. */
async function tenant(): Promise<string> {
  tenants += 1;
  const name = `tenant-grants-${tenants}`;
  await runtime.services.plugins.install(admin(name), fixture("github"));
  await runtime.services.plugins.install(admin(name), fixture("grantee"));
  return name;
}

async function run(tenant: string, agent: string): Promise<{ id: string; events: JobEvent[] }> {
  const started = await runtime.jobs.start({ tenant, agent, input: "acme/site" });
  await runtime.jobs.run(started.id, { tenant });
  return { id: started.id, events: await runtime.jobs.events(started.id, { tenant }) };
}

const GRANTED = ["github/oz0_github.get_file", "github/oz0-github", "github/review-guide"];

const notGranted = (address: string, act: string) =>
  `grantee's uses: lists ${address}, but a tenant admin has not granted that, so grantee's parts may not ${act} it: ` +
  "tenant TENANT has no grant for grantee (it came with the default plugins, or its grant was revoked). " +
  "An admin grants what grantee's uses: asks with: oz0 plugin grant grantee";

describe("a tenant admin's grants of uses:", () => {
  it("an install by an admin grants what its uses: asks at once, in the admin's name, and says so", async () => {
    const name = `tenant-grants-install`;
    await runtime.services.plugins.install(admin(name), fixture("github"));
    const report = await runtime.services.plugins.install(admin(name), fixture("grantee"));
    expect(report.granted).toEqual(GRANTED);
    const detail = await runtime.services.plugins.inspect(admin(name), "grantee");
    expect(detail.grant).toMatchObject({ version: "1.0.0", by: "user:alice", uses: GRANTED });
    expect(detail.ungranted).toEqual([]);
    const { events } = await run(name, "grantee/twice");
    expect(ofKind(events, "tool_result")[0]?.data).toMatchObject({
      ok: true,
      result: { function: "get_file" },
    });
  });

  it("refuses a call of another plugin's function the tenant has not granted, naming oz0 plugin grant", async () => {
    const name = await tenant();
    const revoked = await runtime.services.plugins.revoke(admin(name), "grantee");
    expect(revoked).toEqual({
      action: "revoke",
      tenant: name,
      plugin: "grantee",
      version: "1.0.0",
      uses: GRANTED,
      by: "user:alice",
    });
    const refusal = notGranted("github/oz0_github.get_file", "call").replace("TENANT", name);
    const { events } = await run(name, "grantee/twice");
    expect(ofKind(events, "function_left_out").map((entry) => entry.data)).toEqual([
      { name: "oz0_github__get_file", address: "github/oz0_github.get_file", reason: refusal },
    ]);
    expect(ofKind(events, "tool_result")[0]?.data).toEqual({
      callId: "1.1",
      ok: false,
      error: { code: "NOT_GRANTED", message: refusal },
      ms: 0,
    });
    expect((await runtime.services.plugins.inspect(admin(name), "grantee")).ungranted).toEqual(GRANTED);
    // Granted again, the same call runs.
    expect(await runtime.services.plugins.grant(admin(name), "grantee")).toMatchObject({
      action: "grant",
      version: "1.0.0",
      uses: GRANTED,
    });
    const again = await run(name, "grantee/twice");
    expect(ofKind(again.events, "tool_result")[0]?.data).toMatchObject({ ok: true });
  });

  it("a revoked grant stops a running job's next call", async () => {
    const name = await tenant();
    const { id, events } = await run(name, "grantee/twice");
    expect(ofKind(events, "tool_result")[0]?.data).toMatchObject({
      ok: true,
      result: { function: "get_file" },
    });
    expect((await runtime.jobs.get(id, name)).status).toBe("waiting");
    await runtime.services.plugins.revoke(admin(name), "grantee");
    await runtime.jobs.answer(id, "yes", "user:bob", { tenant: name });
    await runtime.jobs.run(id, { tenant: name });
    const after = ofKind(await runtime.jobs.events(id, { tenant: name }), "tool_result").map(
      (entry) => entry.data,
    );
    expect(after.at(-1)).toMatchObject({
      ok: false,
      error: {
        code: "NOT_GRANTED",
        message: notGranted("github/oz0_github.get_file", "call").replace("TENANT", name),
      },
    });
  });

  it("a revoked grant stops a running job's next read of another plugin's skill", async () => {
    const name = await tenant();
    const { id, events } = await run(name, "grantee/rereader");
    expect(ofKind(events, "tool_result")[0]?.data).toMatchObject({ ok: true });
    await runtime.services.plugins.revoke(admin(name), "grantee");
    await runtime.jobs.answer(id, "yes", "user:bob", { tenant: name });
    await runtime.jobs.run(id, { tenant: name });
    const results = ofKind(await runtime.jobs.events(id, { tenant: name }), "tool_result").map(
      (entry) => entry.data,
    );
    expect(results.at(-1)).toMatchObject({
      ok: false,
      error: {
        code: "NOT_GRANTED",
        message: notGranted("github/review-guide", "load skill").replace("TENANT", name),
      },
    });
  });

  it("a plugin whose uses: is granted for one function calls another of that tool: refused", async () => {
    const name = await tenant();
    const { events } = await run(name, "grantee/overreach");
    const result = ofKind(events, "tool_result")[0]?.data;
    expect(result).toMatchObject({ ok: false, error: { code: "NOT_GRANTED" } });
    expect(result?.ok === false && result.error?.message).toMatch(
      /^uses\.github\.tools of grantee does not list oz0_github\.list_pull_requests \(it lists oz0_github\.get_file\)/,
    );
  });

  it("refuses what a grant of an older uses: does not list, though the plugin's uses: lists it now", async () => {
    const name = await tenant();
    // A grant of a uses: that listed only github's agent, as a grant older than this version's.
    await runtime.catalog.store.db
      .updateTable("plugin_grants")
      .set({ uses: JSON.stringify({ github: { agents: ["oz0-github"] } }), version: "0.9.0" })
      .where("tenant", "=", name)
      .where("plugin", "=", "grantee")
      .execute();
    const { events } = await run(name, "grantee/twice");
    expect(ofKind(events, "tool_result")[0]?.data).toMatchObject({
      ok: false,
      error: {
        code: "NOT_GRANTED",
        message: expect.stringContaining(
          "the grant user:alice gave of grantee 0.9.0's uses: does not list it. An admin grants what grantee's uses: asks with: oz0 plugin grant grantee",
        ),
      },
    });
    expect((await runtime.services.plugins.inspect(admin(name), "grantee")).ungranted).toEqual([
      "github/oz0_github.get_file",
      "github/review-guide",
    ]);
  });

  it("refuses a lazily loading agent's oz.call_tool of another plugin's function the tenant has not granted", async () => {
    const name = "tenant-grants-lazy";
    await runtime.services.plugins.install(admin(name), fixture("github"));
    await runtime.services.plugins.install(admin(name), fixture("freeloader-granted"));
    await runtime.services.plugins.revoke(admin(name), "freeloader");
    const { events } = await run(name, "freeloader/finder");
    expect(ofKind(events, "tool_result")[0]?.data).toMatchObject({
      ok: false,
      error: { code: "NOT_GRANTED" },
    });
    const refused = ofKind(events, "tool_result")[0]?.data;
    expect(refused?.ok === false && refused.error?.message).toContain("oz0 plugin grant freeloader");
  });

  it("refuses a delegation to another plugin's agent the tenant has not granted", async () => {
    const name = await tenant();
    await runtime.services.plugins.revoke(admin(name), "grantee");
    const { events } = await run(name, "grantee/handoff");
    expect(ofKind(events, "child_job_started")).toEqual([]);
    expect(ofKind(events, "tool_result")[0]?.data).toMatchObject({
      ok: false,
      error: {
        code: "NOT_GRANTED",
        message: notGranted("github/oz0-github", "delegate to").replace("TENANT", name),
      },
    });
  });

  it("loads another plugin's skill only when the tenant granted it", async () => {
    const name = await tenant();
    const granted = await run(name, "grantee/reader");
    expect(ofKind(granted.events, "context_assembled")[0]?.data.system).toContain("- github/review-guide:");
    expect(ofKind(granted.events, "tool_result")[0]?.data).toMatchObject({ ok: true });
    await runtime.services.plugins.revoke(admin(name), "grantee");
    const refused = await run(name, "grantee/reader");
    expect(ofKind(refused.events, "context_assembled")[0]?.data.system ?? "").not.toContain("review-guide");
    const left = ofKind(refused.events, "context_part_contributed").filter(
      (entry) => entry.data.section_id === "github/review-guide",
    );
    expect(left.map((entry) => entry.data.eviction_reason)).toEqual([
      notGranted("github/review-guide", "load skill").replace("TENANT", name),
    ]);
    expect(ofKind(refused.events, "tool_result")[0]?.data).toMatchObject({ ok: false });
  });

  it("fails a flow's step that calls another plugin's function the tenant has not granted", async () => {
    const name = await tenant();
    await runtime.services.plugins.revoke(admin(name), "grantee");
    const started = await runtime.jobs.start({ tenant: name, agent: "grantee/fetch", input: "acme/site" });
    const done = await runtime.jobs.run(started.id, { tenant: name });
    expect(done.status).toBe("failed");
    expect(done.failure?.message).toContain(
      `NOT_GRANTED: ${notGranted("github/oz0_github.get_file", "call").replace("TENANT", name)}`,
    );
  });

  it("an update by an admin grants what the version's uses: asks, a revoked grant included", async () => {
    const name = await tenant();
    await runtime.services.plugins.revoke(admin(name), "grantee");
    const report = await runtime.services.plugins.update(
      { ...admin(name), actor: "user:carol" },
      fixture("grantee"),
    );
    expect(report.granted).toEqual(GRANTED);
    expect((await runtime.services.plugins.inspect(admin(name), "grantee")).grant).toMatchObject({
      by: "user:carol",
    });
  });

  it("grants and revokes only for an admin, each recorded as a change", async () => {
    const name = await tenant();
    const operator: Caller = { tenant: name, actor: "key:ops", role: "operator", agents: ["*"] };
    await expect(runtime.services.plugins.revoke(operator, "grantee")).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await expect(runtime.services.plugins.grant(operator, "grantee")).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await runtime.services.plugins.revoke(admin(name), "grantee");
    await runtime.services.plugins.grant(admin(name), "grantee");
    expect(
      changes
        .filter(
          (change) =>
            change.tenant === name && change.action.startsWith("plugins.") && change.target === "grantee",
        )
        .map((change) => [change.action, change.actor, change.outcome]),
    ).toEqual([
      ["plugins.revoke", "user:alice", "ok"],
      ["plugins.grant", "user:alice", "ok"],
    ]);
    await expect(runtime.services.plugins.grant(admin(name), "nothing")).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });

  it("removes a plugin's grant with the plugin", async () => {
    const name = await tenant();
    expect((await runtime.services.plugins.remove(admin(name), "grantee")).granted).toBeNull();
    const rows = await runtime.catalog.store.db
      .selectFrom("plugin_grants")
      .selectAll()
      .where("tenant", "=", name)
      .where("plugin", "=", "grantee")
      .execute();
    expect(rows).toEqual([]);
  });
});

describe("default plugins and grants", () => {
  it("a default plugin is not granted until an admin runs oz0 plugin grant", async () => {
    const dir = await mkdtemp(join(tmpdir(), "oz0-tenant-grants-defaults-"));
    const opened = await Runtime.open({
      home: dir,
      memory: true,
      defaultPlugins: [fixture("github"), fixture("grantee")],
    });
    try {
      const detail = await opened.services.plugins.inspect(admin("default"), "grantee");
      expect(detail.grant).toBeNull();
      expect(detail.ungranted).toEqual(GRANTED);
      const started = await opened.jobs.start({ tenant: "default", agent: "grantee/twice", input: "x" });
      await opened.jobs.run(started.id, { tenant: "default" });
      const events = await opened.jobs.events(started.id, { tenant: "default" });
      expect(ofKind(events, "tool_result")[0]?.data).toMatchObject({
        ok: false,
        error: {
          code: "NOT_GRANTED",
          message: notGranted("github/oz0_github.get_file", "call").replace("TENANT", "default"),
        },
      });
      await opened.services.plugins.grant(admin("default"), "grantee");
      expect((await opened.services.plugins.inspect(admin("default"), "grantee")).ungranted).toEqual([]);
    } finally {
      await opened.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

const engines = engineFixtures().filter((engine) => engine.label !== "memory");
afterAll(() => disposeFixtures(engines));

describe.each(engines)("migration 14 on $label", (engine) => {
  it("grants every plugin installed before it what its uses: asked, recorded as granted by the migration", async () => {
    const dir = await mkdtemp(join(tmpdir(), "oz0-tenant-grants-migration-"));
    const opened = await Runtime.open({ ...(await engine.fresh()), home: dir, defaultPlugins: [] });
    try {
      await opened.catalog.install("old", fixture("github"));
      await opened.catalog.install("old", fixture("grantee"));
      const { store } = opened.catalog;
      // The store as it was at migration 13: no grants table.
      await store.db.schema.dropTable("plugin_grants").execute();
      await store.db.deleteFrom("oz0_migrations").where("version", "=", 14).execute();
      expect(await migrate(store.db, store.engine, store.clockSql, MIGRATIONS)).toMatchObject({
        applied: [14],
      });
      const grant = await opened.catalog.tenantGrant("old", "grantee");
      expect(grant).toMatchObject({
        version: "1.0.0",
        grantedBy: "migration 14",
        uses: {
          github: {
            version: ">=1.1 <2",
            tools: ["oz0_github.get_file"],
            agents: ["oz0-github"],
            skills: ["review-guide"],
          },
        },
      });
      expect(await opened.catalog.tenantGrant("old", "github")).toMatchObject({ uses: {} });
      const started = await opened.jobs.start({ tenant: "old", agent: "grantee/twice", input: "x" });
      await opened.jobs.run(started.id, { tenant: "old" });
      const events = await opened.jobs.events(started.id, { tenant: "old" });
      expect(ofKind(events, "tool_result")[0]?.data).toMatchObject({ ok: true });
    } finally {
      await opened.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
