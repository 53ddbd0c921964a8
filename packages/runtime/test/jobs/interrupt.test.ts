// A run its caller stops (Ctrl-C at oz0 run) lets the job go at once on every store engine:
// the lease is given up, so another process takes the job up or cancels it without waiting
// for the lease to run out, and the claim does not count as an attempt that ended badly.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, type Store } from "../../src/store/index.js";
import { disposeFixtures, engineFixtures } from "../store/engines.js";
import { type Harness, harness, TENANT } from "./helpers.js";

const fixtures = engineFixtures();
afterAll(() => disposeFixtures(fixtures));

/** Long enough that a test waiting for it to run out would fail its timeout. */
const LEASE_MS = 600_000;

describe.each(fixtures)("an interrupted run on $label", (fixture) => {
  let store: Store;
  let h: Harness;
  beforeAll(async () => {
    store = await openStore(await fixture.fresh());
    h = await harness(["helpdesk"], store);
  });
  afterAll(() => store?.close());

  /** Starts a triage job and runs it here until its first tool call, then stops the run. */
  async function interrupted(): Promise<string> {
    const engine = h.engine({ leaseMs: LEASE_MS });
    const started = await engine.start({ tenant: TENANT, agent: "helpdesk/triage", input: "ticket 7" });
    const stop = new AbortController();
    const view = await engine.run(started.id, {
      tenant: TENANT,
      follow: true,
      signal: stop.signal,
      onEvent: (entry) => {
        if (entry.kind === "tool_call") stop.abort();
      },
    });
    expect(view.status).toBe("queued");
    return started.id;
  }

  it("lets the job go: queued, without a lease, its claim not counted, for another worker to run at once", async () => {
    const id = await interrupted();
    const row = await store.db.selectFrom("jobs").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: "queued", lease_owner: null, lease_expires_at: null, attempts: 0 });
    // Without follow, a job another worker still held would be refused.
    const done = await h.engine({ leaseMs: LEASE_MS }).run(id, { tenant: TENANT });
    expect(done).toMatchObject({ status: "succeeded", output: "billing" });
  });

  it("lets a cancel end the job at once", async () => {
    const id = await interrupted();
    const cancelled = await h.engine().cancel(id, "cli:me", { tenant: TENANT });
    expect(cancelled.status).toBe("cancelled");
  });
});
