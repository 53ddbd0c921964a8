// A decision that lands between a worker's read of a pending approval and its write that puts
// the job to waiting is not missed: the wait's own transaction sees it and queues the job again.
// SQLite only: it is the engine where the write that waits is the first transaction after the
// read, so the test can put the decision exactly there.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JobEngine } from "../../src/jobs/index.js";
import { governanceInterceptor } from "../../src/policy/index.js";
import type { Store } from "../../src/store/index.js";
import { ALICE, executionsOf, type Lab, lab, ofKind, planned } from "./helpers.js";

let l: Lab;
let home: string;
beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), "oz0-race-"));
  l = await lab({ home });
});
afterAll(async () => {
  await l.close();
  await rm(home, { recursive: true, force: true });
});

describe("an approval decided while the job goes to wait for it", () => {
  it("queues the job again instead of leaving it waiting for a decision already made", async () => {
    const tenant = await l.tenant();
    await l.runtime.policy.set(tenant, "ask", "vault/vault.write");
    const model = planned([
      {
        calls: [
          { name: "vault__write", args: { key: "a", value: "1" } },
          { name: "vault__write", args: { key: "b", value: "2" } },
        ],
      },
      { text: "done" },
    ]);
    const store = l.runtime.store;
    let before: (() => Promise<void>) | undefined;
    // Runs `before` ahead of the next transaction, once.
    const watched: Store = {
      ...store,
      transaction: async (work) => {
        const hook = before;
        before = undefined;
        await hook?.();
        return store.transaction(work);
      },
    };
    const jobs = new JobEngine({
      store: watched,
      source: l.runtime.catalog,
      home: l.home,
      models: async () => model,
      interceptors: [governanceInterceptor(store)],
    });
    const started = await jobs.start({ tenant, agent: "vault/keeper", input: "go" });
    await jobs.run(started.id, { tenant: started.tenant });
    const [first, second] = await l.runtime.approvals.list(tenant);
    await l.runtime.approvals.approve(tenant, first!.id, ALICE);
    // Once call 1.1 has its result, the next transaction is the worker's wait for 1.2: the
    // person decides 1.2 right before it, after the worker read 1.2 as pending.
    const decideFirst = async (): Promise<void> => {
      const results = ofKind(await l.events(started.id), "tool_result");
      if (results.length === 0) {
        before = decideFirst;
        return;
      }
      await l.runtime.approvals.approve(tenant, second!.id, ALICE);
    };
    before = decideFirst;
    const afterRace = await jobs.run(started.id, { tenant: started.tenant });
    expect(afterRace.status).toBe("queued");
    expect(ofKind(await l.events(started.id), "job_waiting").at(-1)?.data.for).toMatchObject({
      callId: "1.2",
    });
    expect(await jobs.run(started.id, { tenant: started.tenant })).toMatchObject({ status: "succeeded" });
    expect(executionsOf(started.id).map((call) => call.args)).toEqual([
      { key: "a", value: "1" },
      { key: "b", value: "2" },
    ]);
  });
});
