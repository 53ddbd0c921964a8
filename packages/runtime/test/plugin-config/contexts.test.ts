// The operator's config reaches every context that takes one: a tool's, a provider's, a memory
// provider's, a hook's and a runtime's build(ctx) get the config the plugin runs with in the
// tenant (its defaults overlaid by what an operator set), not its defaults alone. The system
// prompt's is in jobs/enablement.test.ts.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localAdmin } from "../../src/callers/index.js";
import { storeHookSource } from "../../src/hooks/index.js";
import { Runtime } from "../../src/runtime.js";

const CONDUIT = fileURLToPath(new URL("../fixtures/plugins/conduit", import.meta.url));
const TENANT = "default";
const admin = localAdmin(TENANT, "cli:alice");
const OPERATOR = { level: "high", extra: "set by the operator" };

const seen = (kind: string): unknown =>
  (globalThis as { __conduitSeen?: Record<string, unknown> }).__conduitSeen?.[kind];

let home: string;
let runtime: Runtime;
beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), "oz0-config-contexts-"));
  runtime = await Runtime.open({ home, memory: true, defaultPlugins: [] });
  await runtime.services.plugins.install(admin, CONDUIT);
  await runtime.services.pluginConfig.set(admin, "conduit", OPERATOR);
});
afterAll(async () => {
  await runtime.close();
  await rm(home, { recursive: true, force: true });
});

describe("the operator's config reaches every context that takes one", () => {
  it("ToolContext.config", async () => {
    const report = await runtime.services.tools.call(admin, "conduit/probe.config", {});
    expect(report).toMatchObject({ ok: true, result: OPERATOR });
    expect(seen("tool")).toEqual(OPERATOR);
  });

  it("ProviderContext.config", async () => {
    const [provider] = await runtime.models.pluginProviders(TENANT);
    expect(provider?.config).toEqual(OPERATOR);
  });

  it("MemoryContext.config, and a changed config builds the provider again", async () => {
    await runtime.catalog.memory(TENANT, "conduit");
    expect(seen("memory")).toEqual(OPERATOR);
    await runtime.services.pluginConfig.set(admin, "conduit", { level: "medium" });
    await runtime.catalog.memory(TENANT, "conduit");
    expect(seen("memory")).toEqual({ level: "medium" });
    await runtime.services.pluginConfig.set(admin, "conduit", OPERATOR);
  });

  it("a memory provider its plugin disabled is not built: it is as if it were not registered", async () => {
    const loaded = await runtime.catalog.loadInstalled(TENANT, "conduit");
    const notes = loaded.code!.registration("memory", "notes")!;
    notes.disable();
    try {
      await expect(runtime.catalog.memory(TENANT, "conduit")).rejects.toMatchObject({ code: "NOT_FOUND" });
    } finally {
      notes.enable();
    }
  });

  it("HookContext.config", async () => {
    await storeHookSource(runtime.store, runtime.catalog).table(TENANT);
    expect(seen("hook")).toEqual(OPERATOR);
  });

  it("RuntimeContext.config", async () => {
    const host = runtime.pluginRuntimes.host({ node: "node-config" });
    try {
      await host.pass();
      await host.settled();
      expect(seen("runtime")).toEqual(OPERATOR);
    } finally {
      await host.stop();
    }
  });
});

describe("a disabled admin registration", () => {
  it("gives the plugin's config none of its defaults, and takes no config", async () => {
    const loaded = await runtime.catalog.loadInstalled(TENANT, "conduit");
    const [registration] = loaded.code!.registrations("admin");
    await runtime.services.pluginConfig.unset(admin, "conduit");
    try {
      expect(await runtime.catalog.configs.effective(TENANT, "conduit", loaded)).toEqual({ level: "low" });
      registration!.disable();
      expect(await runtime.catalog.configs.effective(TENANT, "conduit", loaded)).toEqual({});
      await expect(runtime.services.pluginConfig.set(admin, "conduit", OPERATOR)).rejects.toMatchObject({
        message: expect.stringContaining("registers no admin spec"),
      });
    } finally {
      registration!.enable();
      await runtime.services.pluginConfig.set(admin, "conduit", OPERATOR);
    }
  });
});
