// The agent-runtime seam: a runtime that is not oz0's own loop registers, and an agent that
// names it installs and runs on it, governed by the core. The test runtime is a tiny scripted
// loop that keeps its own conversation and drives the core's recorded model and function
// calls, as an SDK that owns its agent loop would.
import { fileURLToPath } from "node:url";
import { isOz0Error } from "@oz0/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { JobEvent } from "../../src/jobs/index.js";
import { lintPlugin } from "../../src/lint/index.js";
import type { LanguageModel, ModelMessage, ModelRequest } from "../../src/models/index.js";
import {
  type AgentRuntime,
  agentRuntimes,
  OZ0_RUNTIME,
  type RuntimeSession,
  RuntimeStop,
} from "../../src/runtimes/index.js";
import { ALICE, executionsOf, type Lab, lab } from "../policy/helpers.js";

const SCRIPTED = fileURLToPath(new URL("../fixtures/runtimes/scripted", import.meta.url));

/** What the scripted loop saw of each call's result, by job. */
const seen = new Map<string, { callId: string; ok: boolean; code?: string }[]>();
/** Called by the scripted loop after each call's result; a test crashes the run here. */
let afterCall: ((session: RuntimeSession, callId: string) => Promise<void>) | undefined;

const scriptedRuntime: AgentRuntime = {
  name: "scripted",
  selects: ["remote:scripted"],
  async run(session) {
    const messages: ModelMessage[] = [...session.opening];
    for (;;) {
      const reply = await session.callModel({ messages });
      messages.push({ role: "assistant", text: reply.text, calls: reply.calls, output: reply.output });
      if (reply.calls.length === 0) {
        await session.finish({ text: reply.text });
        return;
      }
      for (const call of reply.calls) {
        const result = await session.callFunction(call.id);
        const log = seen.get(session.job) ?? [];
        seen.set(session.job, log);
        if (!log.some((entry) => entry.callId === call.id)) {
          log.push({ callId: call.id, ok: result.ok, ...(result.ok ? {} : { code: result.error.code }) });
        }
        messages.push({
          role: "tool",
          callId: call.id,
          name: call.name,
          content: result.ok ? result.result : { error: result.error },
          isError: !result.ok,
        });
        await afterCall?.(session, call.id);
      }
    }
  },
};

/** A model that notes a line and writes a value, then answers; it counts the steps it is asked. */
function clerkModel(asked: number[]): LanguageModel {
  return {
    id: "test:clerk",
    async generate(request: ModelRequest) {
      asked.push(request.step);
      if (request.step === 1) {
        return {
          calls: [
            { name: "audit__note", args: { line: "opening" } },
            { name: "vault__write", args: { key: "door", value: "open" } },
          ],
          usage: { inputTokens: 10, outputTokens: 5 },
        };
      }
      return { text: "done", calls: [], usage: { inputTokens: 10, outputTokens: 5 } };
    },
  };
}

function ofKind<K extends JobEvent["kind"]>(
  events: readonly JobEvent[],
  kind: K,
): Extract<JobEvent, { kind: K }>[] {
  return events.filter((entry): entry is Extract<JobEvent, { kind: K }> => entry.kind === kind);
}

describe("the agent-runtime registry", () => {
  it("refuses a runtime whose name or runtime: value another runtime has (ALREADY_EXISTS)", () => {
    for (const clash of [
      { ...scriptedRuntime, name: "oz0", selects: ["remote:other"] },
      { ...scriptedRuntime, name: "other", selects: ["pydantic-ai"] },
    ]) {
      let error: unknown;
      try {
        agentRuntimes.register(clash);
      } catch (thrown) {
        error = thrown;
      }
      expect(isOz0Error(error, "ALREADY_EXISTS"), String(error)).toBe(true);
    }
    expect(agentRuntimes.select(undefined)).toBe(OZ0_RUNTIME);
    expect(agentRuntimes.select("pydantic-ai")).toBe(OZ0_RUNTIME);
    expect(agentRuntimes.select("remote:other")).toBeUndefined();
  });
});

describe("an agent on a registered runtime", () => {
  let l: Lab;
  let unregister: () => void;
  beforeAll(async () => {
    unregister = agentRuntimes.register(scriptedRuntime);
    l = await lab();
  });
  afterAll(async () => {
    unregister();
    await l.close();
  });

  it("runs on it end to end, with a deny rule and an approval taking effect inside its loop, and every step names the runtime", async () => {
    const tenant = await l.tenant(SCRIPTED);
    await l.runtime.policy.set(tenant, "deny", "scripted/audit.note");
    await l.runtime.policy.set(tenant, "ask", "scripted/vault.write");
    const asked: number[] = [];
    const jobs = l.engine(clerkModel(asked));
    const started = await jobs.start({ tenant, agent: "scripted/clerk", input: "go" });
    const held = await jobs.run(started.id, { tenant });
    // The denied call never ran, and the loop was told so; the held one waits for a person.
    expect(held).toMatchObject({ status: "waiting", waitingFor: { kind: "approval", callId: "1.2" } });
    expect(seen.get(started.id)).toEqual([{ callId: "1.1", ok: false, code: "POLICY_VIOLATION" }]);
    expect(executionsOf(started.id)).toEqual([]);
    const [approval] = await l.runtime.approvals.list(tenant);
    if (approval === undefined) throw new Error("no approval was asked for");
    await l.runtime.approvals.approve(tenant, approval.id, ALICE);
    const job = await jobs.run(started.id, { tenant });
    expect(job).toMatchObject({ status: "succeeded", output: "done" });
    expect(executionsOf(started.id).map((call) => call.fn)).toEqual(["vault.write"]);
    expect(seen.get(started.id)).toEqual([
      { callId: "1.1", ok: false, code: "POLICY_VIOLATION" },
      { callId: "1.2", ok: true },
    ]);
    // The run after the approval replayed step 1 from the history: the model was asked once a step.
    expect(asked).toEqual([1, 2]);
    const events = await l.events(started.id);
    expect(ofKind(events, "job_started")[0]?.data.runtime).toBe("scripted");
    expect(ofKind(events, "model_call").map((entry) => [entry.data.step, entry.data.runtime])).toEqual([
      [1, "scripted"],
      [2, "scripted"],
    ]);
  });

  it("is taken up after its run stopped mid-job without repeating a recorded model or function call", async () => {
    const tenant = await l.tenant(SCRIPTED);
    const asked: number[] = [];
    const jobs = l.engine(clerkModel(asked));
    const started = await jobs.start({ tenant, agent: "scripted/clerk", input: "go" });
    const crash = new AbortController();
    // The worker goes away once the first call's result is recorded: nothing more of its run is.
    afterCall = async (session, callId) => {
      if (callId !== "1.1" || crash.signal.aborted) return;
      crash.abort();
      await new Promise((_, reject) =>
        session.signal.addEventListener("abort", () => reject(session.signal.reason)),
      );
    };
    try {
      const stopped = await jobs.run(started.id, { tenant, signal: crash.signal });
      expect(stopped.status).toBe("queued");
    } finally {
      afterCall = undefined;
    }
    expect(executionsOf(started.id).map((call) => call.fn)).toEqual(["audit.note"]);
    const job = await jobs.run(started.id, { tenant });
    expect(job).toMatchObject({ status: "succeeded", output: "done" });
    expect(executionsOf(started.id).map((call) => call.fn)).toEqual(["audit.note", "vault.write"]);
    expect(asked).toEqual([1, 2]);
    const events = await l.events(started.id);
    expect(ofKind(events, "job_claimed")).toHaveLength(2);
    expect(ofKind(events, "model_call").map((entry) => entry.data.step)).toEqual([1, 2]);
    expect(ofKind(events, "tool_result").map((entry) => entry.data.callId)).toEqual(["1.1", "1.2"]);
  });

  it("ends the job at the next call when a kill switch is pulled while its loop waits on the model", async () => {
    const tenant = await l.tenant(SCRIPTED);
    const model = clerkModel([]);
    const jobs = l.engine({
      id: model.id,
      async generate(request) {
        // While the model thinks, an admin pulls the switch.
        await l.runtime.killSwitches.kill(tenant, "agent", "scripted/clerk", ALICE);
        return model.generate(request);
      },
    });
    const started = await jobs.start({ tenant, agent: "scripted/clerk", input: "go" });
    const job = await jobs.run(started.id, { tenant });
    expect(job).toMatchObject({ status: "failed", failure: { kind: "killed", code: "KILLED" } });
    expect(executionsOf(started.id)).toEqual([]);
  });

  it("stops a loop that goes on calling after the job stopped: every later call throws RuntimeStop", async () => {
    const tenant = await l.tenant(SCRIPTED);
    await l.runtime.policy.set(tenant, "ask", "scripted/vault.write");
    const after: unknown[] = [];
    const stubborn: AgentRuntime = {
      name: "stubborn",
      selects: ["remote:stubborn"],
      async run(session) {
        const reply = await session.callModel({ messages: [...session.opening] });
        for (const call of reply.calls) {
          try {
            await session.callFunction(call.id);
          } catch (error) {
            after.push(error);
          }
        }
        // A loop that swallowed the stop and asks again is refused again, and nothing is recorded.
        await session
          .callModel({ messages: [...session.opening] })
          .catch((error: unknown) => after.push(error));
      },
    };
    const clerk = scriptedRuntime;
    unregister();
    const swap = agentRuntimes.register({ ...stubborn, selects: clerk.selects });
    try {
      const jobs = l.engine(clerkModel([]));
      const started = await jobs.start({ tenant, agent: "scripted/clerk", input: "go" });
      const job = await jobs.run(started.id, { tenant });
      expect(job).toMatchObject({ status: "waiting", waitingFor: { kind: "approval", callId: "1.2" } });
      expect(after.map((error) => error instanceof RuntimeStop)).toEqual([true, true]);
      expect(ofKind(await l.events(started.id), "model_call")).toHaveLength(1);
    } finally {
      swap();
      unregister = agentRuntimes.register(clerk);
    }
  });

  it("tells a runtime's cancel when the job's wall time runs out under it, and ends the job with timeout", async () => {
    const tenant = await l.tenant(SCRIPTED);
    const told: string[] = [];
    unregister();
    const swap = agentRuntimes.register({
      ...scriptedRuntime,
      // A loop that holds something outside the process until it is told to let go.
      run: (session) =>
        new Promise((_, reject) =>
          session.signal.addEventListener("abort", () => reject(session.signal.reason)),
        ),
      cancel: (_session, reason) => told.push(reason),
    });
    try {
      const jobs = l.engine(clerkModel([]));
      const started = await jobs.start({ tenant, agent: "scripted/clerk", input: "go" });
      const now = await l.runtime.store.now();
      // 3600 s of wall time, of which all but 300 ms have passed.
      await l.runtime.store.db
        .updateTable("jobs")
        .set({ created_at: now - 3_599_700 })
        .where("id", "=", started.id)
        .execute();
      const job = await jobs.run(started.id, { tenant });
      expect(job.failure?.kind).toBe("timeout");
      expect(told).toEqual(["timeout"]);
    } finally {
      swap();
      unregister = agentRuntimes.register(scriptedRuntime);
    }
  });

  it("fails a job its runtime left neither ended nor waiting, or asked the model about again before running its calls", async () => {
    const tenant = await l.tenant(SCRIPTED);
    const cases: { runtime: AgentRuntime["run"]; message: string }[] = [
      {
        runtime: async (session) => {
          await session.callModel({ messages: [...session.opening] });
          await session.callFunction("1.1");
          await session.callFunction("1.2");
        },
        message: "agent runtime 'scripted' returned without ending the job or making it wait",
      },
      {
        runtime: async (session) => {
          await session.callModel({ messages: [...session.opening] });
          await session.callModel({ messages: [...session.opening] });
        },
        message:
          "agent runtime 'scripted' asked the model again while call 1.1 of step 1 has no result; run every call of a reply (callFunction) first",
      },
    ];
    for (const { runtime, message } of cases) {
      unregister();
      const swap = agentRuntimes.register({ ...scriptedRuntime, run: runtime });
      try {
        const jobs = l.engine(clerkModel([]));
        const started = await jobs.start({ tenant, agent: "scripted/clerk", input: "go" });
        const job = await jobs.run(started.id, { tenant });
        expect(job).toMatchObject({ status: "failed", failure: { message } });
        expect(ofKind(await l.events(started.id), "model_call")).toHaveLength(1);
      } finally {
        swap();
        unregister = agentRuntimes.register(scriptedRuntime);
      }
    }
  });

  it("lint lists the registered runtimes, and an agent naming another is still refused at install and at start", async () => {
    const report = await lintPlugin(SCRIPTED);
    expect(report.findings.filter((finding) => finding.code === "OZ-S023")).toEqual([]);
    const tenant = await l.tenant(SCRIPTED);
    unregister();
    try {
      const message =
        "agent 'clerk' names runtime 'remote:scripted', which this oz0 does not have (its remote runtimes are remote:a2a (an outside agent over A2A), remote:anthropic (an agent at Claude Managed Agents)); its runtimes: pydantic-ai (the default, oz0's own loop), openai-agents, remote:a2a, remote:anthropic, harness:<name>. Leave runtime: out to run the agent on oz0's own loop.";
      const linted = await lintPlugin(SCRIPTED);
      expect(
        linted.findings.filter((finding) => finding.code === "OZ-S023").map((finding) => finding.message),
      ).toEqual([message]);
      const install = await l.runtime.catalog
        .install(`${tenant}-b`, SCRIPTED)
        .catch((error: unknown) => error);
      expect(isOz0Error(install), String(install)).toBe(true);
      expect((install as Error).message).toContain(message);
      const start = await l.runtime.jobs
        .start({ tenant, agent: "scripted/clerk", input: "go" })
        .catch((error: unknown) => error);
      expect(isOz0Error(start, "INVALID_PLUGIN"), String(start)).toBe(true);
      expect((start as Error).message).toBe(`scripted/clerk: ${message}`);
    } finally {
      unregister = agentRuntimes.register(scriptedRuntime);
    }
    const other = agentRuntimes.register({ ...scriptedRuntime, name: "other", selects: ["remote:other"] });
    try {
      const linted = await lintPlugin(SCRIPTED);
      expect(linted.findings.filter((finding) => finding.code === "OZ-S023")).toEqual([]);
    } finally {
      other();
    }
  });
});
