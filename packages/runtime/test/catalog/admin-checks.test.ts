// Lint and install decide the same things of an admin spec: install refuses, in lint's words, a
// plugin whose config schema oz0 cannot check (OZ-S043) or whose defaults fail it (OZ-S044).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localAdmin } from "../../src/callers/index.js";
import { Runtime } from "../../src/runtime.js";

const lintFixture = (code: string, which: string) =>
  fileURLToPath(new URL(`../fixtures/lint/${code}/${which}`, import.meta.url));
const admin = localAdmin("default", "cli:alice");

let home: string;
let runtime: Runtime;
beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), "oz0-admin-checks-"));
  runtime = await Runtime.open({ home, memory: true, defaultPlugins: [] });
});
afterAll(async () => {
  await runtime.close();
  await rm(home, { recursive: true, force: true });
});

describe("install refuses what lint reports of an admin spec", () => {
  for (const code of ["OZ-S043", "OZ-S044"]) {
    it(`refuses the plugin lint reports ${code} of, and installs the one that passes`, async () => {
      await expect(
        runtime.services.plugins.install(admin, lintFixture(code.toLowerCase(), "triggers")),
      ).rejects.toMatchObject({ code: "INVALID_PLUGIN", message: expect.stringContaining(code) });
      await expect(
        runtime.services.plugins.install(admin, lintFixture(code.toLowerCase(), "passes")),
      ).resolves.toMatchObject({ action: "install" });
    });
  }
});
