// The runtime host every `oz0 serve` worker and `oz0 node` runs: the desired state is the plugins
// installed in each tenant and their config, and each runtime runs in one live host cluster-wide,
// held by its lease row. Passes are called by hand, so nothing waits on a timer.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Caller, localAdmin } from "../../src/callers/index.js";
import type { PluginRuntimeHost } from "../../src/plugin-runtimes/index.js";
import { Runtime } from "../../src/runtime.js";
import { disposeFixtures, engineFixtures, POSTGRES_ADMIN_URL } from "../store/engines.js";

const BEACON = fileURLToPath(new URL("../fixtures/plugin-runtimes/beacon", import.meta.url));
const TENANT = "default";
const admin = localAdmin(TENANT, "cli:alice");

interface LogEntry {
  readonly event: "start" | "stop";
  readonly greeting: string;
  readonly mode: string;
}

const log = (): LogEntry[] => {
  const holder = globalThis as { __beaconLog?: LogEntry[] };
  holder.__beaconLog ??= [];
  return holder.__beaconLog;
};

const homes: string[] = [];
async function home(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "oz0-plugin-runtimes-"));
  homes.push(dir);
  return dir;
}

afterAll(async () => {
  await Promise.all(homes.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe("RuntimeSpec on one node: reconciled from the plugin installed and its config", () => {
  let runtime: Runtime;
  let host: PluginRuntimeHost;

  beforeEach(async () => {
    log().length = 0;
    runtime = await Runtime.open({ home: await home(), memory: true, defaultPlugins: [] });
    await runtime.services.plugins.install(admin, BEACON);
    host = runtime.pluginRuntimes.host({ node: "node-a", restart: { baseMs: 3_600_000 } });
  });

  afterEach(async () => {
    await host?.stop();
    await runtime?.close();
  });

  it("opening a runtime and installing a plugin starts no runtime: only a host does (oz0 serve, oz0 node)", async () => {
    expect(log()).toEqual([]);
    const [status] = await runtime.services.plugins.status(admin, "beacon");
    expect(status?.runtimes).toEqual([
      {
        plugin: "beacon",
        runtime: "pulse",
        state: "stopped",
        restarts: 0,
        lastError: null,
        since: null,
        node: null,
      },
    ]);
  });

  it("a host's pass starts the plugin's runtime with the operator's config, and its status says running", async () => {
    await runtime.services.pluginConfig.set(admin, "beacon", { greeting: "bonjour" });
    await host.pass();
    await host.settled();
    expect(log()).toEqual([{ event: "start", greeting: "bonjour", mode: "ok" }]);
    const [status] = await runtime.services.plugins.status(admin, "beacon");
    expect(status?.runtimes).toEqual([
      expect.objectContaining({
        runtime: "pulse",
        state: "running",
        restarts: 0,
        lastError: null,
        node: "node-a",
      }),
    ]);
    expect(typeof status?.runtimes[0]?.since).toBe("number");
  });

  it("a changed config replaces the runtime: the old one stopped, then a new one started on the new config", async () => {
    await host.pass();
    await host.settled();
    await runtime.services.pluginConfig.set(admin, "beacon", { greeting: "hola" });
    await host.pass();
    await host.settled();
    expect(log()).toEqual([
      { event: "start", greeting: "hello", mode: "ok" },
      { event: "stop", greeting: "hello", mode: "ok" },
      { event: "start", greeting: "hola", mode: "ok" },
    ]);
    // The same config again changes nothing.
    await host.pass();
    await host.settled();
    expect(log()).toHaveLength(3);
  });

  it("removing the plugin stops its runtime and drops its status row", async () => {
    await host.pass();
    await host.settled();
    await runtime.services.plugins.remove(admin, "beacon");
    await host.pass();
    await host.settled();
    expect(log().map((entry) => entry.event)).toEqual(["start", "stop"]);
    expect(await runtime.store.db.selectFrom("plugin_runtimes").selectAll().execute()).toEqual([]);
  });

  it("a runtime that dies is restarting, with its restarts and last error in the status", async () => {
    await runtime.services.pluginConfig.set(admin, "beacon", { mode: "die" });
    await host.pass();
    await host.settled();
    const [status] = await runtime.services.plugins.status(admin, "beacon");
    expect(status?.runtimes[0]).toMatchObject({ state: "restarting", restarts: 1, lastError: "told to die" });
  });

  it("a disabled runtime registration is not started", async () => {
    const loaded = await runtime.catalog.loadInstalled(TENANT, "beacon");
    const registration = loaded.code?.registration("runtime", "pulse");
    registration?.disable();
    try {
      await host.pass();
      await host.settled();
      expect(log()).toEqual([]);
      expect((await runtime.services.plugins.status(admin, "beacon"))[0]?.runtimes).toEqual([]);
    } finally {
      registration?.enable();
    }
  });

  it("a source added with addSource (a channel's adapter) has its runtimes started, shown and stopped the same way", async () => {
    const events: string[] = [];
    const remove = runtime.pluginRuntimes.addSource(
      ({ plugin, config }) => [
        {
          name: "channel:inbox",
          build: () => ({
            start: () => {
              events.push(`start ${plugin} ${String(config.greeting)}`);
            },
            stop: () => {
              events.push(`stop ${plugin}`);
            },
          }),
        },
      ],
      ["config"],
    );
    try {
      await host.pass();
      await host.settled();
      await host.settled();
      expect(events).toEqual(["start beacon hello"]);
      const [status] = await runtime.services.plugins.status(admin, "beacon");
      expect(status?.runtimes.map((one) => [one.runtime, one.state])).toEqual([
        ["pulse", "running"],
        ["channel:inbox", "running"],
      ]);
    } finally {
      remove();
    }
    await host.pass();
    await host.settled();
    expect(events).toEqual(["start beacon hello", "stop beacon"]);
  });

  it("a stopped host gives its leases up, and its runtimes are stopped", async () => {
    await host.pass();
    await host.settled();
    await host.stop();
    expect(log().map((entry) => entry.event)).toEqual(["start", "stop"]);
    const [status] = await runtime.services.plugins.status(admin, "beacon");
    expect(status?.runtimes[0]).toMatchObject({ state: "stopped", node: null });
  });
});

describe("AdminSpec: DefaultConfig, Schema, Validate, Redact and Status", () => {
  let runtime: Runtime;
  beforeEach(async () => {
    runtime = await Runtime.open({ home: await home(), memory: true, defaultPlugins: [] });
    await runtime.services.plugins.install(admin, BEACON);
  });
  afterEach(async () => {
    await runtime.close();
  });

  it("AdminSpec.DefaultConfig: the plugin runs with its defaults until an operator sets anything", async () => {
    expect(await runtime.services.pluginConfig.show(admin, "beacon")).toMatchObject({
      set: false,
      config: { mode: "ok", greeting: "hello", token: "" },
    });
  });

  it("AdminSpec.Schema: the console's form is drawn from it, and a config it refuses is not stored", async () => {
    const view = await runtime.services.pluginConfig.show(admin, "beacon");
    expect(view.schema).toMatchObject({ properties: { mode: { enum: ["ok", "die", "fail"] } } });
    await expect(
      runtime.services.pluginConfig.set(admin, "beacon", { mode: "sideways" }),
    ).rejects.toMatchObject({
      code: "INVALID_INPUT",
      message: expect.stringContaining("mode"),
    });
    expect((await runtime.services.pluginConfig.show(admin, "beacon")).set).toBe(false);
  });

  it("AdminSpec.Validate: server-side validation names the field, and nothing is stored", async () => {
    await expect(runtime.services.pluginConfig.set(admin, "beacon", { greeting: "" })).rejects.toMatchObject({
      code: "INVALID_INPUT",
      message: expect.stringContaining("greeting: must not be empty"),
    });
    expect((await runtime.services.pluginConfig.show(admin, "beacon")).set).toBe(false);
  });

  it("AdminSpec.Redact: the config is shown masked, and a redacted value sent back keeps the secret", async () => {
    await runtime.services.pluginConfig.set(admin, "beacon", { token: "tok-7Yh3Bn5Vc2" });
    const shown = await runtime.services.pluginConfig.show(admin, "beacon");
    expect(shown.config).toMatchObject({ token: "***" });
    await runtime.services.pluginConfig.set(admin, "beacon", { ...shown.config, greeting: "hey" });
    expect(await runtime.catalog.configs.effective(TENANT, "beacon")).toMatchObject({
      greeting: "hey",
      token: "tok-7Yh3Bn5Vc2",
    });
  });

  it("AdminSpec.Status: status() is asked afresh with the config the plugin runs with, its secrets redacted on the way out", async () => {
    await runtime.services.pluginConfig.set(admin, "beacon", { greeting: "salut", token: "tok-9Hs2Kd7Lq4" });
    const [status] = await runtime.services.plugins.status(admin, "beacon");
    expect(status?.admin).toEqual([
      { name: "status", state: "ok", message: "greeting salut", details: { token: "[redacted]" } },
    ]);
    await runtime.services.pluginConfig.set(admin, "beacon", { mode: "fail" });
    const [again] = await runtime.services.plugins.status(admin, "beacon");
    expect(again?.admin).toEqual([{ name: "status", state: "degraded", message: "mode fail" }]);
  });

  it("a viewer may read status; every plugin's status when none is named", async () => {
    const viewer: Caller = { ...admin, role: "viewer" };
    const all = await runtime.services.plugins.status(viewer);
    expect(all.map((one) => one.plugin)).toEqual(["beacon"]);
  });

  it("the status of a plugin the tenant does not have is NOT_FOUND", async () => {
    await expect(runtime.services.plugins.status(admin, "nope")).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});

const postgres = engineFixtures().filter((fixture) => fixture.label === "postgres");

describe("RuntimeSpec in scale-out: one node runs each runtime, another takes it over when that node dies", () => {
  afterAll(async () => {
    await disposeFixtures(postgres);
  });

  it("two nodes on PostgreSQL: exactly one runs the runtime; when its lease lapses the other takes it over", async () => {
    expect(POSTGRES_ADMIN_URL).toMatch(/^postgres/);
    log().length = 0;
    const { databaseUrl } = (await postgres[0]!.fresh()) as { databaseUrl: string };
    const a = await Runtime.open({ home: await home(), databaseUrl, defaultPlugins: [] });
    const b = await Runtime.open({ home: await home(), databaseUrl, defaultPlugins: [] });
    const hostA = a.pluginRuntimes.host({ node: "node-a", leaseMs: 60_000 });
    const hostB = b.pluginRuntimes.host({ node: "node-b", leaseMs: 60_000 });
    try {
      await a.services.plugins.install(admin, BEACON);
      await Promise.all([hostA.pass(), hostB.pass()]);
      await Promise.all([hostA.settled(), hostB.settled()]);
      await Promise.all([hostA.pass(), hostB.pass()]);
      await Promise.all([hostA.settled(), hostB.settled()]);
      expect(log().filter((entry) => entry.event === "start")).toHaveLength(1);
      const rows = await a.store.db.selectFrom("plugin_runtimes").select(["node", "state"]).execute();
      expect(rows).toHaveLength(1);
      const holder = rows[0]!.node;
      expect(rows[0]!.state).toBe("running");
      const [dead, survivor, survivorName] =
        holder === "node-a" ? [hostA, hostB, "node-b"] : [hostB, hostA, "node-a"];
      expect(dead.running().size).toBe(1);
      expect(survivor.running().size).toBe(0);

      // The holder dies: it renews nothing more, and its lease runs out on the database's clock.
      await a.store.db.updateTable("plugin_runtimes").set({ lease_until: 0 }).execute();
      const [lapsed] = await b.services.plugins.status(admin, "beacon");
      expect(lapsed?.runtimes[0]).toMatchObject({ state: "stopped", node: null });
      await survivor.pass();
      await survivor.settled();
      expect(survivor.running().size).toBe(1);
      expect(log().filter((entry) => entry.event === "start")).toHaveLength(2);
      const [moved] = await b.services.plugins.status(admin, "beacon");
      expect(moved?.runtimes[0]).toMatchObject({ state: "running", node: survivorName });

      // The node that came back finds the lease taken and stops its copy.
      await dead.pass();
      await dead.settled();
      expect(dead.running().size).toBe(0);
      expect(log().filter((entry) => entry.event === "start")).toHaveLength(2);
    } finally {
      await hostA.stop();
      await hostB.stop();
      await a.close();
      await b.close();
    }
  });
});
