// What a budget's read of the tenant's totals costs as its period fills: the read a governed
// model call makes (`usage.tenant({ since })`) over 1, 10 and 30 days of history, each hour with
// calls of ten agents and three models (on PostgreSQL spread over four of each hour's slots, as
// jobs writing at once leave them), on a SQLite file and on PostgreSQL when a server answers at
// OZ0_BENCH_DATABASE_URL; and the usage report's read of the same period (GET /v1/t/{tenant}/usage, the
// console's governance page). Every read is checked against the calls the history holds. Run it with
// `npm run bench`.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore, type Store, tenantUsage } from "@oz0/runtime";
import { usageRecords } from "../packages/runtime/src/usage/index.js";
import { postgresDatabase } from "./postgres.js";

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const PERIODS = [1, 10, 30];
const AGENTS = 10;
const MODELS = 3;
const READS = 300;
const REPORTS = 15;

/** Tenant `name` with `days` days of calls up to this hour: one call per agent, model, hour and slot. */
async function history(store: Store, name: string, days: number, slots: number): Promise<number> {
  await store.db.insertInto("tenants").values({ name, created_at: Date.now() }).execute();
  const thisHour = Math.floor(Date.now() / HOUR_MS) * HOUR_MS;
  const first = Math.floor(Date.now() / DAY_MS) * DAY_MS - (days - 1) * DAY_MS;
  const rows = [];
  for (let hour = first; hour <= thisHour; hour += HOUR_MS) {
    for (let agent = 0; agent < AGENTS; agent++) {
      for (let model = 0; model < MODELS; model++) {
        for (let slot = 0; slot < slots; slot++) {
          rows.push({
            tenant: name,
            agent: `desk/a${agent}`,
            model: `test:m${model}`,
            hour,
            slot,
            input_tokens: 10,
            output_tokens: 1,
            model_calls: 1,
            cost_usd: 0,
          });
        }
      }
    }
  }
  for (let at = 0; at < rows.length; at += 500) {
    await store.db
      .insertInto("usage_totals")
      .values(rows.slice(at, at + 500))
      .execute();
  }
  return rows.length;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** The figures of a store `open` opens, and of another process's first read (a store opened anew). */
async function measure(label: string, open: () => Promise<Store>, slots: number): Promise<void> {
  const store = await open();
  try {
    await measureOn(label, store, open, slots);
  } finally {
    await store.close();
  }
}

async function measureOn(
  label: string,
  store: Store,
  open: () => Promise<Store>,
  slots: number,
): Promise<void> {
  const figures: {
    days: number;
    rows: number;
    first: number;
    later: number;
    read: number;
    report: number;
  }[] = [];
  for (const days of PERIODS) {
    const tenant = `bench-${days}`;
    const rows = await history(store, tenant, days, slots);
    const since = Math.floor(Date.now() / DAY_MS) * DAY_MS - (days - 1) * DAY_MS;
    const read = async (by = store) => {
      const t0 = performance.now();
      const totals = await tenantUsage(by, tenant, { since });
      const us = (performance.now() - t0) * 1000;
      if (totals.modelCalls !== rows)
        throw new Error(`${label}, ${days} days: read ${totals.modelCalls} of ${rows} calls`);
      return us;
    };
    const first = await read();
    const times: number[] = [];
    for (let round = 0; round < READS; round++) times.push(await read());
    const reports: number[] = [];
    for (let round = 0; round < REPORTS; round++) {
      const t0 = performance.now();
      const records = await usageRecords(store, tenant, since);
      reports.push((performance.now() - t0) * 1000);
      const calls = records.reduce((sum, record) => sum + record.modelCalls, 0);
      if (calls !== rows)
        throw new Error(`${label}, ${days} days: the report read ${calls} of ${rows} calls`);
    }
    const other = await open();
    let later: number;
    try {
      later = await read(other);
    } finally {
      await other.close();
    }
    figures.push({ days, rows, first, later, read: median(times), report: median(reports) });
  }
  for (const { days, rows, first, later, read, report } of figures) {
    console.log(
      `${label.padEnd(12)}${String(days).padStart(5)}${String(rows).padStart(9)}${first.toFixed(0).padStart(12)}${later.toFixed(0).padStart(15)}${read.toFixed(0).padStart(10)}${report.toFixed(0).padStart(10)}`,
    );
  }
  const [early, late] = [figures[0]!, figures.at(-1)!];
  console.log(
    `${label}: ${late.days} days' read / ${early.days} day's: ${(late.read / early.read).toFixed(2)}×; the report's ${(late.report / early.report).toFixed(2)}×`,
  );
}

async function main(): Promise<void> {
  console.log(
    `a budget's read of a month's totals (usage.tenant), ${AGENTS} agents × ${MODELS} models with calls every hour, µs: a process's first read, the next process's, the median of ${READS} reads; the usage report's read of the same period, median of ${REPORTS}`,
  );
  console.log(
    `${"store".padEnd(12)}${"days".padStart(5)}${"rows".padStart(9)}${"first read".padStart(12)}${"next process's".padStart(15)}${"a read".padStart(10)}${"report".padStart(10)}`,
  );
  const home = await mkdtemp(join(tmpdir(), "oz0-bench-usage-"));
  try {
    await measure("SQLite file", () => openStore({ home }), 1);
  } finally {
    await rm(home, { recursive: true, force: true });
  }
  const database = await postgresDatabase();
  if (database === undefined) {
    console.log("no PostgreSQL answers (OZ0_BENCH_DATABASE_URL): its figures are left out");
    return;
  }
  try {
    await measure("PostgreSQL", () => openStore({ databaseUrl: database.url }), 4);
  } finally {
    await database.drop();
  }
}

await main();
