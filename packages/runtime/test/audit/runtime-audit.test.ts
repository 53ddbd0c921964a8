// The runtime attaches the audit log to its services: every approver's, operator's and admin's
// change lands in it with who, what and when, a refused one too, and a runner's jobs do not.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localAdmin } from "../../src/callers/index.js";
import { Runtime } from "../../src/runtime.js";

const SCOPED = join(import.meta.dirname, "../fixtures/services/scoped");

let home: string;
let runtime: Runtime;
const admin = localAdmin("default", "cli:alice");

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), "oz0-runtime-audit-"));
  runtime = await Runtime.open({ home, memory: true, defaultPlugins: [] });
});
afterAll(async () => {
  await runtime.close();
  await rm(home, { recursive: true, force: true });
});

describe("the runtime's audit log", () => {
  it("records every operator's and admin's change made through the services, and no runner's job", async () => {
    await runtime.services.plugins.install(admin, SCOPED);
    await runtime.services.policy.set(admin, "deny", "scoped/*");
    await runtime.services.jobs.start({ ...admin, role: "runner" }, { agent: "scoped/deploy", input: "v2" });
    const entries = await runtime.audit.list(admin);
    const actions = entries.map((entry) => entry.action);
    expect(actions).toContain("plugins.install");
    expect(actions).toContain("policy.set");
    expect(actions).not.toContain("jobs.start");
    const policy = entries.find((entry) => entry.action === "policy.set");
    expect(policy).toMatchObject({
      tenant: "default",
      actor: "cli:alice",
      role: "admin",
      target: "scoped/*",
    });
    expect(policy?.detail).toMatchObject({ outcome: "ok" });
  });

  it("records a change that was tried and refused, with the refusal's code", async () => {
    await expect(runtime.services.policy.set(admin, "deny", "not a pattern")).rejects.toThrow();
    const refused = (await runtime.audit.list(admin)).find(
      (entry) => entry.action === "policy.set" && entry.target === "not a pattern",
    );
    expect(refused?.detail).toMatchObject({ outcome: "failed", error: "INVALID_ADDRESS" });
  });
});
