// Agents on harnesses (`runtime: harness:<name>`): an ACP agent written with the official SDK
// and a JSON-lines agent, each started as a child process by the harness its fixture plugin
// registers, run end to end governed by the job: a deny rule, an approval and a kill switch
// take effect inside the harness's loop, a run taken up after its worker stopped repeats no
// recorded call, and what the session did is in the job's history.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { JobEvent } from "../../src/jobs/index.js";
import { pluginConfigKey } from "../../src/plugin-config/index.js";
import { harnessWorkspace } from "../../src/runtimes/index.js";
import { ALICE, executionsOf, type Lab, lab } from "../policy/helpers.js";

const ACP_PLUGIN = fileURLToPath(new URL("../fixtures/runtimes/harness-acp", import.meta.url));
const JSONL_PLUGIN = fileURLToPath(new URL("../fixtures/runtimes/harness-jsonl", import.meta.url));
const AGENTS = fileURLToPath(new URL("../fixtures/harness-agents", import.meta.url));
/** The first-party governance plugin's folder, which runs its build (the tests' global setup makes it). */
const GOVERNANCE = fileURLToPath(new URL("../../../../plugins/governance", import.meta.url));

const launches = globalThis as {
  __oz0AcpHarness?: { command: string; args: string[] };
  __oz0JsonlHarness?: { command: string; args: string[] };
  __oz0HarnessToolHook?: ((fn: string, call: { jobId: string }) => Promise<void>) | undefined;
};
launches.__oz0AcpHarness = { command: process.execPath, args: [join(AGENTS, "acp-agent.mjs")] };
launches.__oz0JsonlHarness = { command: process.execPath, args: [join(AGENTS, "jsonl-agent.mjs")] };

function ofKind<K extends JobEvent["kind"]>(
  events: readonly JobEvent[],
  kind: K,
): Extract<JobEvent, { kind: K }>[] {
  return events.filter((entry): entry is Extract<JobEvent, { kind: K }> => entry.kind === kind);
}

/** No model of oz0's is asked anything on a harness: the harness has its own. */
const NO_MODEL = {
  id: "test:unused",
  async generate(): Promise<never> {
    throw new Error("a harness job asked oz0's model");
  },
};

let l: Lab;
beforeAll(async () => {
  l = await lab();
});
afterAll(async () => {
  await l.close();
});

/** A lab engine whose runs never ask oz0's model. */
function engine() {
  return l.engine(NO_MODEL);
}

async function approveNext(tenant: string): Promise<{ rule: string; address: string }> {
  const [approval] = await l.runtime.approvals.list(tenant);
  if (approval === undefined) throw new Error("no approval was asked for");
  await l.runtime.approvals.approve(tenant, approval.id, ALICE);
  return approval as unknown as { rule: string; address: string };
}

describe("an agent on an ACP harness", () => {
  it("names in each step the model the harness says it runs on, its config option of category model, as it changes", async () => {
    const tenant = await l.tenant(ACP_PLUGIN);
    const jobs = engine();
    const started = await jobs.start({ tenant, agent: "acp-lab/coder", input: "note bigger note" });
    expect(await jobs.run(started.id, { tenant })).toMatchObject({ status: "succeeded" });
    const events = await l.events(started.id);
    expect(ofKind(events, "model_call").map((entry) => [entry.data.runtime, entry.data.model])).toEqual([
      ["harness:mock", "mock-small"],
      ["harness:mock", "mock-large"],
      ["harness:mock", "mock-large"],
    ]);
    expect(
      ofKind(events, "harness_update").find((entry) => entry.data.update === "model")?.data.data,
    ).toEqual({
      model: "mock-large",
    });
  });

  it("the tenant's budget stops the harness at the step whose reported cost would take it past its ceiling", async () => {
    const tenant = await l.tenant(ACP_PLUGIN);
    await l.runtime.catalog.install(tenant, GOVERNANCE);
    await l.runtime.store.db
      .insertInto("settings")
      .values({
        tenant,
        key: pluginConfigKey("governance"),
        value: JSON.stringify({ budget: { tenant: { usd: 0.015 } } }),
        updated_at: Date.now(),
      })
      .execute();
    const jobs = engine();
    const started = await jobs.start({ tenant, agent: "acp-lab/coder", input: "note write" });
    const job = await jobs.run(started.id, { tenant });
    // Each step reports $0.01: the first fits, the second would pass $0.015, so its call never runs.
    expect(job.failure).toMatchObject({ kind: "budget_exceeded", code: "POLICY_VIOLATION" });
    expect(executionsOf(started.id).map((call) => call.fn)).toEqual(["audit.note"]);
    const events = await l.events(started.id);
    expect(ofKind(events, "model_call").map((entry) => entry.data.cost_usd)).toEqual([0.01]);
    expect(ofKind(events, "governance_denied")[0]?.data).toMatchObject({
      hook: "pre_llm_call",
      reason: "Cost ceiling exceeded",
      details: { scope: "tenant", ceiling: 0.015, used: 0.01, requested: 0.01 },
    });
  });

  it("sets harness.config on the session, and its steps name the model the setting chose", async () => {
    const tenant = await l.tenant(ACP_PLUGIN);
    const jobs = engine();
    const started = await jobs.start({ tenant, agent: "acp-lab/sizer", input: "note" });
    expect(await jobs.run(started.id, { tenant })).toMatchObject({ status: "succeeded" });
    const models = ofKind(await l.events(started.id), "model_call").map((entry) => entry.data.model);
    expect(models).toEqual(["mock-large", "mock-large"]);
  });

  it("runs end to end: its tools through the job, the session's updates in the history, its text as the answer", async () => {
    const tenant = await l.tenant(ACP_PLUGIN);
    const jobs = engine();
    const started = await jobs.start({ tenant, agent: "acp-lab/coder", input: "note write" });
    const streamed: string[] = [];
    const job = await jobs.run(started.id, { tenant, onText: (delta) => streamed.push(delta) });
    expect(job).toMatchObject({ status: "succeeded" });
    expect(job.output).toBe('note: ok {"noted":"opening"}\nwrite: ok {"written":"door"}');
    expect(executionsOf(started.id).map((call) => call.fn)).toEqual(["audit.note", "vault.write"]);
    // The harness's text reaches the job's live text as it streams.
    expect(streamed.join("")).toBe(job.output);
    const events = await l.events(started.id);
    expect(ofKind(events, "job_started")[0]?.data.runtime).toBe("harness:mock");
    expect(
      ofKind(events, "model_call").map((entry) => [
        entry.data.step,
        entry.data.runtime,
        entry.data.calls.map((call) => call.name),
        entry.data.cost_usd,
      ]),
    ).toEqual([
      [1, "harness:mock", ["audit__note"], 0.01],
      [2, "harness:mock", ["vault__write"], 0.01],
      // A harness that reports its cost spent nothing on a step it reported nothing for.
      [3, "harness:mock", [], 0],
    ]);
    // Each step names the model the harness says it runs on, and the claim before it the node.
    expect(new Set(ofKind(events, "model_call").map((entry) => entry.data.model))).toEqual(
      new Set(["mock-small"]),
    );
    const node = ofKind(events, "job_claimed")[0]?.data.node;
    expect(node).toMatch(/.+/);
    expect(ofKind(events, "model_call").every((entry) => entry.data.node === node)).toBe(true);
    const updates = ofKind(events, "harness_update");
    expect(updates.map((entry) => entry.data.update)).toEqual(["session", "plan"]);
    expect(updates[1]?.data.data).toEqual({
      entries: [
        { content: "note", status: "pending" },
        { content: "write", status: "pending" },
      ],
    });
  });

  it("a deny rule takes effect inside the harness: the call is refused and the harness told", async () => {
    const tenant = await l.tenant(ACP_PLUGIN);
    await l.runtime.policy.set(tenant, "deny", "acp-lab/audit.note");
    const jobs = engine();
    const started = await jobs.start({ tenant, agent: "acp-lab/coder", input: "note write" });
    const job = await jobs.run(started.id, { tenant });
    expect(job.output).toBe('note: error POLICY_VIOLATION\nwrite: ok {"written":"door"}');
    expect(executionsOf(started.id).map((call) => call.fn)).toEqual(["vault.write"]);
  });

  it("an approval takes effect inside the harness: the job waits for a person, and the restarted harness's recorded calls are not run again", async () => {
    const tenant = await l.tenant(ACP_PLUGIN);
    await l.runtime.policy.set(tenant, "ask", "acp-lab/vault.write");
    const jobs = engine();
    const started = await jobs.start({ tenant, agent: "acp-lab/coder", input: "note write" });
    const held = await jobs.run(started.id, { tenant });
    expect(held).toMatchObject({ status: "waiting", waitingFor: { kind: "approval", callId: "2.1" } });
    expect(executionsOf(started.id).map((call) => call.fn)).toEqual(["audit.note"]);
    await approveNext(tenant);
    const job = await jobs.run(started.id, { tenant });
    expect(job).toMatchObject({ status: "succeeded" });
    expect(executionsOf(started.id).map((call) => call.fn)).toEqual(["audit.note", "vault.write"]);
    const events = await l.events(started.id);
    expect(ofKind(events, "model_call").map((entry) => entry.data.step)).toEqual([1, 2, 3]);
  });

  it("requires_approval: the harness's permission request for an execute call waits for a person, and it is told allow_once", async () => {
    const tenant = await l.tenant(ACP_PLUGIN);
    const jobs = engine();
    const started = await jobs.start({ tenant, agent: "acp-lab/coder", input: "execute" });
    const held = await jobs.run(started.id, { tenant });
    expect(held).toMatchObject({ status: "waiting", waitingFor: { kind: "approval" } });
    const approval = await approveNext(tenant);
    expect(approval).toMatchObject({ address: "acp-lab/mock.execute", rule: "requires_approval: execute" });
    const job = await jobs.run(started.id, { tenant });
    expect(job).toMatchObject({ status: "succeeded", output: "execute: allowed" });
    const events = await l.events(started.id);
    expect(ofKind(events, "model_call")[0]?.data.calls[0]).toMatchObject({
      name: "mock__execute",
      args: { title: "run date", input: { command: "date" }, locations: [] },
    });
    // The harness's own tool call, reported once it was allowed.
    expect(ofKind(events, "harness_update").map((entry) => entry.data.update)).toContain("tool_call");
  });

  it("a deny rule on a harness tool kind refuses its permission request without asking anyone", async () => {
    const tenant = await l.tenant(ACP_PLUGIN);
    await l.runtime.policy.set(tenant, "deny", "acp-lab/mock.execute");
    const job = await l.run(tenant, "acp-lab/coder", "execute", engine());
    expect(job).toMatchObject({ status: "succeeded", output: "execute: refused" });
    expect(await l.runtime.approvals.list(tenant)).toEqual([]);
  });

  it("a kill switch takes effect inside the harness: the job ends at its next step", async () => {
    const tenant = await l.tenant(ACP_PLUGIN);
    launches.__oz0HarnessToolHook = async () => {
      await l.runtime.killSwitches.kill(tenant, "agent", "acp-lab/coder", ALICE);
    };
    try {
      const started = await engine().start({ tenant, agent: "acp-lab/coder", input: "note write" });
      const job = await engine().run(started.id, { tenant });
      expect(job).toMatchObject({ status: "failed", failure: { kind: "killed", code: "KILLED" } });
      expect(executionsOf(started.id).map((call) => call.fn)).toEqual(["audit.note"]);
    } finally {
      launches.__oz0HarnessToolHook = undefined;
    }
  });

  it("a kill switch on the harness's tools refuses its permission requests", async () => {
    const tenant = await l.tenant(ACP_PLUGIN);
    await l.runtime.killSwitches.kill(tenant, "tool", "acp-lab/mock", ALICE);
    const job = await l.run(tenant, "acp-lab/coder", "execute", engine());
    expect(job).toMatchObject({ status: "succeeded", output: "execute: refused" });
    expect(await l.runtime.approvals.list(tenant)).toEqual([]);
  });

  it("is taken up after its worker stopped mid-session without repeating a recorded tool call", async () => {
    const tenant = await l.tenant(ACP_PLUGIN);
    const jobs = engine();
    const started = await jobs.start({ tenant, agent: "acp-lab/coder", input: "note write" });
    const crash = new AbortController();
    const stopped = await jobs.run(started.id, {
      tenant,
      signal: crash.signal,
      // The worker goes away once the first call's result is recorded.
      onEvent: (entry) => {
        if (entry.kind === "tool_result") crash.abort();
      },
    });
    expect(stopped.status).toBe("queued");
    expect(executionsOf(started.id).map((call) => call.fn)).toEqual(["audit.note"]);
    const job = await jobs.run(started.id, { tenant });
    expect(job).toMatchObject({ status: "succeeded" });
    expect(job.output).toBe('note: ok {"noted":"opening"}\nwrite: ok {"written":"door"}');
    expect(executionsOf(started.id).map((call) => call.fn)).toEqual(["audit.note", "vault.write"]);
    const events = await l.events(started.id);
    expect(ofKind(events, "job_claimed")).toHaveLength(2);
    expect(ofKind(events, "tool_result").map((entry) => entry.data.callId)).toEqual(["1.1", "2.1"]);
  });

  it("fails the job with HARNESS_FAILED when the harness process exits mid-session, with what it said", async () => {
    const tenant = await l.tenant(ACP_PLUGIN);
    const job = await l.run(tenant, "acp-lab/coder", "note crash", engine());
    expect(job.status).toBe("failed");
    expect(job.failure).toMatchObject({ code: "HARNESS_FAILED" });
    expect(job.failure?.message).toContain(
      "harness 'mock': its process exited with code 3 during the session",
    );
  });

  it("sends session/cancel, then stops the process, when the run is stopped mid-turn", async () => {
    const tenant = await l.tenant(ACP_PLUGIN);
    const workspace = harnessWorkspace(l.home, tenant, "acp-lab", "coder");
    const jobs = engine();
    const started = await jobs.start({ tenant, agent: "acp-lab/coder", input: "hang" });
    const stop = new AbortController();
    const stopped = await jobs.run(started.id, {
      tenant,
      signal: stop.signal,
      // The harness's plan comes at the start of its turn: it is mid-turn.
      onEvent: (entry) => {
        if (entry.kind === "harness_update" && entry.data.update === "plan") stop.abort();
      },
    });
    expect(stopped.status).toBe("queued");
    expect(await readFile(join(workspace, "cancelled.txt"), "utf8")).toMatch(/^s-/);
  });

  it("tool_loading: lazy: the MCP server offers oz.find_tools and oz.call_tool, and a call through it is the real function's", async () => {
    const tenant = await l.tenant(ACP_PLUGIN);
    await l.runtime.policy.set(tenant, "deny", "acp-lab/audit.note");
    const started = await engine().start({ tenant, agent: "acp-lab/finder", input: "lazy" });
    const job = await engine().run(started.id, { tenant });
    expect(job.output).toBe("lazy: oz__call_tool,oz__find_tools error POLICY_VIOLATION");
    expect(executionsOf(started.id)).toEqual([]);
  });

  it("refuses a chat with a harness agent, whose later messages it could not pass on", async () => {
    const tenant = await l.tenant(ACP_PLUGIN);
    const jobs = engine();
    const started = await jobs.start({ tenant, agent: "acp-lab/coder", input: "note", mode: "chat" });
    const job = await jobs.run(started.id, { tenant });
    expect(job.status).toBe("failed");
    expect(job.failure?.message).toContain("runs a harness agent as a job (oz0 run), not as a chat");
    expect(executionsOf(started.id)).toEqual([]);
  });

  it("fails the job with invalid_output when the harness's answer does not match the output schema", async () => {
    const tenant = await l.tenant(ACP_PLUGIN);
    const job = await l.run(tenant, "acp-lab/scorer", "note", engine());
    expect(job).toMatchObject({ status: "failed", failure: { kind: "invalid_output" } });
    expect(ofKind(await l.events(job.id), "output_rejected")).toHaveLength(1);
  });

  it("starts the harness with a clean environment: nothing of the worker's, HOME its workspace", async () => {
    const tenant = await l.tenant(ACP_PLUGIN);
    process.env.OZ0_HARNESS_TEST_SECRET = "leaked";
    try {
      const job = await l.run(tenant, "acp-lab/coder", "env", engine());
      expect(job.output).toBe("env: [] home");
    } finally {
      delete process.env.OZ0_HARNESS_TEST_SECRET;
    }
  });

  it("serves fs and terminal through the mediated runtime, confined to the workspace", async () => {
    const tenant = await l.tenant(ACP_PLUGIN);
    const workspace = harnessWorkspace(l.home, tenant, "acp-lab", "coder");
    await mkdir(workspace, { recursive: true });
    await writeFile(join(workspace, "notes.txt"), "kept");
    const job = await l.run(
      tenant,
      "acp-lab/coder",
      "read:notes.txt read:/etc/hostname read:../reader/x put:made.txt terminal",
      engine(),
    );
    const lines = String(job.output).split("\n");
    expect(lines[0]).toBe("read: kept");
    expect(lines[1]).toMatch(/^read: refused .*is outside the tool's roots/);
    expect(lines[2]).toMatch(/^read: refused .*holds '\.\.'/);
    expect(lines[3]).toBe("put: ok");
    expect(lines[4]).toBe("terminal: 0 hi");
    expect(await readFile(join(workspace, "made.txt"), "utf8")).toBe("put");
  });

  it("gets the agent's skills as a read-only folder in its workspace, which fs cannot write", async () => {
    const tenant = await l.tenant(ACP_PLUGIN);
    const job = await l.run(tenant, "acp-lab/reader", "skills", engine());
    expect(job.output).toBe("skills: guide 555 read");
  });

  it("offers fs only to an agent whose harness.needs lists it", async () => {
    const tenant = await l.tenant(ACP_PLUGIN);
    const job = await l.run(tenant, "acp-lab/reader", "read:x.txt", engine());
    expect(String(job.output)).toMatch(/^read: refused .*harness.needs does not list/);
  });

  it("cannot run a routine's fire when a mode other than the harness's voids its acp.asks", async () => {
    const tenant = await l.tenant(ACP_PLUGIN);
    const jobs = engine();
    const started = await jobs.start({
      tenant,
      agent: "acp-lab/tinkerer",
      input: "note",
      routine: { name: "nightly" },
    });
    const job = await jobs.run(started.id, { tenant });
    expect(job.status).toBe("failed");
    expect(job.failure?.message).toContain(
      "cannot run a routine's fire: its harness.mode 'auto' is not harness 'mock''s own mode, which voids its acp.asks",
    );
    // Started by hand, the same agent runs in its mode.
    const byHand = await l.run(tenant, "acp-lab/tinkerer", "note", engine());
    expect(byHand.status).toBe("succeeded");
  });

  it("cannot run a routine's fire when any harness.config voids its acp.asks", async () => {
    const tenant = await l.tenant(ACP_PLUGIN);
    const jobs = engine();
    const started = await jobs.start({
      tenant,
      agent: "acp-lab/sizer",
      input: "note",
      routine: { name: "nightly" },
    });
    const job = await jobs.run(started.id, { tenant });
    expect(job.status).toBe("failed");
    expect(job.failure?.message).toContain(
      "cannot run a routine's fire: its harness.config voids harness 'mock''s acp.asks",
    );
    expect(executionsOf(started.id)).toEqual([]);
  });

  it("runs a routine's fire when the agent keeps the harness's own mode and sets no config: its acp.asks stands", async () => {
    const tenant = await l.tenant(ACP_PLUGIN);
    const jobs = engine();
    const started = await jobs.start({
      tenant,
      agent: "acp-lab/coder",
      input: "note",
      routine: { name: "nightly" },
    });
    expect(await jobs.run(started.id, { tenant })).toMatchObject({ status: "succeeded" });
    expect(executionsOf(started.id).map((call) => call.fn)).toEqual(["audit.note"]);
  });
});

describe("an agent on a JSON-lines harness", () => {
  it("runs end to end: its question waits for the person, and its answer ends the job", async () => {
    const tenant = await l.tenant(JSONL_PLUGIN);
    const jobs = engine();
    const started = await jobs.start({ tenant, agent: "lines-lab/painter", input: "the door" });
    const asked = await jobs.run(started.id, { tenant });
    expect(asked).toMatchObject({
      status: "waiting",
      waitingFor: { kind: "answer", question: "What colour for the door?" },
    });
    await jobs.answer(started.id, "red", "alice", { tenant });
    const job = await jobs.run(started.id, { tenant });
    expect(job).toMatchObject({ status: "succeeded", output: "colour: red" });
    const events = await l.events(started.id);
    // The usage the harness reported is metered on its step; the restarted harness's same
    // question is the recorded step, so its usage is not counted twice.
    expect(
      ofKind(events, "model_call").map((entry) => [
        entry.data.runtime,
        entry.data.usage,
        entry.data.cost_usd,
      ]),
    ).toEqual([
      ["harness:lines", { input: 40, output: 8 }, 0.02],
      ["harness:lines", { input: 0, output: 0 }, 0],
    ]);
    // The model its usage report names is each step's.
    expect(ofKind(events, "model_call").map((entry) => entry.data.model)).toEqual(["lines-1", "lines-1"]);
    expect(ofKind(events, "harness_update").map((entry) => entry.data.update)).toContain("plan");
  });

  it("a deny rule on oz.ask_user takes effect inside it: the harness is told, and answers without asking", async () => {
    const tenant = await l.tenant(JSONL_PLUGIN);
    await l.runtime.policy.set(tenant, "deny", "oz.ask_user");
    const job = await l.run(tenant, "lines-lab/painter", "the door", engine());
    expect(job).toMatchObject({ status: "succeeded", output: "no answer: POLICY_VIOLATION" });
  });

  it("an approval takes effect inside it: its question is asked once a person approved it", async () => {
    const tenant = await l.tenant(JSONL_PLUGIN);
    await l.runtime.policy.set(tenant, "ask", "oz.ask_user");
    const jobs = engine();
    const started = await jobs.start({ tenant, agent: "lines-lab/painter", input: "the door" });
    expect(await jobs.run(started.id, { tenant })).toMatchObject({ waitingFor: { kind: "approval" } });
    await approveNext(tenant);
    expect(await jobs.run(started.id, { tenant })).toMatchObject({ waitingFor: { kind: "answer" } });
    await jobs.answer(started.id, "blue", "alice", { tenant });
    expect(await jobs.run(started.id, { tenant })).toMatchObject({
      status: "succeeded",
      output: "colour: blue",
    });
  });

  it("a kill switch takes effect inside it: the job ends at its next step", async () => {
    const tenant = await l.tenant(JSONL_PLUGIN);
    const jobs = engine();
    const started = await jobs.start({ tenant, agent: "lines-lab/painter", input: "the door" });
    expect(await jobs.run(started.id, { tenant })).toMatchObject({ status: "waiting" });
    await jobs.answer(started.id, "red", "alice", { tenant });
    await l.runtime.killSwitches.kill(tenant, "agent", "lines-lab/painter", ALICE);
    const job = await jobs.run(started.id, { tenant });
    expect(job).toMatchObject({ status: "failed", failure: { kind: "killed" } });
  });

  it("is taken up after its worker stopped without asking the recorded question again", async () => {
    const tenant = await l.tenant(JSONL_PLUGIN);
    const jobs = engine();
    const started = await jobs.start({ tenant, agent: "lines-lab/painter", input: "the door" });
    await jobs.run(started.id, { tenant });
    await jobs.answer(started.id, "green", "alice", { tenant });
    const crash = new AbortController();
    // The worker goes away in the run after the answer, once the harness is under way again.
    const stopped = await jobs.run(started.id, {
      tenant,
      signal: crash.signal,
      onEvent: (entry) => {
        if (entry.kind === "harness_update") crash.abort();
      },
    });
    expect(stopped.status).toBe("queued");
    const job = await jobs.run(started.id, { tenant });
    expect(job).toMatchObject({ status: "succeeded", output: "colour: green" });
    const events = await l.events(started.id);
    expect(ofKind(events, "job_waiting")).toHaveLength(1);
    expect(ofKind(events, "answer_received")).toHaveLength(1);
  });

  it("ends the job failed with the kind the harness gives", async () => {
    const tenant = await l.tenant(JSONL_PLUGIN);
    const job = await l.run(tenant, "lines-lab/painter", "fail", engine());
    expect(job).toMatchObject({
      status: "failed",
      failure: { kind: "no_luck", message: "it did not work out" },
    });
  });
});
