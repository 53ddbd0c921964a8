// The flow runner: a flow's steps are recorded before their results are used, so a flow whose
// worker died, or that waited for a child job, goes on from its history without running a
// completed step again; and its calls take the one dispatch path, tool policy included.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { JobEngine } from "../../../src/jobs/index.js";
import type { Runtime } from "../../../src/runtime.js";
import type { CallInterceptor } from "../../../src/tools/index.js";
import { ledgerOf, ledgerRuntime, ofKind, TENANT } from "./helpers.js";

let runtime: Runtime;
let close: () => Promise<void>;
beforeEach(async () => {
  ({ runtime, close } = await ledgerRuntime());
});
afterEach(() => close());

/** A job engine on the runtime's store, as another worker process would have, with `interceptors`. */
function worker(interceptors: readonly CallInterceptor[] = []): JobEngine {
  return new JobEngine({
    store: runtime.store,
    source: runtime.catalog,
    home: runtime.home,
    models: runtime.models.resolver,
    interceptors,
  });
}

/**
 * Kills the worker in the middle of the call whose entry is `entry`, as far as the store can
 * tell: once the function ran, its lease goes to nobody and runs out at once, so the call's
 * result is never recorded.
 */
function dieDuring(entry: string): CallInterceptor {
  return {
    name: "dies",
    // After the function ran, before its result is recorded: the call was in flight.
    async after({ args, call }) {
      if (args.entry === entry && call.attempt === 1) {
        await runtime.store.db
          .updateTable("jobs")
          .set({ lease_owner: "a-dead-worker", lease_expires_at: 0 })
          .where("id", "=", call.jobId)
          .execute();
      }
      return undefined;
    },
  };
}

describe("a flow whose worker died", () => {
  it("goes on from its history: completed steps do not run again, the step in flight runs once more with the same key", async () => {
    const started = await runtime.jobs.start({
      tenant: TENANT,
      agent: "ledger-flows/code-steps",
      input: "crash",
    });
    const first = await worker([dieDuring("crash-b")]).run(started.id, { tenant: TENANT });
    expect(first.status).toBe("running");
    const done = await worker().run(started.id, { tenant: TENANT });
    expect(done).toMatchObject({ status: "succeeded", output: { first: "crash-a", second: "crash-b" } });
    expect(ledgerOf(started.id)).toEqual([
      { key: `${started.id}:1`, attempt: 1, entry: "crash-a" },
      { key: `${started.id}:2`, attempt: 1, entry: "crash-b" },
      { key: `${started.id}:2`, attempt: 2, entry: "crash-b" },
    ]);
    const events = await runtime.jobs.events(started.id, { tenant: TENANT });
    expect(ofKind(events, "tool_call_retried").map((entry) => entry.data)).toEqual([
      { callId: "2", attempt: 2, args: { entry: "crash-b" } },
    ]);
    expect(ofKind(events, "job_claimed")).toHaveLength(2);
  });

  it("resumes a YAML flow the same way", async () => {
    const started = await runtime.jobs.start({
      tenant: TENANT,
      agent: "ledger-flows/yaml-steps",
      input: "y",
    });
    expect((await worker([dieDuring("y-2")]).run(started.id, { tenant: TENANT })).status).toBe("running");
    const done = await worker().run(started.id, { tenant: TENANT, follow: true });
    expect(done).toMatchObject({ status: "succeeded", output: "noted" });
    expect(ledgerOf(started.id).map((line) => `${line.entry}#${line.attempt}`)).toEqual([
      "y-1#1",
      "y-2#1",
      "y-2#2",
    ]);
  });
});

describe("a flow that starts an agent", () => {
  it("waits for the child job as a state in the store, and goes on from its recorded steps once it ends", async () => {
    const started = await runtime.jobs.start({
      tenant: TENANT,
      agent: "ledger-flows/yaml-steps",
      input: "w",
    });
    const waiting = await runtime.jobs.run(started.id, { tenant: TENANT });
    expect(waiting.status).toBe("waiting");
    expect(waiting.waitingFor).toMatchObject({ kind: "child", callId: "note" });
    const child = waiting.waitingFor?.kind === "child" ? waiting.waitingFor.job : "";
    expect(child).toBe(`${started.id}.noter-note`);
    expect((await runtime.jobs.get(child, TENANT)).input).toBe("w-2");
    expect((await runtime.jobs.run(child, { tenant: TENANT })).status).toBe("succeeded");
    expect((await runtime.jobs.get(started.id, TENANT)).status).toBe("queued");
    const done = await worker().run(started.id, { tenant: TENANT });
    expect(done).toMatchObject({ status: "succeeded", output: "noted" });
    expect(ledgerOf(started.id).map((line) => line.entry)).toEqual(["w-1", "w-2"]);
  });

  it("runs the child job in the same run when the caller follows the flow", async () => {
    const started = await runtime.jobs.start({
      tenant: TENANT,
      agent: "ledger-flows/yaml-steps",
      input: "f",
    });
    const done = await runtime.jobs.run(started.id, { tenant: TENANT, follow: true });
    expect(done).toMatchObject({ status: "succeeded", output: "noted" });
    const kinds = (await runtime.jobs.events(started.id, { tenant: TENANT })).map((entry) => entry.kind);
    expect(kinds.slice(-4)).toEqual(["job_waiting", "child_job_finished", "job_claimed", "job_succeeded"]);
  });
});

describe("a flow's calls", () => {
  it("pass the tenant's tool policy as any call does: a denied step fails the flow with step_failed", async () => {
    await runtime.policy.set(TENANT, "deny", "ledger-flows/vault.read");
    const byHand = await runtime.tools.call(TENANT, "ledger-flows/vault.read", {});
    const started = await runtime.jobs.start({ tenant: TENANT, agent: "ledger-flows/guarded", input: "x" });
    const done = await runtime.jobs.run(started.id, { tenant: TENANT });
    expect(done.failure).toMatchObject({ kind: "step_failed", code: "STEP_FAILED" });
    const [result] = ofKind(await runtime.jobs.events(started.id, { tenant: TENANT }), "tool_result");
    expect(result?.data).toMatchObject({ callId: "read", ok: false, error: { code: byHand.error?.code } });
    expect(done.failure?.message).toBe(
      `step read (ledger-flows/vault.read) failed: ${byHand.error?.code}: ${byHand.error?.message}`,
    );
  });
});
