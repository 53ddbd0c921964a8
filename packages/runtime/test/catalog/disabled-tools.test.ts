// A tool its plugin's code disabled (its registration's disable()) is out of the catalog and
// refused by hand at once; enable() brings it back. A required tool stays whatever its registration says.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localAdmin } from "../../src/callers/index.js";
import { Runtime } from "../../src/runtime.js";

const SWITCHBOARD = fileURLToPath(new URL("../fixtures/jobs/switchboard", import.meta.url));
const admin = localAdmin("default", "cli:alice");

let home: string;
let runtime: Runtime;
beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), "oz0-disabled-tools-"));
  runtime = await Runtime.open({ home, memory: true, defaultPlugins: [] });
  await runtime.services.plugins.install(admin, SWITCHBOARD);
});
afterAll(async () => {
  await runtime.close();
  await rm(home, { recursive: true, force: true });
});

async function tools(): Promise<string[]> {
  return (await runtime.services.catalog.entries(admin))
    .filter((entry) => entry.kind === "tool" || entry.kind === "function")
    .map((entry) => entry.name)
    .sort();
}

describe("a tool registration's disable() in the catalog and by hand", () => {
  it("the disabled tool and its functions leave the catalog at once, and come back on enable()", async () => {
    expect(await tools()).toEqual(["core", "core.ping", "lamp", "lamp.on"]);
    const loaded = await runtime.catalog.loadInstalled("default", "switchboard");
    const lamp = loaded.code!.registration("tool", "lamp")!;
    lamp.disable();
    try {
      expect(await tools()).toEqual(["core", "core.ping"]);
      const report = await runtime.services.tools.call(admin, "switchboard/lamp.on", {});
      expect(report).toMatchObject({ ok: false, error: { code: "NOT_FOUND" } });
      expect(JSON.stringify(report)).toContain("tool lamp of switchboard is disabled by its plugin");
    } finally {
      lamp.enable();
    }
    expect(await tools()).toEqual(["core", "core.ping", "lamp", "lamp.on"]);
  });

  it("a required tool stays in the catalog and answers when its registration is disabled", async () => {
    const loaded = await runtime.catalog.loadInstalled("default", "switchboard");
    const core = loaded.code!.registration("tool", "core")!;
    core.disable();
    try {
      expect(await tools()).toContain("core.ping");
      expect(await runtime.services.tools.call(admin, "switchboard/core.ping", {})).toMatchObject({
        ok: true,
      });
    } finally {
      core.enable();
    }
  });
});
