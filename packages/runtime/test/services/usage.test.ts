// Usage as the governance page reads it: the totals the store keeps per agent, model and hour,
// summed per agent, per model or per UTC day since a time; a caller limited to some agents is
// told only of its agents' calls, in every grouping.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Caller, localAdmin } from "../../src/callers/index.js";
import { Runtime } from "../../src/runtime.js";

const SCOPED = join(import.meta.dirname, "../fixtures/services/scoped");
const HOUR = 3_600_000;
/** 2026-03-01T00:00Z: the first day counted. */
const DAY_ONE = Date.UTC(2026, 2, 1);

let home: string;
let runtime: Runtime;
const admin = localAdmin("default", "cli:admin");
const ops: Caller = { tenant: "default", actor: "key:ops", role: "viewer", agents: ["tag:ops"] };

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), "oz0-usage-"));
  runtime = await Runtime.open({ home, memory: true, defaultPlugins: [] });
  await runtime.services.plugins.install(admin, SCOPED);
  const row = (agent: string, model: string, hour: number, input: number, output: number, cost: number) => ({
    tenant: "default",
    agent,
    model,
    hour,
    input_tokens: input,
    output_tokens: output,
    model_calls: 1,
    cost_usd: cost,
  });
  await runtime.store.db
    .insertInto("usage_totals")
    .values([
      // Before the period asked about: counted nowhere.
      row("scoped/deploy", "m-small", DAY_ONE - 2 * HOUR, 1000, 1000, 1),
      row("scoped/deploy", "m-small", DAY_ONE + HOUR, 10, 5, 0.25),
      row("scoped/deploy", "m-large", DAY_ONE + 25 * HOUR, 20, 10, 0.5),
      row("scoped/payroll", "m-large", DAY_ONE + 2 * HOUR, 100, 50, 2),
    ])
    .execute();
});
afterAll(async () => {
  await runtime.close();
  await rm(home, { recursive: true, force: true });
});

describe("usage per agent, model and day", () => {
  it("sums cost and tokens per agent, per model and per UTC day since the hour asked", async () => {
    const byAgent = await runtime.services.usage.report(admin, { by: "agent", since: DAY_ONE + 10 });
    expect(byAgent.since).toBe(DAY_ONE);
    expect(byAgent.rows.map((row) => [row.key, row.inputTokens, row.outputTokens, row.costUsd])).toEqual([
      ["scoped/deploy", 30, 15, 0.75],
      ["scoped/payroll", 100, 50, 2],
    ]);
    expect(byAgent.total).toEqual({ inputTokens: 130, outputTokens: 65, modelCalls: 3, costUsd: 2.75 });
    const byModel = await runtime.services.usage.report(admin, { by: "model", since: DAY_ONE });
    expect(byModel.rows.map((row) => [row.key, row.modelCalls, row.costUsd])).toEqual([
      ["m-large", 2, 2.5],
      ["m-small", 1, 0.25],
    ]);
    const byDay = await runtime.services.usage.report(admin, { by: "day", since: DAY_ONE });
    expect(byDay.rows.map((row) => [row.key, row.costUsd])).toEqual([
      ["2026-03-01", 2.25],
      ["2026-03-02", 0.5],
    ]);
  });

  it("tells a caller limited to some agents only of its agents' calls, in every grouping", async () => {
    const byAgent = await runtime.services.usage.report(ops, { by: "agent", since: DAY_ONE });
    expect(byAgent.rows.map((row) => row.key)).toEqual(["scoped/deploy"]);
    expect(byAgent.total.costUsd).toBe(0.75);
    const byModel = await runtime.services.usage.report(ops, { by: "model", since: DAY_ONE });
    expect(byModel.rows.map((row) => [row.key, row.costUsd])).toEqual([
      ["m-large", 0.5],
      ["m-small", 0.25],
    ]);
    const byDay = await runtime.services.usage.report(ops, { by: "day", since: DAY_ONE });
    expect(byDay.rows.map((row) => [row.key, row.costUsd])).toEqual([
      ["2026-03-01", 0.25],
      ["2026-03-02", 0.5],
    ]);
  });
});
