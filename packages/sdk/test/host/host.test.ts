import { describe, expect, test } from "vitest";
import { isOz0Error } from "../../src/errors/index.js";
import {
  assertPluginObject,
  capabilityMismatch,
  capabilityWords,
  createRecordingHost,
  definePlugin,
  type PluginObject,
  REGISTRATION_KINDS,
} from "../../src/host/index.js";
import { CAPABILITY_KINDS as MANIFEST_CAPABILITIES } from "../../src/manifest/index.js";
import { callFunction, loadPluginForTest } from "../../src/testing/index.js";

describe("a plugin object", () => {
  test("in plain JavaScript, importing nothing, registers a tool the host can call", async () => {
    const { default: plain } = (await import(
      new URL("./fixtures/plain-plugin.mjs", import.meta.url).href
    )) as {
      default: unknown;
    };
    const host = await loadPluginForTest(plain, { pluginId: "support-triage" });
    expect(host.kinds()).toEqual(["tool"]);
    const [tool] = host.registrations("tool");
    expect(tool?.name).toBe("tickets");
    expect(tool?.spec.pluginId).toBe("support-triage");
    expect(await callFunction(host, "tickets.lookup", { id: 7 })).toEqual({ id: 7, queue: "billing" });
  });

  test("definePlugin returns its argument unchanged and only adds types", () => {
    const object: PluginObject = { setup() {} };
    expect(definePlugin(object)).toBe(object);
  });

  test("may set up asynchronously", async () => {
    const host = await loadPluginForTest(
      definePlugin({
        async setup(host) {
          await Promise.resolve();
          host.addRuntime({ name: "poller", build: () => ({ start() {}, stop() {} }) });
        },
      }),
    );
    expect(host.kinds()).toEqual(["runtime"]);
  });

  test("is refused when the code entry exports something without setup", () => {
    for (const exported of [undefined, null, 42, { start() {} }]) {
      try {
        assertPluginObject(exported, "support-triage");
        expect.unreachable();
      } catch (error) {
        expect(isOz0Error(error, "INVALID_PLUGIN")).toBe(true);
        expect((error as Error).message).toContain("export default { setup(host)");
      }
    }
  });
});

describe("capability kinds", () => {
  test("name every host registration method's kind once", () => {
    expect(new Set(REGISTRATION_KINDS).size).toBe(14);
    const host = createRecordingHost("p");
    const methods = Object.keys(host).filter((key) => key.startsWith("add") && key !== "addContract");
    expect(methods).toHaveLength(REGISTRATION_KINDS.length);
  });

  test("are all words a manifest's capabilities: may list", () => {
    for (const kind of REGISTRATION_KINDS) expect(MANIFEST_CAPABILITIES).toContain(kind);
  });

  test("compare a manifest's declared capabilities with what the code registered", () => {
    const host = createRecordingHost("p");
    host.addTool({ name: "tickets", description: "d", build: () => ({ functions: [] }) });
    host.addHook({ name: "audit", build: () => ({}) });
    expect(capabilityMismatch(["tool", "runtime"], host.registrations())).toEqual({
      undeclared: ["hook"],
      unregistered: ["runtime"],
    });
    expect(capabilityMismatch(["tool", "hook"], host.registrations())).toEqual({
      undeclared: [],
      unregistered: [],
    });
  });

  test("let a manifest list config and status for the two sides of admin specs", () => {
    const host = createRecordingHost("p");
    host.addAdmin({ defaultConfig: { url: "" } });
    host.addAdmin({ status: () => ({ state: "ok" }) });
    expect(host.registrations().map(capabilityWords)).toEqual([
      ["admin", "config"],
      ["admin", "status"],
    ]);
    expect(capabilityMismatch(["config", "status"], host.registrations())).toEqual({
      undeclared: [],
      unregistered: [],
    });
    expect(capabilityMismatch(["admin"], host.registrations())).toEqual({ undeclared: [], unregistered: [] });
    expect(capabilityMismatch([], host.registrations())).toEqual({
      undeclared: ["config", "status"],
      unregistered: [],
    });
    expect(capabilityMismatch(["config", "runtime"], host.registrations())).toEqual({
      undeclared: ["status"],
      unregistered: ["runtime"],
    });
  });
});
