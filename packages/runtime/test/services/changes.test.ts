// Every change goes through one wrapper that tells the runtime's change listener (where the
// audit log attaches) who did what to what, once it took effect or failed.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Caller, localAdmin } from "../../src/callers/index.js";
import { Runtime } from "../../src/runtime.js";
import type { ChangeEvent } from "../../src/services/index.js";

const SCOPED = join(import.meta.dirname, "../fixtures/services/scoped");

let home: string;
let runtime: Runtime;
let changes: ChangeEvent[] = [];
let failing = false;
const admin = localAdmin("default", "cli:alice");

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), "oz0-changes-"));
  runtime = await Runtime.open({
    home,
    memory: true,
    defaultPlugins: [],
    onChange: async (event) => {
      if (failing) throw new Error("the audit log is away");
      changes.push(event);
    },
  });
});
afterAll(async () => {
  await runtime.close();
  await rm(home, { recursive: true, force: true });
});

describe("the change listener", () => {
  it("is told of a change once it took effect: tenant, actor, role, operation and target", async () => {
    changes = [];
    await runtime.services.plugins.install(admin, SCOPED);
    const job = await runtime.services.jobs.start(admin, { agent: "scoped/deploy", input: "v2" });
    await runtime.services.jobs.cancel(admin, job.id);
    for (const change of changes) expect(change.caller).toBe(admin);
    expect(changes.map(({ at: _, caller: __, detail: ___, ...rest }) => rest)).toEqual([
      {
        tenant: "default",
        actor: "cli:alice",
        role: "admin",
        action: "plugins.install",
        target: SCOPED,
        outcome: "ok",
      },
      {
        tenant: "default",
        actor: "cli:alice",
        role: "admin",
        action: "jobs.start",
        target: "scoped/deploy",
        outcome: "ok",
      },
      {
        tenant: "default",
        actor: "cli:alice",
        role: "admin",
        action: "jobs.cancel",
        target: job.id,
        outcome: "ok",
      },
    ]);
  });

  it("is told of a change that failed, with the error's code", async () => {
    changes = [];
    await expect(runtime.services.policy.set(admin, "deny", "not a pattern")).rejects.toMatchObject({
      code: "INVALID_ADDRESS",
    });
    expect(changes).toMatchObject([
      {
        action: "policy.set",
        target: "not a pattern",
        outcome: "failed",
        error: "INVALID_ADDRESS",
        detail: { outcome: "failed", error: "INVALID_ADDRESS" },
      },
    ]);
  });

  it("is not told of reads, nor of a caller refused for its role", async () => {
    changes = [];
    const viewer: Caller = { ...admin, role: "viewer" };
    await runtime.services.plugins.list(admin);
    await runtime.services.jobs.search(admin);
    await expect(runtime.services.policy.set(viewer, "deny", "scoped/*")).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    expect(changes).toEqual([]);
  });

  it("tells a listener added with services.onChange until it is removed", async () => {
    const heard: string[] = [];
    const stop = runtime.services.onChange((event) => void heard.push(event.action));
    await runtime.services.policy.set(admin, "ask", "scoped/*");
    stop();
    await runtime.services.policy.remove(admin, "scoped/*");
    expect(heard).toEqual(["policy.set"]);
  });

  it("answers a failed change with its own error even when the listener fails too", async () => {
    failing = true;
    try {
      await expect(runtime.services.policy.set(admin, "deny", "not a pattern")).rejects.toMatchObject({
        code: "INVALID_ADDRESS",
      });
    } finally {
      failing = false;
    }
  });

  it("fails the operation's answer when it throws, rather than let the change go unrecorded", async () => {
    failing = true;
    try {
      await expect(runtime.services.policy.set(admin, "deny", "scoped/*")).rejects.toThrow(
        "the audit log is away",
      );
    } finally {
      failing = false;
    }
  });
});
