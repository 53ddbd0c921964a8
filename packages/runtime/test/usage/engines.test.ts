// The usage totals on every store engine: each model_call event is added to its row as the
// event is inserted (PostgreSQL's trigger, SQLite's job store in the event's transaction),
// however the write goes, and nothing is counted for an event that names no model.
import { afterAll, describe, expect, test } from "vitest";
import { event } from "../../src/events/events.js";
import { JobStore } from "../../src/jobs/store.js";
import { openStore, type Store } from "../../src/store/index.js";
import { dayOf, hourOf, tenantUsage, usageRecords } from "../../src/usage/index.js";
import { disposeFixtures, engineFixtures } from "../store/engines.js";

const fixtures = engineFixtures();
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
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

/** Calls of `agent` (a `desk/…` address) and `model` written straight into the hours' rows, as the store keeps them. */
async function hoursOfCalls(
  store: Store,
  rows: readonly { hour: number; agent: string; model: string; calls: number; slot?: number }[],
) {
  await store.db
    .insertInto("usage_totals")
    .values(
      rows.map((row) => ({
        tenant: "default",
        agent: row.agent,
        model: row.model,
        hour: row.hour,
        slot: row.slot ?? 0,
        input_tokens: 10 * row.calls,
        output_tokens: row.calls,
        model_calls: row.calls,
        cost_usd: 0.5 * row.calls,
      })),
    )
    .execute();
}

describe.each(fixtures)("a tenant's usage over days on $label", (fixture) => {
  test("a read counts every call of its period, from the days over, the hours before and after them and the hour open, however far into the period", async () => {
    const store = await openStore(await fixture.fresh());
    try {
      const now = await store.now();
      const today = dayOf(now);
      // Five days back, at 07:00 and 19:00 of each, two agents and two models; then this hour.
      const rows = [];
      for (let day = today - 5 * DAY; day < today; day += DAY) {
        for (const hour of [day + 7 * HOUR, day + 19 * HOUR]) {
          rows.push({ hour, agent: "desk/writer", model: "test:a", calls: 1 });
          rows.push({ hour, agent: "desk/writer", model: "test:b", calls: 2, slot: 3 });
          rows.push({ hour, agent: "desk/reader", model: "test:a", calls: 4 });
        }
      }
      rows.push({ hour: hourOf(now), agent: "desk/writer", model: "test:a", calls: 8 });
      await hoursOfCalls(store, rows);

      const all = await tenantUsage(store, "default", { since: today - 5 * DAY });
      expect(all).toMatchObject({ modelCalls: 5 * 2 * 7 + 8, inputTokens: 10 * (70 + 8), outputTokens: 78 });
      expect(all.costUsd).toBeCloseTo(39);
      expect(all.byModel).toEqual({
        "test:a": { inputTokens: 10 * (50 + 8), outputTokens: 58, modelCalls: 58, costUsd: 29 },
        "test:b": { inputTokens: 200, outputTokens: 20, modelCalls: 20, costUsd: 10 },
      });
      // The report's records: the days over one row per agent and model each, the hours around
      // them one per hour, oldest first, the same calls in all.
      const through = Number(
        (await store.db.selectFrom("usage_rollups").select("through").executeTakeFirstOrThrow()).through,
      );
      const records = await usageRecords(store, "default", today - 5 * DAY + 12 * HOUR);
      expect(records.reduce((sum, record) => sum + record.modelCalls, 0)).toBe(78 - 7);
      const days = records.filter((record) => record.span === "day");
      expect(days.map((record) => record.start)).toEqual(
        [...new Set(days.map((record) => record.start))].flatMap((day) => [day, day, day]),
      );
      expect(days).toHaveLength(3 * ((through - (today - 4 * DAY)) / DAY));
      for (const record of records) {
        if (record.span === "hour")
          expect(record.start < today - 4 * DAY || record.start >= through).toBe(true);
      }
      expect(records.map((record) => record.start)).toEqual(
        records.map((record) => record.start).sort((a, b) => a - b),
      );

      // The same again, and from 12:00 of the first day (its 07:00 left out, its 19:00 in).
      expect(await tenantUsage(store, "default", { since: today - 5 * DAY })).toEqual(all);
      expect((await tenantUsage(store, "default", { since: today - 5 * DAY + 12 * HOUR })).modelCalls).toBe(
        78 - 7,
      );
      expect(
        await tenantUsage(store, "default", { since: today - 2 * DAY, agent: "desk/writer" }),
      ).toMatchObject({
        modelCalls: 2 * 2 * 3 + 8,
        byModel: { "test:a": { modelCalls: 4 + 8 }, "test:b": { modelCalls: 8 } },
      });
      expect((await tenantUsage(store, "default", { since: hourOf(now) })).modelCalls).toBe(8);

      // The calls of the hour open are counted as they come.
      await hoursOfCalls(store, [
        { hour: hourOf(now), agent: "desk/reader", model: "test:a", calls: 1, slot: 1 },
      ]);
      expect((await tenantUsage(store, "default", { since: today - 5 * DAY })).modelCalls).toBe(79);
      expect((await tenantUsage(store, "default", { since: today - 5 * DAY + 12 * HOUR })).modelCalls).toBe(
        79 - 7,
      );

      // What is over the process keeps: it reads again only the hours that may still change.
      await store.db.deleteFrom("usage_days").execute();
      await store.db
        .deleteFrom("usage_totals")
        .where("hour", "<", hourOf(now) - HOUR)
        .execute();
      expect((await tenantUsage(store, "default", { since: today - 5 * DAY })).modelCalls).toBe(79);
    } finally {
      await store.close();
    }
  });

  test("a tenant that does not exist reads no calls and leaves no mark", async () => {
    const store = await openStore(await fixture.fresh());
    try {
      expect(await tenantUsage(store, "nobody", { since: 0 })).toMatchObject({ modelCalls: 0, byModel: {} });
      expect(await store.db.selectFrom("usage_rollups").selectAll().execute()).toEqual([]);
    } finally {
      await store.close();
    }
  });
});

// Processes sharing a database: another store opened on the same file or server.
describe.each(fixtures.filter((fixture) => fixture.persistent))(
  "a tenant's days on $label, read by several processes",
  (fixture) => {
    test("each day over is summed once into a row per agent and model, which a read then takes for its hours", async () => {
      const target = await fixture.fresh();
      const store = await openStore(target);
      try {
        const now = await store.now();
        const yesterday = dayOf(now - 2 * HOUR) - DAY;
        await hoursOfCalls(store, [
          { hour: yesterday + 3 * HOUR, agent: "desk/writer", model: "test:a", calls: 2 },
          { hour: yesterday + 3 * HOUR, agent: "desk/writer", model: "test:a", calls: 3, slot: 5 },
          { hour: yesterday + 22 * HOUR, agent: "desk/writer", model: "test:a", calls: 5 },
          { hour: yesterday + 22 * HOUR, agent: "desk/reader", model: "test:b", calls: 1 },
        ]);
        expect((await tenantUsage(store, "default", { since: yesterday })).modelCalls).toBe(11);
        const days = await store.db
          .selectFrom("usage_days")
          .select(["day", "agent", "model", "model_calls", "input_tokens"])
          .orderBy("agent")
          .execute();
        expect(
          days.map((row) => ({
            ...row,
            day: Number(row.day),
            model_calls: Number(row.model_calls),
            input_tokens: Number(row.input_tokens),
          })),
        ).toEqual([
          { day: yesterday, agent: "desk/reader", model: "test:b", model_calls: 1, input_tokens: 10 },
          { day: yesterday, agent: "desk/writer", model: "test:a", model_calls: 10, input_tokens: 100 },
        ]);
        const mark = await store.db
          .selectFrom("usage_rollups")
          .select(["tenant", "through"])
          .executeTakeFirstOrThrow();
        expect({ ...mark, through: Number(mark.through) }).toEqual({
          tenant: "default",
          through: dayOf(now - HOUR),
        });

        // Another process (a store opened afresh) reads the day's row, not its hours, and sums
        // nothing again: a day over is its row from then on.
        await store.db
          .updateTable("usage_totals")
          .set({ model_calls: 100 })
          .where("hour", "<", dayOf(now - HOUR))
          .execute();
        const other = await openStore(target);
        try {
          expect((await tenantUsage(other, "default", { since: yesterday })).modelCalls).toBe(11);
          expect(await other.db.selectFrom("usage_days").select("day").execute()).toHaveLength(2);
        } finally {
          await other.close();
        }
      } finally {
        await store.close();
      }
    });

    test("processes that read a tenant's days at once make each day's row once", async () => {
      const target = await fixture.fresh();
      const stores = [await openStore(target), await openStore(target), await openStore(target)];
      try {
        const now = await stores[0]!.now();
        const today = dayOf(now - HOUR);
        const rows = [];
        for (let day = today - 20 * DAY; day < today; day += DAY) {
          rows.push({ hour: day + HOUR, agent: "desk/writer", model: "test:a", calls: 1 });
          rows.push({ hour: day + 2 * HOUR, agent: "desk/reader", model: "test:a", calls: 1 });
        }
        await hoursOfCalls(stores[0]!, rows);
        const reads = await Promise.all(
          stores.flatMap((store) => [
            tenantUsage(store, "default", { since: today - 20 * DAY }),
            tenantUsage(store, "default", { since: today - 10 * DAY, agent: "desk/reader" }),
          ]),
        );
        expect(reads.map((totals) => totals.modelCalls)).toEqual([40, 10, 40, 10, 40, 10]);
        const days = await stores[0]!.db
          .selectFrom("usage_days")
          .select(["day", "agent", "model_calls"])
          .execute();
        expect(days).toHaveLength(40);
        expect(days.every((row) => Number(row.model_calls) === 1)).toBe(true);
      } finally {
        await Promise.all(stores.map((store) => store.close()));
      }
    });
  },
);
