// The usage totals on every store engine: each model_call event is added to its row as the
// event is inserted (PostgreSQL's trigger, SQLite's job store in the event's transaction),
// however the write goes, and nothing is counted for an event that names no model.
import { afterAll, describe, expect, test } from "vitest";
import { event } from "../../src/events/events.js";
import { JobStore } from "../../src/jobs/store.js";
import { openStore } from "../../src/store/index.js";
import { hourOf, tenantUsage, usageRecords } from "../../src/usage/index.js";
import { disposeFixtures, engineFixtures } from "../store/engines.js";

const fixtures = engineFixtures();
afterAll(() => disposeFixtures(fixtures));

const modelCall = (step: number, model: string, input: number, output: number, cost?: number) =>
  event("model_call", {
    step,
    model,
    calls: [],
    text: "ok",
    usage: { input, output },
    ...(cost === undefined ? {} : { cost_usd: cost }),
    ms: 1,
  });

/** A queued job of agent `desk/<name>` in the default tenant. */
function deskJob(jobs: JobStore, id: string, name: string) {
  return jobs.create(
    {
      id,
      tenant: "default",
      name,
      plugin: "desk",
      kind: "agent",
      queue: "pool.desk",
      status: "queued",
      input: '""',
    },
    [event("job_started", { agent: `desk/${name}`, mode: "run", input: "" })],
  );
}

/** Job `id` claimed, by its lease. */
async function claimed(jobs: JobStore, id: string) {
  return (await jobs.claim({ job: id, node: "n", token: `t-${id}`, ttlMs: 60_000 }))!.lease;
}

describe.each(fixtures)("usage totals on $label", (fixture) => {
  test("add each model_call to its tenant, agent, model and hour as it is inserted", async () => {
    const store = await openStore(await fixture.fresh());
    try {
      const jobs = new JobStore(store);
      await deskJob(jobs, "a-1", "writer");
      await deskJob(jobs, "b-1", "reader");
      const claim = (id: string) => claimed(jobs, id);
      const writer = await claim("a-1");
      await jobs.write(writer, [
        modelCall(1, "openai:gpt-4o", 100, 10, 0.002),
        modelCall(2, "openai:gpt-4o", 120, 5),
      ]);
      await jobs.write(writer, [event("model_warning", { message: "not a call" })]);
      const reader = await claim("b-1");
      await jobs.write(reader, [modelCall(1, "test:x", 7, 3)]);
      await jobs.write(reader, [{ kind: "model_call", data: { step: 2 } } as never]);

      const all = await tenantUsage(store, "default", { since: 0 });
      expect(all).toMatchObject({ inputTokens: 227, outputTokens: 18, modelCalls: 3 });
      expect(all.costUsd).toBeCloseTo(0.002);
      expect(all.byModel["openai:gpt-4o"]).toMatchObject({
        inputTokens: 220,
        outputTokens: 15,
        modelCalls: 2,
      });
      expect(await tenantUsage(store, "default", { since: 0, agent: "desk/reader" })).toMatchObject({
        inputTokens: 7,
        outputTokens: 3,
        modelCalls: 1,
      });
      const now = await store.now();
      for (const row of await store.db.selectFrom("usage_totals").select("hour").execute()) {
        expect(Number(row.hour)).toBe(hourOf(Number(row.hour)));
        expect(Number(row.hour)).toBeGreaterThan(now - 2 * 3_600_000);
      }
    } finally {
      await store.close();
    }
  });

  test("count a model_call however its write goes: alone, after a change the write had to read, with notes, with more in its transaction, with the job's end; and not for a lease that is gone", async () => {
    const store = await openStore(await fixture.fresh());
    try {
      const jobs = new JobStore(store);
      await deskJob(jobs, "w-1", "writer");
      const lease = await claimed(jobs, "w-1");
      const calls = async () => (await tenantUsage(store, "default", { since: 0 })).modelCalls;
      await jobs.write(lease, [modelCall(1, "test:x", 1, 1)]);
      expect(await calls()).toBe(1);
      await store.db
        .updateTable("jobs")
        .set({ cancel_requested_by: "user:a" })
        .where("id", "=", "w-1")
        .execute();
      await jobs.write(lease, [modelCall(2, "test:x", 1, 1)]);
      expect(await calls()).toBe(2);
      await jobs.note("w-1", "default", [event("model_warning", { message: "noted" })]);
      await jobs.write(lease, [modelCall(3, "test:x", 1, 1)]);
      await jobs.write(lease, [modelCall(4, "test:x", 1, 1)]);
      expect(await calls()).toBe(4);
      await jobs.write(lease, [modelCall(5, "test:x", 1, 1)], {}, async () => {});
      expect(await calls()).toBe(5);
      await jobs.write(lease, [modelCall(6, "test:x", 1, 1), event("job_succeeded", { output: "ok" })], {
        status: "succeeded",
        output: JSON.stringify("ok"),
        lease_owner: null,
        lease_expires_at: null,
      });
      expect(await calls()).toBe(6);
      await expect(jobs.write(lease, [modelCall(7, "test:x", 1, 1)])).rejects.toMatchObject({
        code: "LEASE_LOST",
      });
      expect(await calls()).toBe(6);
      const kinds = (await jobs.events("w-1")).map((entry) => entry.kind);
      expect(kinds.filter((kind) => kind === "model_call")).toHaveLength(6);
    } finally {
      await store.close();
    }
  });

  test("jobs of one agent spread an hour's calls over rows on PostgreSQL, so writers at once take no turns, and every total sums them", async () => {
    const store = await openStore(await fixture.fresh());
    try {
      const jobs = new JobStore(store);
      const ids = Array.from({ length: 12 }, (_, index) => `spread-${index}`);
      for (const id of ids) {
        await deskJob(jobs, id, "writer");
        await jobs.write(await claimed(jobs, id), [modelCall(1, "openai:gpt-4o", 10, 1, 0.5)]);
      }
      const rows = await store.db.selectFrom("usage_totals").select(["hour", "slot"]).execute();
      const hours = new Set(rows.map((row) => Number(row.hour)));
      if (fixture.engine === "postgres") expect(rows.length).toBeGreaterThan(hours.size);
      else expect(rows.length).toBe(hours.size);
      expect(await tenantUsage(store, "default", { since: 0 })).toMatchObject({
        inputTokens: 120,
        outputTokens: 12,
        modelCalls: 12,
        costUsd: 6,
      });
      const records = await usageRecords(store, "default", 0);
      expect(records).toHaveLength(hours.size);
      expect(records.reduce((sum, record) => sum + record.modelCalls, 0)).toBe(12);
    } finally {
      await store.close();
    }
  });

  test("a model_call whose data is not JSON is recorded and counts nowhere", async () => {
    const store = await openStore(await fixture.fresh());
    try {
      const jobs = new JobStore(store);
      await deskJob(jobs, "c-1", "writer");
      await store.db
        .insertInto("job_events")
        .values({ job_id: "c-1", seq: 2, kind: "model_call", data: "{not json", at: 1 })
        .execute();
      const stored = await store.db
        .selectFrom("job_events")
        .select("data")
        .where("job_id", "=", "c-1")
        .where("seq", "=", 2)
        .executeTakeFirstOrThrow();
      expect(stored.data).toBe("{not json");
      expect(await tenantUsage(store, "default", { since: 0 })).toMatchObject({ modelCalls: 0 });
    } finally {
      await store.close();
    }
  });
});
