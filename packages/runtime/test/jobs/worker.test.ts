// The worker loop on every store engine: it wakes when a job is queued rather than at its slow
// poll, runs no more jobs at once than its concurrency, and a drain lets go of what it could
// not finish, queued for another worker, so no job is lost.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { JobView } from "../../src/jobs/index.js";
import { JobWorker, listNodes, liveWorkers } from "../../src/jobs/index.js";
import type { LanguageModel } from "../../src/models/index.js";
import { openStore, type Store, type StoreOptions } from "../../src/store/index.js";
import { disposeFixtures, engineFixtures } from "../store/engines.js";
import { type Harness, harness, TENANT, using } from "./helpers.js";

const fixtures = engineFixtures();
afterAll(() => disposeFixtures(fixtures));

/** A slow poll no test could wait out: a job taken in a test was taken because the worker was told. */
const HOUR_MS = 3_600_000;

/** A model that answers once `open()` is called, or gives up when its call is stopped. */
function gated(): { model: LanguageModel; open(): void } {
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  return {
    model: {
      id: "test:gated",
      async generate(request) {
        await new Promise<void>((resolve, reject) => {
          void gate.then(resolve);
          request.signal?.addEventListener("abort", () => reject(request.signal?.reason), { once: true });
        });
        return { text: "done", calls: [], usage: { inputTokens: 1, outputTokens: 1 } };
      },
    },
    open: () => release(),
  };
}

/** Resolves at the worker's next sleep. */
function idling(): { onIdle: () => void; next(): Promise<void> } {
  let waiters: (() => void)[] = [];
  return {
    onIdle: () => {
      const now = waiters;
      waiters = [];
      for (const resolve of now) resolve();
    },
    next: () => new Promise((resolve) => waiters.push(resolve)),
  };
}

/** Resolves with each job as its run stops, by ID. */
function stops(): { onStopped: (job: JobView) => void; of(id: string): Promise<JobView> } {
  const seen = new Map<string, JobView>();
  const waiting = new Map<string, (job: JobView) => void>();
  return {
    onStopped: (job) => {
      seen.set(job.id, job);
      waiting.get(job.id)?.(job);
    },
    of: (id) =>
      new Promise((resolve) => {
        const known = seen.get(id);
        if (known !== undefined) resolve(known);
        else waiting.set(id, resolve);
      }),
  };
}

describe.each(fixtures)("the worker on $label", (fixture) => {
  let store: Store;
  let options: StoreOptions;
  let h: Harness;
  beforeAll(async () => {
    options = await fixture.fresh();
    store = await openStore(options);
    h = await harness(["helpdesk"], store);
  });
  afterAll(() => store?.close());

  it("takes a job queued while it idles at once, without waiting for the slow poll", async () => {
    const idle = idling();
    const stopped = stops();
    const worker = new JobWorker(h.engine(), { pollMs: HOUR_MS, ...idle, ...stopped });
    const asleep = idle.next();
    await worker.start();
    await asleep;
    // On PostgreSQL the job is queued from another connection, as another process would.
    const other = fixture.engine === "postgres" ? await openStore(options) : store;
    try {
      const queuer = (await harness(["helpdesk"], other)).engine();
      const started = await queuer.start({ tenant: TENANT, agent: "helpdesk/triage", input: "ticket 7" });
      expect(await stopped.of(started.id)).toMatchObject({ status: "succeeded", output: "billing" });
    } finally {
      await worker.drain();
      if (other !== store) await other.close();
    }
  });

  it("runs no more jobs at once than its concurrency", async () => {
    const model = gated();
    const idle = idling();
    const stopped = stops();
    const engine = h.engine({ models: using(model.model) });
    const claimed: string[] = [];
    const worker = new JobWorker(engine, {
      concurrency: 2,
      pollMs: HOUR_MS,
      ...idle,
      ...stopped,
      onClaimed: (job) => claimed.push(job.id),
      onError: (error) => errors.push(error),
    });
    const errors: unknown[] = [];
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push((await engine.start({ tenant: TENANT, agent: "helpdesk/early", input: `job ${i}` })).id);
    }
    const full = idle.next();
    await worker.start();
    await full;
    expect(errors).toEqual([]);
    expect(claimed).toHaveLength(2);
    expect([...worker.inFlight].sort()).toEqual([...claimed].sort());
    const left = ids.filter((id) => !claimed.includes(id));
    expect(await engine.get(left[0]!, TENANT)).toMatchObject({ status: "queued" });
    model.open();
    for (const id of ids)
      expect(await stopped.of(id)).toMatchObject({ status: "succeeded", output: "done", failure: null });
    await worker.drain();
  });

  it("drains: a job it cannot finish in the grace period is let go, queued, and another worker finishes it", async () => {
    const model = gated();
    const engine = h.engine({ models: using(model.model) });
    const claimed: JobView[] = [];
    let taken: () => void = () => {};
    const took = new Promise<void>((resolve) => {
      taken = resolve;
    });
    const worker = new JobWorker(engine, {
      pollMs: HOUR_MS,
      onClaimed: (job) => {
        claimed.push(job);
        taken();
      },
    });
    await worker.start();
    expect(await liveWorkers(engine)).toBe(1);
    const started = await engine.start({ tenant: TENANT, agent: "helpdesk/early", input: "drain me" });
    await took;
    await worker.drain(0);
    const row = await store.db
      .selectFrom("jobs")
      .selectAll()
      .where("id", "=", started.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: "queued", lease_owner: null, attempts: 0 });
    expect(await liveWorkers(engine)).toBe(0);
    model.open();
    const stopped = stops();
    const second = new JobWorker(h.engine({ models: using(model.model) }), { pollMs: HOUR_MS, ...stopped });
    await second.start();
    expect(await stopped.of(started.id)).toMatchObject({
      status: "succeeded",
      output: "done",
      failure: null,
    });
    await second.drain();
  });
});

describe.each(fixtures)("the workers table on $label", (fixture) => {
  let store: Store;
  let h: Harness;
  beforeAll(async () => {
    store = await openStore(await fixture.fresh());
    h = await harness(["helpdesk"], store);
  });
  afterAll(() => store?.close());

  async function deadRow(id: string): Promise<void> {
    await store.db
      .insertInto("workers")
      .values({ id, host: "gone", pid: 1, concurrency: 1, started_at: 0, expires_at: 1 })
      .execute();
  }

  async function rows(): Promise<string[]> {
    return (await store.db.selectFrom("workers").select("id").orderBy("id").execute()).map((row) => row.id);
  }

  it("cleans up the rows of nodes gone for over a day as a node starts, keeps the recently gone, and counts neither as live", async () => {
    await deadRow("dead-1#1");
    await deadRow("dead-2#1");
    const recent = Number(await store.now()) - 60_000;
    await store.db
      .insertInto("workers")
      .values({
        id: "recent#1",
        host: "gone",
        pid: 1,
        concurrency: 1,
        started_at: recent,
        expires_at: recent,
      })
      .execute();
    const engine = h.engine();
    expect(await liveWorkers(engine)).toBe(0);
    const worker = new JobWorker(engine, { pollMs: HOUR_MS });
    await worker.start();
    try {
      expect(await rows()).toEqual(["recent#1", worker.id].sort());
      expect(await liveWorkers(engine)).toBe(1);
      expect((await listNodes(engine)).map((node) => [node.id, node.state])).toEqual([
        [worker.id, "live"],
        ["recent#1", "gone"],
      ]);
    } finally {
      await worker.drain();
    }
    // A drained node's row stays, marked stopped, and counts as live no more.
    expect(await liveWorkers(engine)).toBe(0);
    expect((await listNodes(engine)).find((node) => node.id === worker.id)?.state).toBe("stopped");
    await store.db.deleteFrom("workers").execute();
  });

  it("cleans up the rows of nodes gone for over a day at its slow poll too", async () => {
    const idle = idling();
    const worker = new JobWorker(h.engine(), { pollMs: 50, ...idle });
    await worker.start();
    try {
      await deadRow("dead-3#1");
      // The second sleep from now follows a poll that began after the row came.
      await idle.next();
      await idle.next();
      expect(await rows()).toEqual([worker.id]);
    } finally {
      await worker.drain();
    }
  });
});
