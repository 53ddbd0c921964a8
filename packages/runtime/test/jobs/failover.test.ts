// Failover and the dead letter, on every store engine. A node that dies is simulated the way
// the job sees it: its step never records, its lease runs out, and another node takes the job
// over, fencing the first (whose heartbeat then finds the lease gone and stops its call). A lost
// lease is not the job's fault: only crashes with the same step in flight (a poison step) count
// toward the dead letter, the count starts over when the job gets a step further, and an
// operator retries a dead-lettered job.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { JobEngine, JobView } from "../../src/jobs/index.js";
import { type LanguageModel, type ModelResolver, modelResolver } from "../../src/models/index.js";
import { openStore, type Store } from "../../src/store/index.js";
import { disposeFixtures, engineFixtures } from "../store/engines.js";
import { type Harness, harness, kinds, ofKind, TENANT } from "./helpers.js";

const fixtures = engineFixtures();
afterAll(() => disposeFixtures(fixtures));

/** Leases long enough that no live node loses one by a slow heartbeat: only the kills below take them. */
const LEASE_MS = 1_500;

/**
 * The agent's own scripted model, with a kill plan: `dies(step)` says whether the node dies
 * during the job's model step `step` (from 1). A dying call leaves the job as a killed node
 * does (its lease run out, renewed no more) and hangs until its run hears the lease is gone.
 */
function killing(store: Store, job: () => string, dies: (call: number) => boolean): ModelResolver {
  const inner = modelResolver();
  return async (choice, context) => {
    const model = await inner(choice, context);
    const wrapped: LanguageModel = {
      ...model,
      id: model.id,
      async generate(request) {
        if (!dies(request.step)) return model.generate(request);
        // The node is gone: its lease runs out, and its heartbeat renews nothing more.
        await store.db
          .updateTable("jobs")
          .set({ lease_owner: "gone", lease_expires_at: 0 })
          .where("id", "=", job())
          .execute();
        return new Promise((_, reject) => {
          request.signal?.addEventListener("abort", () => reject(request.signal?.reason), { once: true });
        });
      },
    };
    return wrapped;
  };
}

/** Runs job `id` to its end, each claim by the next node in turn; a node that dies is fenced by the next claim. */
async function runToEnd(nodes: readonly JobEngine[], id: string): Promise<{ view: JobView; claims: number }> {
  const runs: Promise<JobView>[] = [];
  let claims = 0;
  for (;;) {
    const view = await nodes[0]!.get(id, TENANT);
    if (["succeeded", "failed", "cancelled", "dead"].includes(view.status)) {
      await Promise.all(runs);
      return { view, claims };
    }
    const taken = await nodes[claims % nodes.length]!.take();
    if (taken === undefined) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      continue;
    }
    claims++;
    runs.push(taken.run());
  }
}

describe.each(fixtures)("failover on $label", (fixture) => {
  let store: Store;
  let h: Harness;
  beforeAll(async () => {
    store = await openStore(await fixture.fresh());
    h = await harness(["helpdesk"], store);
  });
  afterAll(() => store?.close());

  it("a lost lease is not the job's fault: kills that each leave the job a step further never dead-letter it", async () => {
    let id = "";
    // Each of the four model steps dies twice before it records: eight kills, never three in a row at one step.
    const seen = new Map<number, number>();
    const models = killing(
      store,
      () => id,
      (call) => {
        const times = (seen.get(call) ?? 0) + 1;
        seen.set(call, times);
        return times <= 2;
      },
    );
    const nodes = ["a", "b", "c"].map((node) =>
      h.engine({ node, models, leaseMs: LEASE_MS, maxAttempts: 3 }),
    );
    id = (await nodes[0]!.start({ tenant: TENANT, agent: "helpdesk/counter", input: "x" })).id;
    const { view, claims } = await runToEnd(nodes, id);
    expect(view).toMatchObject({ status: "succeeded", output: "counted" });
    // Eight kills, and the claim that finished.
    expect(claims).toBe(4 * 2 + 1);
    const events = await nodes[0]!.events(id, { tenant: TENANT });
    // No recorded step ran again: one model_call per step, one result per call.
    expect(ofKind(events, "model_call")).toHaveLength(4);
    expect(ofKind(events, "tool_result")).toHaveLength(3);
    // The count went up while a step stayed in flight, and started over once the job got further
    // (the first claim recorded its start-up context); counted per claim, it would be 9 > 3.
    expect(ofKind(events, "job_claimed").map((entry) => entry.data.attempt)).toEqual([
      1, 1, 2, 1, 2, 1, 2, 1, 2,
    ]);
  });

  it("a poison step, in flight at every crash, is dead-lettered after the limit", async () => {
    let id = "";
    // The second model step kills its node every time; the first records.
    const models = killing(
      store,
      () => id,
      (call) => call === 2,
    );
    const nodes = ["a", "b"].map((node) => h.engine({ node, models, leaseMs: LEASE_MS, maxAttempts: 3 }));
    id = (await nodes[0]!.start({ tenant: TENANT, agent: "helpdesk/counter", input: "x" })).id;
    const { view } = await runToEnd(nodes, id);
    expect(view.status).toBe("dead");
    expect(view.failure?.kind).toBe("dead_letter");
    expect(view.failure?.message).toContain("3 times in a row with the same step in flight");
    const events = await nodes[0]!.events(id, { tenant: TENANT });
    expect(ofKind(events, "job_claimed").map((entry) => entry.data.attempt)).toEqual([1, 1, 2, 3, 4]);
    expect(ofKind(events, "job_dead")[0]?.data).toMatchObject({ kind: "dead_letter", attempts: 4 });
    expect(ofKind(events, "model_call")).toHaveLength(1);
  });

  it("an operator retries a dead-lettered job: it goes on from its history, its count started over", async () => {
    let id = "";
    let poisoned = true;
    const models = killing(
      store,
      () => id,
      (call) => poisoned && call === 1,
    );
    const nodes = ["a", "b"].map((node) => h.engine({ node, models, leaseMs: LEASE_MS, maxAttempts: 1 }));
    id = (await nodes[0]!.start({ tenant: TENANT, agent: "helpdesk/counter", input: "x" })).id;
    expect((await runToEnd(nodes, id)).view.status).toBe("dead");
    // Retrying a job that is not dead is refused, naming what it is.
    const other = await nodes[0]!.start({ tenant: TENANT, agent: "helpdesk/counter", input: "y" });
    await nodes[0]!.cancel(other.id, "ops", { tenant: TENANT });
    await expect(nodes[0]!.retry(other.id, "ops", { tenant: TENANT })).rejects.toMatchObject({
      code: "JOB_STATE_CONFLICT",
      message: expect.stringContaining("not dead-lettered"),
    });
    await expect(nodes[0]!.retry(id, "ops", { tenant: "acme" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    poisoned = false;
    const retried = await nodes[0]!.retry(id, "ops", { tenant: TENANT });
    expect(retried).toMatchObject({ status: "queued", attempts: 0, failure: null });
    const { view } = await runToEnd(nodes, id);
    expect(view).toMatchObject({ status: "succeeded", output: "counted", attempts: 1 });
    const events = await nodes[0]!.events(id, { tenant: TENANT });
    expect(kinds(events)).toContain("job_retried");
    expect(ofKind(events, "job_retried")[0]?.data).toEqual({ by: "ops" });
  });
});
