// The budget contract on its own: which usage it reads for each ceiling, and what it refuses.
import type { HookPayload } from "@oz0/sdk";
import { describe, expect, test } from "vitest";
import { BudgetGovernance, periodStart } from "../src/index.js";

type Payload = HookPayload<"pre_llm_call">;
type Totals = NonNullable<Payload["usage"]>["job"];

const NOW = Date.UTC(2026, 3, 11, 13, 0, 31);

function totals(input: number, output: number, byModel: Totals["byModel"] = {}): Totals {
  return { inputTokens: input, outputTokens: output, modelCalls: 1, costUsd: 0, byModel };
}

/** A pre_llm_call payload with `estimate` prompt tokens; the tenant's usage answers from `tenant`. */
function payload(
  estimate: number,
  job: Totals,
  tenant: (query: { since: number; agent?: string }) => Totals = () => totals(0, 0),
  queries: unknown[] = [],
): Payload {
  return {
    hook: "pre_llm_call",
    tenant: "default",
    jobId: "job-1",
    agent: "desk/writer",
    step: 2,
    model: "openai:gpt-4o",
    messages: [],
    tools: [],
    settings: {},
    estimatedInputTokens: estimate,
    usage: {
      job,
      tenant: async (query) => {
        queries.push(query);
        return tenant(query);
      },
    },
  };
}

async function refusal(
  budget: BudgetGovernance,
  call: Payload,
): Promise<{ reason: string; details: object }> {
  try {
    await budget.on_pre_llm_call(call);
  } catch (error) {
    return error as { reason: string; details: object };
  }
  throw new Error("the budget let the call through");
}

describe("BudgetGovernance", () => {
  test("is the budget contract, with plugin ID budget_governance@v1", () => {
    expect(BudgetGovernance.contractId).toBe("budget");
    expect(BudgetGovernance.pluginId).toBe("budget_governance@v1");
  });

  test("refuses a call whose prompt estimate and reply reserve would take the job past its token ceiling", async () => {
    const budget = new BudgetGovernance({ job: { tokens: 1000 }, output_reserve: 100 });
    const error = await refusal(budget, payload(150, totals(700, 60)));
    expect(error).toMatchObject({
      contractId: "budget",
      reason: "Token ceiling exceeded",
      details: { scope: "job", ceiling: 1000, used: 760, requested: 250, remaining: 240 },
    });
  });

  test("lets a call through that fits its ceiling exactly", async () => {
    const budget = new BudgetGovernance({ job: { tokens: 1000 }, output_reserve: 100 });
    await expect(budget.on_pre_llm_call(payload(140, totals(700, 60)))).resolves.toBeUndefined();
  });

  test("reserves 512 reply tokens for a call when the config does not say", async () => {
    const budget = new BudgetGovernance({ job: { tokens: 1000 } });
    expect((await refusal(budget, payload(489, totals(0, 0)))).details).toMatchObject({ requested: 1001 });
  });

  test("reads an agent's usage since the start of its period, a day by default", async () => {
    const queries: unknown[] = [];
    const budget = new BudgetGovernance({ agent: { tokens: 500 }, output_reserve: 0 }, { now: () => NOW });
    const error = await refusal(
      budget,
      payload(100, totals(0, 0), () => totals(400, 50), queries),
    );
    expect(queries).toEqual([{ since: Date.UTC(2026, 3, 11), agent: "desk/writer" }]);
    expect(error.details).toMatchObject({ scope: "agent", period: "day", used: 450 });
  });

  test("takes an agent's own ceiling in place of the default one", async () => {
    const budget = new BudgetGovernance(
      {
        agent: { tokens: 10 },
        agents: { "desk/writer": { tokens: 10_000, period: "hour" } },
        output_reserve: 0,
      },
      { now: () => NOW },
    );
    const queries: unknown[] = [];
    await budget.on_pre_llm_call(payload(100, totals(0, 0), () => totals(400, 50), queries));
    expect(queries).toEqual([{ since: Date.UTC(2026, 3, 11, 13), agent: "desk/writer" }]);
  });

  test("reads the tenant's usage since the start of the month by default", async () => {
    const queries: unknown[] = [];
    const budget = new BudgetGovernance({ tenant: { tokens: 100 }, output_reserve: 0 }, { now: () => NOW });
    const error = await refusal(
      budget,
      payload(10, totals(0, 0), () => totals(95, 0), queries),
    );
    expect(queries).toEqual([{ since: Date.UTC(2026, 3, 1) }]);
    expect(error.details).toMatchObject({ scope: "tenant", period: "month" });
  });

  test("prices calls by provider:model, or by provider, and counts a provider's reported cost for a model it has no price for", async () => {
    const budget = new BudgetGovernance({
      job: { usd: 1 },
      prices: { "openai:gpt-4o": { input: 2.5, output: 10 }, anthropic: { input: 3, output: 15 } },
      output_reserve: 1000,
    });
    const used = totals(0, 0, {
      "openai:gpt-4o": { inputTokens: 100_000, outputTokens: 10_000, modelCalls: 2, costUsd: 0 },
      "anthropic:claude": { inputTokens: 50_000, outputTokens: 0, modelCalls: 1, costUsd: 0 },
      "other:model": { inputTokens: 1, outputTokens: 1, modelCalls: 1, costUsd: 0.1 },
    });
    // 0.25 + 0.1 + 0.15 + 0.1 spent; the call: 20,000 × 2.5 + 1,000 × 10 per million = 0.06.
    await expect(budget.on_pre_llm_call(payload(20_000, used))).resolves.toBeUndefined();
    const error = await refusal(budget, payload(200_000, used));
    expect(error).toMatchObject({
      reason: "Cost ceiling exceeded",
      details: { scope: "job", ceiling: 1, used: 0.6, requested: 0.51, remaining: 0.4 },
    });
  });

  test("refuses a call it cannot price when a cost ceiling is set", async () => {
    const budget = new BudgetGovernance({ job: { usd: 1 } });
    expect((await refusal(budget, payload(10, totals(0, 0)))).reason).toBe(
      "Cost ceiling cannot be checked: no price for openai:gpt-4o",
    );
  });

  test("counts a call's estimatedCostUsd (a remote agent's task) in place of a price for its model", async () => {
    const budget = new BudgetGovernance({ tenant: { usd: 1 } }, { now: () => NOW });
    const used = () =>
      totals(0, 0, {
        "a2a:partner/painter": { inputTokens: 0, outputTokens: 0, modelCalls: 3, costUsd: 0.75 },
      });
    const task = (usd: number): Payload => ({
      ...payload(5, totals(0, 0), used),
      model: "a2a:partner/painter",
      estimatedCostUsd: usd,
    });
    await expect(budget.on_pre_llm_call(task(0.25))).resolves.toBeUndefined();
    expect(await refusal(budget, task(0.3))).toMatchObject({
      reason: "Cost ceiling exceeded",
      details: { scope: "tenant", ceiling: 1, used: 0.75, requested: 0.3, remaining: 0.25 },
    });
  });

  test("counts nothing used when the payload carries no usage", async () => {
    const budget = new BudgetGovernance({ job: { tokens: 100 }, output_reserve: 0 });
    const { usage: _usage, ...bare } = payload(50, totals(0, 0));
    await expect(budget.on_pre_llm_call(bare)).resolves.toBeUndefined();
  });

  test("is active only with a ceiling set", () => {
    expect(new BudgetGovernance({}).active).toBe(false);
    expect(new BudgetGovernance({ prices: {} }).active).toBe(false);
    expect(new BudgetGovernance({ agents: { "a/b": { usd: 1 } } }).active).toBe(true);
  });
});

describe("periodStart", () => {
  test("begins an hour, a day and a month in UTC", () => {
    expect(periodStart("hour", NOW)).toBe(Date.UTC(2026, 3, 11, 13));
    expect(periodStart("day", NOW)).toBe(Date.UTC(2026, 3, 11));
    expect(periodStart("month", NOW)).toBe(Date.UTC(2026, 3, 1));
  });
});
