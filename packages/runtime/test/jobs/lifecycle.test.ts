// The engine's life cycle of a job on every store engine: a job row plus an append-only
// history, claimed under a lease by the database's clock, and owner-checked writes.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { event } from "../../src/events/events.js";
import { JobStore } from "../../src/jobs/index.js";
import type { Renewal } from "../../src/jobs/store.js";
import { openStore, type Store } from "../../src/store/index.js";
import { disposeFixtures, engineFixtures } from "../store/engines.js";
import { type Harness, harness, kinds, ofKind, TENANT } from "./helpers.js";

const fixtures = engineFixtures();
afterAll(() => disposeFixtures(fixtures));

/** Waits until `check` holds, giving up long after it should have. */
async function eventually(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("gave up waiting");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe.each(fixtures)("jobs on $label", (fixture) => {
  let store: Store;
  let h: Harness;
  beforeAll(async () => {
    store = await openStore(await fixture.fresh());
    h = await harness(["helpdesk"], store);
  });
  afterAll(() => store?.close());

  it("runs an agent with tools on the test model to its answer, recording each step in order", async () => {
    const { job, events } = await h.run("helpdesk/triage", "ticket 7");
    expect(job).toMatchObject({
      agent: "helpdesk/triage",
      status: "succeeded",
      output: "billing",
      failure: null,
    });
    expect(events.map((entry) => entry.seq)).toEqual(events.map((_, index) => index + 1));
    const steps = kinds(events).filter((kind) =>
      ["model_call", "tool_call", "tool_result", "job_succeeded"].includes(kind),
    );
    expect(steps).toEqual([
      "model_call",
      "tool_call",
      "tool_result",
      "model_call",
      "tool_call",
      "tool_result",
      "model_call",
      "job_succeeded",
    ]);
    expect(kinds(events).slice(0, 2)).toEqual(["job_started", "job_claimed"]);
  });

  it("keeps the bare names on the job and its agent's name in its ID", async () => {
    const { job } = await h.run("helpdesk/triage", "ticket 7");
    const row = await store.db
      .selectFrom("jobs")
      .selectAll()
      .where("id", "=", job.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ name: "triage", plugin: "helpdesk", queue: "pool.helpdesk", kind: "agent" });
    expect(job.id).toMatch(/^triage-[0-9a-z]+$/);
  });

  it("leaves a started job queued for any worker, which claims it and counts the attempt", async () => {
    const engine = h.engine();
    const started = await engine.start({ tenant: TENANT, agent: "helpdesk/triage", input: "ticket 7" });
    expect(started).toMatchObject({ status: "queued", attempts: 0 });
    const done = await h.engine().work({ serves: { pool: null, labels: [] } });
    expect(done).toMatchObject({ id: started.id, status: "succeeded", attempts: 1 });
    expect(
      ofKind(await engine.events(started.id, { tenant: TENANT }), "job_claimed").map(
        (entry) => entry.data.attempt,
      ),
    ).toEqual([1]);
    expect(await h.engine().work({ serves: { pool: null, labels: [] } })).toBeUndefined();
  });

  it("refuses every write of a worker whose lease another worker took over", async () => {
    const jobs = new JobStore(store);
    const started = await h.engine().start({ tenant: TENANT, agent: "helpdesk/triage", input: "ticket 7" });
    const first = await jobs.claim({ job: started.id, node: "a", token: "a#1", ttlMs: 60_000 });
    expect(first).toBeDefined();
    await jobs.write(first!.lease, [
      event("model_warning", { message: "a writes while it holds the lease" }),
    ]);
    // The lease runs out by the database's clock, and worker b claims the job.
    await store.db.updateTable("jobs").set({ lease_expires_at: 0 }).where("id", "=", started.id).execute();
    const second = await jobs.claim({ job: started.id, node: "b", token: "b#1", ttlMs: 60_000 });
    // a wrote no job_claimed (its run had not begun) and no step's result: nothing is counted.
    expect(second?.row.attempts).toBe(1);
    expect(second?.lease.nextSeq).toBe(first!.lease.nextSeq);
    await expect(
      jobs.write(first!.lease, [event("model_warning", { message: "a again" })]),
    ).rejects.toMatchObject({
      code: "LEASE_LOST",
    });
    await expect(jobs.write(first!.lease, [], { status: "failed" })).rejects.toMatchObject({
      code: "LEASE_LOST",
    });
    // A step's events go in one statement under the owner check: none of them is written.
    await expect(
      jobs.write(first!.lease, [
        event("model_warning", { message: "a, one" }),
        event("model_warning", { message: "a, two" }),
      ]),
    ).rejects.toMatchObject({ code: "LEASE_LOST" });
    const written = await jobs.write(second!.lease, [
      event("model_warning", { message: "b writes" }),
      event("model_warning", { message: "b writes again" }),
    ]);
    // The write read the tenant's governance version too, for the next step to go by.
    const tenant = await store.db
      .selectFrom("tenants")
      .select("governance_version")
      .where("name", "=", TENANT)
      .executeTakeFirstOrThrow();
    expect(written.governanceVersion).toBe(Number(tenant.governance_version));
    const messages = ofKind(await jobs.events(started.id), "model_warning").map(
      (entry) => entry.data.message,
    );
    expect(messages).toEqual(["a writes while it holds the lease", "b writes", "b writes again"]);
  });

  it("does not let a job under a live lease be claimed twice", async () => {
    const jobs = new JobStore(store);
    const started = await h.engine().start({ tenant: TENANT, agent: "helpdesk/triage", input: "ticket 7" });
    const claims = await Promise.all(
      ["x", "y", "z"].map((node) => jobs.claim({ job: started.id, node, token: `${node}#1`, ttlMs: 60_000 })),
    );
    expect(claims.filter((claim) => claim !== undefined)).toHaveLength(1);
  });

  it("renews a worker's lease from the heartbeat, telling it of a cancel request, until the time it is kept to", async () => {
    const jobs = new JobStore(store);
    const started = await h.engine().start({ tenant: TENANT, agent: "helpdesk/triage", input: "ticket 7" });
    const claimed = await jobs.claim({ job: started.id, node: "k", token: "k#1", ttlMs: 600 });
    const heard: (Renewal | undefined)[] = [];
    const kept = jobs.keep(claimed!.lease, Number.POSITIVE_INFINITY, (renewed) => heard.push(renewed));
    await eventually(() => heard.length >= 1);
    const renewed = await jobs.get(started.id);
    expect(renewed!.lease_expires_at).toBeGreaterThan(claimed!.row.lease_expires_at!);
    expect(heard[0]).toMatchObject({ cancelRequestedBy: null });
    await store.db
      .updateTable("jobs")
      .set({ cancel_requested_by: "erin" })
      .where("id", "=", started.id)
      .execute();
    await eventually(() => heard.at(-1)?.cancelRequestedBy === "erin");
    kept.stop();
    // Kept until a time that has passed: the lease is not renewed, and the worker hears so.
    const late: (Renewal | undefined)[] = [];
    jobs.keep(claimed!.lease, await store.now(), (renewed) => late.push(renewed));
    await eventually(() => late.length >= 1);
    expect(late).toEqual([undefined]);
  });

  it("keeps a job's lease with one heartbeat, moved once its wall time is known and stopped at its end", async () => {
    const calls: string[] = [];
    const start = store.heartbeat.bind(store);
    const spy = vi.spyOn(store, "heartbeat").mockImplementation((statement, listener) => {
      calls.push("start");
      const beat = start(statement, listener);
      return {
        update: (parameters) => {
          calls.push("update");
          beat.update(parameters);
        },
        stop: () => {
          calls.push("stop");
          beat.stop();
        },
      };
    });
    try {
      const { job } = await h.run("helpdesk/triage", "ticket 7");
      expect(job.status).toBe("succeeded");
    } finally {
      spy.mockRestore();
    }
    expect(calls).toEqual(["start", "update", "stop"]);
  });

  it("keeps a lease until a new time once the job's wall time is known, and not past it", async () => {
    const jobs = new JobStore(store);
    const started = await h.engine().start({ tenant: TENANT, agent: "helpdesk/triage", input: "ticket 7" });
    const claimed = await jobs.claim({ job: started.id, node: "k", token: "k#1", ttlMs: 600 });
    const heard: (Renewal | undefined)[] = [];
    const kept = jobs.keep(claimed!.lease, Number.POSITIVE_INFINITY, (renewed) => heard.push(renewed));
    await eventually(() => heard.length >= 1);
    // The wall time passed: the heartbeat renews no more, and says so.
    kept.until(await store.now());
    await eventually(() => heard.includes(undefined));
    expect(heard.at(-1)).toBeUndefined();
    kept.stop();
  });

  it("tells a worker's heartbeat once another worker took its lease over, and renews it no more", async () => {
    const jobs = new JobStore(store);
    const started = await h.engine().start({ tenant: TENANT, agent: "helpdesk/triage", input: "ticket 7" });
    const claimed = await jobs.claim({ job: started.id, node: "a", token: "a#1", ttlMs: 600 });
    const heard: (Renewal | undefined)[] = [];
    jobs.keep(claimed!.lease, Number.POSITIVE_INFINITY, (renewed) => heard.push(renewed));
    await store.db
      .updateTable("jobs")
      .set({ lease_owner: "b#1", lease_expires_at: 0 })
      .where("id", "=", started.id)
      .execute();
    await eventually(() => heard.includes(undefined));
    expect(heard.at(-1)).toBeUndefined();
    expect(await jobs.get(started.id)).toMatchObject({ lease_owner: "b#1", lease_expires_at: 0 });
  });

  it("sets leases by the database's clock", async () => {
    const jobs = new JobStore(store);
    const started = await h.engine().start({ tenant: TENANT, agent: "helpdesk/triage", input: "ticket 7" });
    const before = await store.now();
    const claimed = await jobs.claim({ job: started.id, node: "n", token: "n#1", ttlMs: 30_000 });
    const after = await store.now();
    expect(claimed!.row.lease_expires_at).toBeGreaterThanOrEqual(before + 30_000);
    expect(claimed!.row.lease_expires_at).toBeLessThanOrEqual(after + 30_000);
  });
});
