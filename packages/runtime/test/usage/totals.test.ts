// Model-call usage: totals per tenant, agent, model and hour, kept in the write of each
// model_call, which budgets read over any period.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { hourOf, JobUsage, tenantUsage } from "../../src/usage/index.js";
import { type Harness, harness, ofKind, TENANT } from "../jobs/helpers.js";

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

describe("usage totals", () => {
  test("count every model call of the tenant in the write that records it, by agent and model", async () => {
    const before = await tenantUsage(h.store, TENANT, { since: 0 });
    const { events } = await h.run("helpdesk/triage", "ticket 7");
    const calls = ofKind(events, "model_call");
    const after = await tenantUsage(h.store, TENANT, { since: 0 });
    const input = calls.reduce((sum, call) => sum + call.data.usage.input, 0);
    const output = calls.reduce((sum, call) => sum + call.data.usage.output, 0);
    expect(after.modelCalls - before.modelCalls).toBe(3);
    expect(after.inputTokens - before.inputTokens).toBe(input);
    expect(after.outputTokens - before.outputTokens).toBe(output);
    const model = calls[0]!.data.model;
    expect(after.byModel[model]?.modelCalls).toBe((before.byModel[model]?.modelCalls ?? 0) + 3);
  });

  test("of one agent leave the other agents' calls out", async () => {
    const triage = await tenantUsage(h.store, TENANT, { since: 0, agent: "helpdesk/triage" });
    await h.run("helpdesk/early", "ticket 7");
    expect(await tenantUsage(h.store, TENANT, { since: 0, agent: "helpdesk/triage" })).toEqual(triage);
    expect((await tenantUsage(h.store, TENANT, { since: 0, agent: "helpdesk/early" })).modelCalls).toBe(1);
  });

  test("since a time count the calls of its hour and later", async () => {
    const now = await h.store.now();
    const all = await tenantUsage(h.store, TENANT, { since: 0 });
    expect(await tenantUsage(h.store, TENANT, { since: now })).toEqual(all);
    expect((await tenantUsage(h.store, TENANT, { since: hourOf(now) + 3_600_000 })).modelCalls).toBe(0);
    expect((await tenantUsage(h.store, "nobody", { since: 0 })).modelCalls).toBe(0);
  });

  test("of a job add its calls by model, and its totals are built again only after a change", () => {
    const usage = new JobUsage();
    usage.add([
      { model: "test:a", input: 10, output: 2, costUsd: 0.01 },
      { model: "test:b", input: 5, output: 1, costUsd: 0 },
      { model: "test:a", input: 1, output: 1, costUsd: 0.02 },
    ]);
    const totals = usage.totals();
    expect(totals).toEqual({
      inputTokens: 16,
      outputTokens: 4,
      modelCalls: 3,
      costUsd: 0.03,
      byModel: {
        "test:a": { inputTokens: 11, outputTokens: 3, modelCalls: 2, costUsd: 0.03 },
        "test:b": { inputTokens: 5, outputTokens: 1, modelCalls: 1, costUsd: 0 },
      },
    });
    expect(usage.totals()).toBe(totals);
  });
});
