// What a job's own statements hand back so that nothing is read again: the end carries the
// job's row (as a read of the job would), on both engines; on PostgreSQL the claim carries the
// job's history (as a read of its events would give it), and a write carries the run's word to
// other processes in its own statement, heard at its commit and not at all when the writer's
// lease is gone. On SQLite those read and send as before, and a step's write that finds the job's
// row as the last write left it hands nothing back, while one after a change reads the change.
import { StatementSync } from "node:sqlite";
import { sql } from "kysely";
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
    get h() {
      return opened.h;
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

/** The SQL of each statement SQLite ran while `work` ran, in order (none on PostgreSQL). */
async function statementsWhile(work: () => Promise<unknown>): Promise<string[]> {
  const texts: string[] = [];
  const methods = StatementSync.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
  const originals = (["run", "all", "get"] as const).map((name) => [name, methods[name]!] as const);
  for (const [name, original] of originals) {
    methods[name] = function (this: StatementSync, ...args: unknown[]) {
      texts.push(this.sourceSQL);
      return original.apply(this, args);
    };
  }
  try {
    await work();
  } finally {
    for (const [name, original] of originals) methods[name] = original;
  }
  return texts;
}

/** The commits SQLite made while `work` ran: each `commit`, and each write outside a transaction. */
async function sqliteCommitsWhile(work: () => Promise<unknown>): Promise<number> {
  const texts = await statementsWhile(work);
  let open = false;
  let commits = 0;
  for (const text of texts.map((entry) => entry.trim().toLowerCase())) {
    if (text.startsWith("begin")) open = true;
    else if (text === "commit" || text.startsWith("rollback")) {
      if (text === "commit") commits++;
      open = false;
    } else if (!open && /^(insert|update|delete|with)\b/.test(text)) commits++;
  }
  return commits;
}

describe.each(fixtures)("a job's write path on $label", (fixture) => {
  const on = jobsOn(fixture);

  it("a claim by ID records its job_claimed in its own commit, as the run's own write of it would", async () => {
    const jobs = new JobStore(on.store);
    const engine = on.h.engine();
    const written = await engine.start({ tenant: TENANT, agent: "helpdesk/triage", input: "ticket" });
    const plain = (await jobs.claim({ job: written.id, node: 'n"1', token: "plain#1", ttlMs: 600_000 }))!;
    const claimedThen = event("job_claimed", { attempt: plain.row.attempts, node: 'n"1' });
    await jobs.write(plain.lease, [claimedThen]);
    const folded = await engine.start({ tenant: TENANT, agent: "helpdesk/triage", input: "ticket" });
    let recorded: Awaited<ReturnType<JobStore["claim"]>>;
    const claim = async () => {
      recorded = await jobs.claim({
        job: folded.id,
        node: 'n"1',
        token: "folded#1",
        ttlMs: 600_000,
        tenant: TENANT,
        record: true,
      });
    };
    if (fixture.engine === "postgres") {
      await claim();
      // One transaction wrote the claimed row and its event: one commit.
      const { rows } = await sql<{ xmin: string }>`select xmin::text as xmin from jobs where id = ${folded.id}
        union all select xmin::text from job_events where job_id = ${folded.id} and kind = 'job_claimed'`.execute(
        on.store.db,
      );
      expect(rows).toHaveLength(2);
      expect(rows[0]!.xmin).toBe(rows[1]!.xmin);
    } else {
      expect(await sqliteCommitsWhile(claim)).toBe(1);
    }
    expect(recorded!.recorded).toEqual(claimedThen);
    expect(recorded!.lease.nextSeq).toBe(plain.lease.nextSeq);
    expect(recorded!.events).toEqual((await jobs.events(folded.id)).slice(0, -1));
    const stored = (job: string) =>
      on.store.db
        .selectFrom("job_events")
        .select(["seq", "kind", "data"])
        .where("job_id", "=", job)
        .orderBy("seq")
        .execute();
    expect(await stored(folded.id)).toEqual(await stored(written.id));
  });

  it("a run by ID tells its listeners of the job_claimed its claim recorded, first, as of a write", async () => {
    const engine = on.h.engine();
    const started = await engine.start({ tenant: TENANT, agent: "helpdesk/triage", input: "ticket" });
    const heard: string[] = [];
    const view = await engine.run(started.id, { tenant: TENANT, onEvent: (entry) => heard.push(entry.kind) });
    expect(view.status).toBe("succeeded");
    const history = (await new JobStore(on.store).events(started.id)).map((entry) => entry.kind);
    expect(heard[0]).toBe("job_claimed");
    expect(heard).toEqual(history.slice(history.indexOf("job_claimed")));
  });

  it("a claim with notes pending records no job_claimed: the run's write of it takes the notes first", async () => {
    const jobs = new JobStore(on.store);
    const started = await on.h.engine().start({ tenant: TENANT, agent: "helpdesk/triage", input: "ticket" });
    await on.store.db.updateTable("jobs").set({ notes_pending: 1 }).where("id", "=", started.id).execute();
    const claimed = await jobs.claim({
      job: started.id,
      node: "n",
      token: "notes#1",
      ttlMs: 600_000,
      tenant: TENANT,
      record: true,
    });
    expect(claimed!.recorded).toBeUndefined();
    expect((await jobs.events(started.id)).map((entry) => entry.kind)).toEqual(["job_started"]);
    expect(claimed!.lease).toMatchObject({ nextSeq: 2, notesPending: 1 });
  });

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

  it("an end hands back the job's row as a read of it gives it", async () => {
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
    expect(lease.ended).toEqual(await jobs.get(row.id));
  });

  it("an end with no event of its own hands back the job's row too", async () => {
    const jobs = new JobStore(on.store);
    const { lease, row } = await on.claimedJob(jobs, "end#2");
    await jobs.write(lease, [], { status: "cancelled", lease_owner: null, lease_expires_at: null });
    expect(lease.ended).toMatchObject({ id: row.id, status: "cancelled", lease_owner: null });
    expect(lease.ended).toEqual(await jobs.get(row.id));
  });

  it("a step's write sees what changed on the job's row since the last one: a cancel request, the tenant's governance, notes, another worker's lease", async () => {
    const jobs = new JobStore(on.store);
    const { lease, row } = await on.claimedJob(jobs, "changed#1");
    const jobRow = () => on.store.db.updateTable("jobs").where("id", "=", row.id);
    const governance = () =>
      on.store.db
        .updateTable("tenants")
        .set((eb) => ({ governance_version: eb("governance_version", "+", 1) }))
        .where("name", "=", TENANT)
        .returning("governance_version")
        .executeTakeFirstOrThrow();
    // Changed between the claim and the first write (a set-up's code may change governance).
    const { governance_version: changed } = await governance();
    const first = await jobs.write(lease, [note("one")]);
    expect(first.governanceVersion).toBe(Number(changed));
    expect(await jobs.write(lease, [note("two"), note("three")])).toMatchObject({
      cancelRequestedBy: null,
      governanceVersion: first.governanceVersion,
    });
    await jobRow().set({ cancel_requested_by: "user:alice" }).execute();
    expect((await jobs.write(lease, [note("four")])).cancelRequestedBy).toBe("user:alice");
    await jobRow().set({ cancel_requested_by: null }).execute();
    await governance();
    expect(await jobs.write(lease, [note("five")])).toMatchObject({
      cancelRequestedBy: null,
      governanceVersion: first.governanceVersion + 1,
    });
    expect(await jobs.note(row.id, TENANT, [note("from outside")])).toBe(false);
    await jobs.write(lease, [note("six")]);
    expect(lease.notesPending).toBe(1);
    await jobs.write(lease, [note("seven")]);
    expect(lease.notesPending).toBe(0);
    await jobRow().set({ lease_owner: "other#1" }).execute();
    await expect(jobs.write(lease, [note("eight")])).rejects.toMatchObject({ code: "LEASE_LOST" });
    // Each event once, in order, the note taken in by the write after it came.
    const logged = (await jobs.events(row.id))
      .filter((entry) => entry.kind === "mcp_log")
      .map((entry) => (entry.data as { data: string }).data);
    expect(logged).toEqual(["one", "two", "three", "four", "five", "six", "from outside", "seven"]);
  });

  it("a write that does not end the job hands back no row", async () => {
    const jobs = new JobStore(on.store);
    const { lease } = await on.claimedJob(jobs, "end#3");
    await jobs.write(lease, [note("step")], { output: JSON.stringify("so far") });
    expect(lease.ended).toBeUndefined();
  });
});

// SQLite's statements are node:sqlite's, which the test can watch one by one.
describe.each(fixtures.filter((fixture) => fixture.engine === "sqlite"))(
  "a step's write on $label",
  (fixture) => {
    const on = jobsOn(fixture);

    it("finds the job's row as the claim or the last write left it in one statement that hands nothing back", async () => {
      const jobs = new JobStore(on.store);
      const { lease } = await on.claimedJob(jobs, "guarded#1");
      // The claim read what the first write's guard needs, and each write after it is as cheap.
      for (const written of [[note("one")], [note("two"), note("three")]]) {
        const texts = await statementsWhile(() => jobs.write(lease, written));
        expect(texts).toHaveLength(1);
        expect(texts[0]).toMatch(/^insert into "job_events"/);
        expect(texts[0]).not.toMatch(/returning/i);
      }
    });
  },
);

// Only PostgreSQL has a broadcast that a statement can carry (NOTIFY).
describe.each(fixtures.filter((fixture) => fixture.engine === "postgres"))(
  "a job's notices on $label",
  (fixture) => {
    const on = jobsOn(fixture);

    it("a write sends its notice's messages on the broadcast in order at its commit, and a writer whose lease is gone sends none", async () => {
      const jobs = new JobStore(on.store);
      const broadcast = on.store.broadcast!;
      const heard: string[] = [];
      const listening = await broadcast.listen((payload) => heard.push(payload));
      try {
        const { lease, row } = await on.claimedJob(jobs, "notice#1");
        await broadcast.follow(row.id, "a follower");
        const sent = await jobs.write(
          lease,
          [note("step")],
          {},
          undefined,
          JSON.stringify(["notice one", "notice one, more"]),
        );
        expect(sent.noticed).toBe(true);
        const ended = await jobs.write(
          lease,
          [event("job_succeeded", { output: "done" })],
          { status: "succeeded", output: '"done"', failure: null, lease_owner: null, lease_expires_at: null },
          undefined,
          JSON.stringify(["notice two"]),
        );
        expect(ended.noticed).toBe(true);
        // The lease went with the end: a write under it is refused and tells no one.
        await expect(
          jobs.write(lease, [note("late")], {}, undefined, JSON.stringify(["notice three"])),
        ).rejects.toThrow(/lease/);
        await broadcast.send(row.id, "marker");
        for (let wait = 0; wait < 200 && !heard.includes("marker"); wait++)
          await new Promise((resolve) => setTimeout(resolve, 25));
        expect(heard).toEqual(["notice one", "notice one, more", "notice two", "marker"]);
      } finally {
        await listening.close();
      }
    });

    it("a job queued wakes the nodes that take jobs, and sends no wake-up while no node is live", async () => {
      const wakes: number[] = [];
      const listening = await on.store.listenForJobs(() => wakes.push(Date.now()));
      try {
        await on.store.db.deleteFrom("workers").execute();
        await on.h.engine().start({ tenant: TENANT, agent: "helpdesk/triage", input: "unheard" });
        const now = await on.store.now();
        const node = (id: string, expires: number, stopped: number | null) => ({
          id,
          host: "h",
          pid: 1,
          concurrency: 1,
          started_at: now,
          expires_at: expires,
          stopped_at: stopped,
        });
        // A node whose heartbeat ran out, and one that stopped, hear nothing either.
        await on.store.db
          .insertInto("workers")
          .values([node("lapsed", now - 1, null), node("stopped", now + 60_000, now)])
          .execute();
        await on.h.engine().start({ tenant: TENANT, agent: "helpdesk/triage", input: "unheard" });
        await on.store.db
          .insertInto("workers")
          .values(node("live", now + 60_000, null))
          .execute();
        await on.h.engine().start({ tenant: TENANT, agent: "helpdesk/triage", input: "heard" });
        for (let wait = 0; wait < 200 && wakes.length === 0; wait++)
          await new Promise((resolve) => setTimeout(resolve, 25));
        // Notifications come in the order of their commits: one sent by either earlier start
        // would have come before the last start's.
        expect(wakes).toHaveLength(1);
      } finally {
        await listening.close();
        await on.store.db.deleteFrom("workers").execute();
      }
    });

    it("a job no process follows sends nothing, from its writes or its feed, until one does and after it stops", async () => {
      const jobs = new JobStore(on.store);
      const broadcast = on.store.broadcast!;
      const heard: string[] = [];
      const listening = await broadcast.listen((payload) => heard.push(payload));
      try {
        const { lease, row } = await on.claimedJob(jobs, "unheard#1");
        await jobs.write(lease, [note("step")], {}, undefined, JSON.stringify(["unheard write"]));
        await broadcast.send(row.id, "unheard message");
        const stop = await broadcast.follow(row.id, "a follower");
        await jobs.write(lease, [note("step")], {}, undefined, JSON.stringify(["heard write"]));
        await stop();
        await broadcast.send(row.id, "unheard after");
        const other = await on.claimedJob(jobs, "unheard#2");
        await broadcast.follow(other.row.id, "a follower");
        await broadcast.send(other.row.id, "marker");
        for (let wait = 0; wait < 200 && !heard.includes("marker"); wait++)
          await new Promise((resolve) => setTimeout(resolve, 25));
        expect(heard).toEqual(["heard write", "marker"]);
      } finally {
        await listening.close();
      }
    });
  },
);
