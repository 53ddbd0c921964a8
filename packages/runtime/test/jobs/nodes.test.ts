// Nodes and task queues, on every store engine: a job goes to the queue the spec names
// (pool.<plugin>, pool.<plugin>.<labels>, a shared pool's), a node claims only from the queues
// its pool and labels serve, a job no live node serves says why, a job that needs a newer node
// waits for one, and a job whose plugin bundle a node cannot get is let go, not failed.
import { Oz0Error } from "@oz0/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  JOB_FORMAT,
  JobWorker,
  listNodes,
  mapPool,
  poolMappings,
  unmapPool,
  whyUnserved,
} from "../../src/jobs/index.js";
import { openStore, type Store } from "../../src/store/index.js";
import type { PartSource } from "../../src/tools/index.js";
import { disposeFixtures, engineFixtures } from "../store/engines.js";
import { type Harness, harness, ofKind, TENANT } from "./helpers.js";

const fixtures = engineFixtures();
afterAll(() => disposeFixtures(fixtures));

const HOUR_MS = 3_600_000;
const OWN = { pool: null, labels: [] as string[] };

/** `source` as a node sees it that cannot get helpdesk's bundle from the store. */
function bundleMissingSource(source: PartSource): PartSource {
  return Object.create(source, {
    loadInstalled: {
      value: async () => {
        const cause = new Oz0Error("INVALID_BUNDLE", "bundle b is not in the store", {
          data: { detail: "bundle missing", digest: "b" },
        });
        throw new Oz0Error("INVALID_PLUGIN", "plugin helpdesk cannot be loaded from its bundle b", {
          cause,
        });
      },
    },
  });
}

describe.each(fixtures)("task queues on $label", (fixture) => {
  let store: Store;
  let h: Harness;
  beforeAll(async () => {
    store = await openStore(await fixture.fresh());
    h = await harness(["helpdesk", "labelled"], store);
  });
  afterAll(() => store?.close());

  async function row(id: string) {
    return store.db.selectFrom("jobs").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  }

  it("labels decide which nodes run the agent: pool.<plugin>.<labels>, its plugin's and its own, and tags place nothing", async () => {
    const engine = h.engine();
    const job = await engine.start({ tenant: TENANT, agent: "labelled/crunch", input: "x" });
    expect(job.queue).toBe("pool.labelled.gpu.large");
    expect(await row(job.id)).toMatchObject({ pool: null, labels: "gpu,large" });
    const plain = await engine.start({ tenant: TENANT, agent: "labelled/plain", input: "x" });
    expect(plain.queue).toBe("pool.labelled.gpu");
    // A node without the labels, or with only some of them, takes neither job; one with more takes both.
    expect(await h.engine().take({ serves: OWN })).toBeUndefined();
    const gpu = await h.engine().take({ serves: { pool: null, labels: ["gpu"] } });
    expect(gpu?.job.id).toBe(plain.id);
    await gpu?.run();
    expect(await h.engine().take({ serves: { pool: null, labels: ["gpu"] } })).toBeUndefined();
    const big = await h.engine().take({ serves: { pool: null, labels: ["large", "gpu", "ssd"] } });
    expect(big?.job.id).toBe(job.id);
    expect(await big?.run()).toMatchObject({ status: "succeeded" });
  });

  it("a tenant maps a plugin to a shared pool with a node selector: its next jobs go to pool.<pool>.<labels>", async () => {
    const mapped = await mapPool(store, TENANT, {
      plugin: "helpdesk",
      pool: "shared",
      labels: ["ssd"],
      by: "ops",
    });
    expect(mapped).toMatchObject({
      plugin: "helpdesk",
      pool: "shared",
      labels: ["ssd"],
      queue: "pool.shared.ssd",
    });
    expect(await poolMappings(store, TENANT)).toHaveLength(1);
    try {
      const job = await h.engine().start({ tenant: TENANT, agent: "helpdesk/triage", input: "ticket 7" });
      expect(job.queue).toBe("pool.shared.ssd");
      // The plugins' own pools do not serve it, nor the shared pool without the selector's label.
      expect(await h.engine().take({ serves: { pool: null, labels: ["ssd"] } })).toBeUndefined();
      expect(await h.engine().take({ serves: { pool: "shared", labels: [] } })).toBeUndefined();
      expect(await h.engine().take({ serves: { pool: "other", labels: ["ssd"] } })).toBeUndefined();
      const taken = await h.engine().take({ serves: { pool: "shared", labels: ["ssd"] } });
      expect(await taken?.run()).toMatchObject({ id: job.id, status: "succeeded" });
    } finally {
      expect(await unmapPool(store, TENANT, "helpdesk")).toBe(true);
    }
    const back = await h.engine().start({ tenant: TENANT, agent: "helpdesk/triage", input: "ticket 8" });
    expect(back.queue).toBe("pool.helpdesk");
    await h.engine().run(back.id, { tenant: TENANT });
    // A pool name and labels follow the name rules: they go into queue names.
    await expect(
      mapPool(store, TENANT, { plugin: "helpdesk", pool: "a.b", labels: [], by: "ops" }),
    ).rejects.toMatchObject({
      code: "INVALID_NAME",
    });
    await expect(
      mapPool(store, TENANT, { plugin: "helpdesk", pool: "p", labels: ["x", "x"], by: "ops" }),
    ).rejects.toMatchObject({ code: "INVALID_INPUT" });
  });

  it("a job whose queue no live node serves says so, naming the node to start; nodes are listed live, then stopped", async () => {
    const engine = h.engine();
    const job = await engine.start({ tenant: TENANT, agent: "labelled/crunch", input: "x" });
    const node = new JobWorker(h.engine(), { labels: ["gpu"], pollMs: HOUR_MS });
    await node.start();
    try {
      expect(await whyUnserved(engine, job.id)).toBe(
        "no live node serves queue pool.labelled.gpu.large, so the job waits; start one with oz0 node --labels gpu,large",
      );
      const listed = (await listNodes(engine)).find((entry) => entry.id === node.id);
      expect(listed).toMatchObject({ state: "live", labels: ["gpu"], pool: null, format: JOB_FORMAT });
    } finally {
      await node.drain();
    }
    expect((await listNodes(engine)).find((entry) => entry.id === node.id)).toMatchObject({
      state: "stopped",
    });
    const serving = new JobWorker(h.engine(), { labels: ["gpu", "large"], pollMs: HOUR_MS });
    // Served by a live node: nothing to say (it may already have taken the job).
    await serving.start();
    try {
      expect(await whyUnserved(engine, job.id)).toBeNull();
    } finally {
      await serving.drain();
    }
    await engine.run(job.id, { tenant: TENANT, follow: true }).catch(() => undefined);
  });

  it("a running job whose node died says so once its lease ran out, when no live node serves its queue", async () => {
    const engine = h.engine();
    const job = await engine.start({ tenant: TENANT, agent: "labelled/crunch", input: "x" });
    const claimed = await h.engine().take({ serves: { pool: null, labels: ["gpu", "large"] } });
    expect(claimed?.job.id).toBe(job.id);
    // Held by a live lease: the job is running, not waiting for a node.
    expect(await whyUnserved(engine, job.id)).toBeNull();
    await store.db
      .updateTable("jobs")
      .set({ lease_expires_at: (await store.now()) - 1 })
      .where("id", "=", job.id)
      .execute();
    const why = await whyUnserved(engine, job.id);
    expect(why).toContain(
      "stopped holding it (its lease ran out), and no live node serves queue pool.labelled.gpu.large",
    );
    expect(why).toContain("start one with oz0 node --labels gpu,large");
    await engine.cancel(job.id, "test", { tenant: TENANT }).catch(() => undefined);
  });

  it("mixed versions: a job that needs a newer node waits for one, and a node of that version takes it", async () => {
    const engine = h.engine();
    const job = await engine.start({ tenant: TENANT, agent: "helpdesk/triage", input: "ticket 9" });
    await store.db
      .updateTable("jobs")
      .set({ needs_format: JOB_FORMAT + 1 })
      .where("id", "=", job.id)
      .execute();
    expect(await h.engine().take({ serves: OWN })).toBeUndefined();
    const old = new JobWorker(h.engine(), { pollMs: HOUR_MS });
    await old.start();
    try {
      expect(await whyUnserved(engine, job.id)).toContain(
        `no live node of queue pool.helpdesk understands job format ${JOB_FORMAT + 1}`,
      );
    } finally {
      await old.drain();
    }
    expect((await engine.get(job.id, TENANT)).status).toBe("queued");
    const newer = await h.engine({ format: JOB_FORMAT + 1 }).take({ serves: OWN });
    expect(await newer?.run()).toMatchObject({ id: job.id, status: "succeeded" });
  });

  it("a job run by ID whose plugin bundle is missing on the node records no claim, as a worker's claim records none", async () => {
    const missing = bundleMissingSource(h.source);
    const engine = h.engine();
    const job = await engine.start({ tenant: TENANT, agent: "helpdesk/triage", input: "ticket 11" });
    await h.engine({ source: missing }).run(job.id, { tenant: TENANT });
    expect(await row(job.id)).toMatchObject({
      status: "running",
      lease_owner: null,
      attempts: 0,
      failure: null,
    });
    expect(ofKind(await engine.events(job.id, { tenant: TENANT }), "job_claimed")).toHaveLength(0);
    await store.db.updateTable("jobs").set({ lease_expires_at: 0 }).where("id", "=", job.id).execute();
    expect(await h.engine().run(job.id, { tenant: TENANT })).toMatchObject({
      status: "succeeded",
      attempts: 1,
    });
    expect(
      ofKind(await engine.events(job.id, { tenant: TENANT }), "job_claimed").map((entry) => entry.data),
    ).toEqual([{ attempt: 1, node: expect.any(String) }]);
  });

  it("a job whose plugin bundle is missing on the node is let go, not failed, and runs once a node has it", async () => {
    const missing = bundleMissingSource(h.source);
    const engine = h.engine();
    const job = await engine.start({ tenant: TENANT, agent: "helpdesk/triage", input: "ticket 10" });
    const taken = await h.engine({ source: missing }).take({ serves: OWN });
    expect(taken?.job.id).toBe(job.id);
    await taken?.run();
    const after = await row(job.id);
    expect(after).toMatchObject({ status: "running", lease_owner: null, attempts: 0, failure: null });
    expect(Number(after.lease_expires_at)).toBeGreaterThan(await store.now());
    expect(ofKind(await engine.events(job.id, { tenant: TENANT }), "job_claimed")).toHaveLength(0);
    // Not claimable at once; once its while has passed, a node that has the bundle runs it.
    expect(await h.engine().take({ serves: OWN })).toBeUndefined();
    await store.db.updateTable("jobs").set({ lease_expires_at: 0 }).where("id", "=", job.id).execute();
    const later = await h.engine().take({ serves: OWN });
    expect(await later?.run()).toMatchObject({ id: job.id, status: "succeeded", attempts: 1 });
  });
});
