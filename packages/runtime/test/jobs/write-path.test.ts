// What a job's own statements hand back on PostgreSQL so that nothing is read again: the claim
// carries the job's history (as a read of its events would give it), the end carries the job's
// row (as a read of the job would), and a write carries the run's word to other processes in its
// own statement, heard at its commit and not at all when the writer's lease is gone. On SQLite
// the same calls read and send as before.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { event } from "../../src/events/index.js";
import { JobStore } from "../../src/jobs/index.js";
import { openStore, type Store } from "../../src/store/index.js";
import { disposeFixtures, engineFixtures } from "../store/engines.js";
import { type Harness, harness, TENANT } from "./helpers.js";

const fixtures = engineFixtures();
afterAll(() => disposeFixtures(fixtures), 60_000);

const note = (text: string) => event("mcp_log", { callId: "c", tool: "t", level: "info", data: text });

/** A store of `fixture` with the helpdesk plugin, opened for the describe block that calls this. */
function jobsOn(fixture: (typeof fixtures)[number]) {
  const opened = {} as { store: Store; h: Harness };
  beforeAll(async () => {
    opened.store = await openStore(await fixture.fresh());
    opened.h = await harness(["helpdesk"], opened.store);
  });
  afterAll(() => opened.store?.close());
  return {
    get store() {
      return opened.store;
    },
    async claimedJob(jobs: JobStore, token: string) {
      const started = await opened.h
        .engine()
        .start({ tenant: TENANT, agent: "helpdesk/triage", input: "ticket" });
      const claim = await jobs.claim({ job: started.id, node: "n", token, ttlMs: 600_000 });
      return claim!;
    },
  };
}

describe.each(fixtures)("a job's write path on $label", (fixture) => {
  const on = jobsOn(fixture);

  it("a claim hands over the job's history as its events read it, on PostgreSQL", async () => {
    const jobs = new JobStore(on.store);
    const first = await on.claimedJob(jobs, "history#1");
    await jobs.write(first.lease, [note("one"), note("two")]);
    expect(await jobs.release(first.lease)).toBe(true);
    const again = await jobs.claim({ job: first.row.id, node: "n", token: "history#2", ttlMs: 600_000 });
    if (fixture.engine === "postgres") expect(again!.events).toEqual(await jobs.events(first.row.id));
    else expect(again!.events).toBeUndefined();
    expect(again!.lease.nextSeq).toBe(4);
  });

  it("an end hands back the job's row as a read of it gives it, on PostgreSQL", async () => {
    const jobs = new JobStore(on.store);
    const { lease, row } = await on.claimedJob(jobs, "end#1");
    await jobs.write(lease, [event("job_succeeded", { output: "done" })], {
      status: "succeeded",
      output: JSON.stringify("done"),
      failure: null,
      lease_owner: null,
      lease_expires_at: null,
      waiting_for: null,
    });
    if (fixture.engine === "postgres") expect(lease.ended).toEqual(await jobs.get(row.id));
    else expect(lease.ended).toBeUndefined();
  });
});

// Only PostgreSQL has a broadcast that a statement can carry (NOTIFY).
describe.each(fixtures.filter((fixture) => fixture.engine === "postgres"))(
  "a job's notices on $label",
  (fixture) => {
    const on = jobsOn(fixture);

    it("a write sends its notice on the broadcast at its commit, and a writer whose lease is gone sends none", async () => {
      const jobs = new JobStore(on.store);
      const broadcast = on.store.broadcast!;
      const heard: string[] = [];
      const listening = await broadcast.listen((payload) => heard.push(payload));
      try {
        const { lease } = await on.claimedJob(jobs, "notice#1");
        const sent = await jobs.write(lease, [note("step")], {}, undefined, "notice one");
        expect(sent.noticed).toBe(true);
        const ended = await jobs.write(
          lease,
          [event("job_succeeded", { output: "done" })],
          { status: "succeeded", output: '"done"', failure: null, lease_owner: null, lease_expires_at: null },
          undefined,
          "notice two",
        );
        expect(ended.noticed).toBe(true);
        // The lease went with the end: a write under it is refused and tells no one.
        await expect(jobs.write(lease, [note("late")], {}, undefined, "notice three")).rejects.toThrow(
          /lease/,
        );
        await broadcast.send("marker");
        for (let wait = 0; wait < 200 && !heard.includes("marker"); wait++)
          await new Promise((resolve) => setTimeout(resolve, 25));
        expect(heard).toEqual(["notice one", "notice two", "marker"]);
      } finally {
        await listening.close();
      }
    });
  },
);
