// The runtime attaches the audit log to its services: every approver's, operator's and admin's
// change lands in it with who, what and when, a refused one too, and a runner's jobs do not.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localAdmin, type Role } from "../../src/callers/index.js";
import { Runtime } from "../../src/runtime.js";
import { SERVICE_ROLES, type ServiceAction } from "../../src/services/index.js";

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

// Identity's changes are recorded in their own transaction, under their own names
// (identity.test.ts); reads change nothing.
const CHANGES = (Object.entries(SERVICE_ROLES) as [ServiceAction, { role: Role; does: string }][]).filter(
  ([action, rule]) =>
    rule.role !== "viewer" &&
    rule.role !== "runner" &&
    !action.startsWith("identity.") &&
    !/^(read|list) /.test(rule.does),
);

/** The operations that take one request object rather than names: a request naming nothing. */
const REQUESTS: Partial<Record<ServiceAction, unknown>> = {
  "channels.send": { channel: "nothing/none", channelId: "C1", text: "hello" },
  "nodes.setPool": { plugin: "nothing", pool: "shared" },
};

describe("every approver's, operator's and admin's change", () => {
  for (const [action] of CHANGES) {
    it(`${action} lands in the audit log with who and what, though it was refused`, async () => {
      const [area, method] = action.split(".") as [string, string];
      const service = (
        runtime.services as unknown as Record<string, Record<string, (...args: unknown[]) => unknown>>
      )[area]!;
      const nothing = join(home, "nothing");
      const args = action in REQUESTS ? [REQUESTS[action]] : [nothing, nothing, nothing];
      await Promise.resolve()
        .then(() => service[method]!.call(service, admin, ...args))
        .then(
          async (result) => {
            if (typeof (result as { close?: unknown })?.close === "function")
              await (result as { close(): Promise<void> }).close();
          },
          () => {},
        );
      const entries = await runtime.audit.list(admin, { action });
      const entry = entries.find((each) => each.action === action);
      expect(entry).toMatchObject({ tenant: "default", actor: "cli:alice", role: "admin" });
      expect(entry?.at).toBeGreaterThan(0);
      expect(typeof entry?.target).toBe("string");
    });
  }
});
