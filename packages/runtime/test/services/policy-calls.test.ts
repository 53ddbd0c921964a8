// Which recorded calls a tool policy pattern decides (`services.policy.calls`): the calls of the
// newest jobs the caller may see that the pattern covers, each with the rule deciding it now and
// the one that would with the pattern's rule set. Nothing is stored; a caller limited to some
// agents sees only their jobs' calls; a pattern `policy.set` would refuse is refused the same way.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Caller, localAdmin } from "../../src/callers/index.js";
import { Runtime } from "../../src/runtime.js";

const VAULT = join(import.meta.dirname, "../fixtures/policy/vault");
const admin = localAdmin("default", "cli:admin");
const twiceOnly: Caller = { tenant: "default", actor: "key:twice", role: "viewer", agents: ["vault/twice"] };

let home: string;
let runtime: Runtime;
let keeperJob: string;
let twiceJob: string;

async function ran(agent: string): Promise<string> {
  const { id } = await runtime.services.jobs.start(admin, { agent, input: "go" });
  const { view } = await runtime.services.jobs.run(admin, id);
  expect(view.status).toBe("succeeded");
  return id;
}

async function refusal(work: Promise<unknown>): Promise<unknown> {
  try {
    await work;
    return "no refusal";
  } catch (error) {
    const { code, message } = error as { code: string; message: string };
    return { code, message };
  }
}

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), "oz0-policy-calls-"));
  runtime = await Runtime.open({ home, memory: true, defaultPlugins: [] });
  await runtime.services.plugins.install(admin, VAULT);
  keeperJob = await ran("vault/keeper");
  twiceJob = await ran("vault/twice");
});
afterAll(async () => {
  await runtime.close();
  await rm(home, { recursive: true, force: true });
});

describe("the recorded calls a pattern decides", () => {
  it("lists each recorded call the pattern covers, newest first, with its agent, job, arguments and what a rule would decide", async () => {
    const preview = await runtime.services.policy.calls(admin, "deny", "vault/vault.*");
    expect(preview).toMatchObject({
      pattern: "vault/vault.*",
      action: "deny",
      looked: { jobs: 2, calls: 3 },
    });
    expect(preview.calls.map((call) => [call.agent, call.job])).toEqual([
      ["vault/twice", twiceJob],
      ["vault/twice", twiceJob],
      ["vault/keeper", keeperJob],
    ]);
    expect(preview.calls[2]).toEqual({
      job: keeperJob,
      callId: expect.any(String),
      agent: "vault/keeper",
      function: "vault/vault.write",
      args: '{"key":"door","value":"open"}',
      at: expect.any(Number),
      held: false,
      now: null,
      withRule: { action: "deny", rule: "vault/vault.*" },
    });
    expect(preview.calls[0]!.at).toBeGreaterThanOrEqual(preview.calls[2]!.at);
  });

  it("says a more specific rule still decides the calls it covers, and stores nothing", async () => {
    await runtime.services.policy.set(admin, "ask", "vault/vault.write");
    try {
      const preview = await runtime.services.policy.calls(admin, "deny", "vault/*");
      const decided = { action: "ask", rule: "vault/vault.write" };
      expect(preview.calls.map((call) => [call.now, call.withRule])).toEqual([
        [decided, decided],
        [decided, decided],
        [decided, decided],
      ]);
      expect((await runtime.services.policy.list(admin)).map((rule) => rule.pattern)).toEqual([
        "vault/vault.write",
      ]);
    } finally {
      await runtime.services.policy.remove(admin, "vault/vault.write");
    }
  });

  it("lists none when the pattern covers no recorded call", async () => {
    const preview = await runtime.services.policy.calls(admin, "ask", "vault/audit.*");
    expect(preview.calls).toEqual([]);
    expect(preview.looked).toEqual({ jobs: 2, calls: 3 });
  });

  it("shows a caller limited to some agents only the calls of their jobs", async () => {
    const preview = await runtime.services.policy.calls(twiceOnly, "deny", "vault/*");
    expect(preview.looked).toEqual({ jobs: 1, calls: 2 });
    expect(new Set(preview.calls.map((call) => call.job))).toEqual(new Set([twiceJob]));
    expect(JSON.stringify(preview)).not.toContain("keeper");
  });

  it("refuses a pattern exactly as setting it would", async () => {
    for (const pattern of ["vault/nosuch.*", "not a pattern", "elsewhere/*"]) {
      const previewed = await refusal(runtime.services.policy.calls(admin, "deny", pattern));
      expect(previewed).toEqual(await refusal(runtime.services.policy.set(admin, "deny", pattern)));
      expect(previewed).not.toBe("no refusal");
    }
  });

  it("lists a call held for approval once, as held until it is decided, then as the call it became", async () => {
    await runtime.services.policy.set(admin, "ask", "vault/vault.write");
    try {
      const { id } = await runtime.services.jobs.start(admin, { agent: "vault/keeper", input: "hold" });
      await runtime.services.jobs.run(admin, id);
      const heldCalls = async () =>
        (await runtime.services.policy.calls(admin, "deny", "vault/vault.write")).calls.filter(
          (call) => call.job === id,
        );
      expect((await heldCalls()).map((call) => call.held)).toEqual([true]);
      const [approval] = await runtime.services.approvals.list(admin, { job: id });
      await runtime.services.approvals.approve(admin, approval!.id);
      await runtime.services.jobs.run(admin, id);
      expect((await heldCalls()).map((call) => call.held)).toEqual([false]);
    } finally {
      await runtime.services.policy.remove(admin, "vault/vault.write");
    }
  });
});
