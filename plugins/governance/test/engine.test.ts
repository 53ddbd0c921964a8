// The governance plugin installed in a tenant, end to end on the offline test model: budgets
// stop a run before the call that would take it past a ceiling, and rate limits refuse the call
// past the rate. Each test works in its own tenant, so usage and windows do not mix.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type JobEvent, type JobView, pluginConfigKey, Runtime, tenantUsage } from "@oz0/runtime";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

/** The plugin's own folder, which runs its build (dist/, made by the tests' global setup). */
const GOVERNANCE = fileURLToPath(new URL("..", import.meta.url));
const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

let runtime: Runtime;
let home: string;
beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), "oz0-governance-"));
  runtime = await Runtime.open({ home, memory: true, defaultPlugins: [] });
});
afterAll(async () => {
  await runtime.close();
  await rm(home, { recursive: true, force: true });
});

/** A fresh tenant with the desk and governance plugins, and the governance config given. */
async function tenant(name: string, config?: object): Promise<string> {
  await runtime.catalog.install(name, fixture("desk"));
  await runtime.catalog.install(name, GOVERNANCE);
  if (config !== undefined) await configure(name, config);
  return name;
}

async function configure(name: string, config: object): Promise<void> {
  const key = pluginConfigKey("governance");
  await runtime.store.db.deleteFrom("settings").where("tenant", "=", name).where("key", "=", key).execute();
  await runtime.store.db
    .insertInto("settings")
    .values({ tenant: name, key, value: JSON.stringify(config), updated_at: Date.now() })
    .execute();
}

async function run(name: string, agent: string): Promise<{ job: JobView; events: JobEvent[] }> {
  const started = await runtime.jobs.start({ tenant: name, agent, input: "go" });
  const job = await runtime.jobs.run(started.id, { tenant: started.tenant });
  return { job, events: await runtime.jobs.events(job.id, { tenant: job.tenant }) };
}

function tokensOf(events: readonly JobEvent[]): number {
  return events.reduce(
    (sum, entry) =>
      entry.kind === "model_call" ? sum + entry.data.usage.input + entry.data.usage.output : sum,
    0,
  );
}

function denials(events: readonly JobEvent[]) {
  return events.filter((entry) => entry.kind === "governance_denied").map((entry) => entry.data);
}

describe("the budget", () => {
  test("stops a run at its job's token ceiling before the call that would pass it, so the job never goes over", async () => {
    const name = await tenant("job-tokens");
    const free = await run(name, "desk/writer");
    const ceiling = Math.floor(tokensOf(free.events) / 2);
    await configure(name, { budget: { job: { tokens: ceiling }, output_reserve: 40 } });
    const { job, events } = await run(name, "desk/writer");
    expect(job.failure).toMatchObject({ kind: "budget_exceeded", code: "POLICY_VIOLATION" });
    expect(tokensOf(events)).toBeLessThanOrEqual(ceiling);
    const [denied] = denials(events);
    expect(denied).toMatchObject({
      hook: "pre_llm_call",
      plugin: "governance",
      contract_id: "budget",
      reason: "Token ceiling exceeded",
      details: { scope: "job", ceiling, used: tokensOf(events) },
    });
    const { requested, remaining } = denied!.details as { requested: number; remaining: number };
    expect(requested).toBeGreaterThan(remaining);
    expect(events.at(-1)?.kind).toBe("job_failed");
  });

  test("counts an agent's earlier jobs within its period against the agent's ceiling", async () => {
    const name = await tenant("agent-tokens");
    await run(name, "desk/reader");
    const one = await tenantUsage(runtime.store, name, { since: 0, agent: "desk/reader" });
    const perJob = one.inputTokens + one.outputTokens;
    await configure(name, {
      budget: {
        agents: { "desk/reader": { tokens: perJob * 3, period: "day" } },
        output_reserve: one.outputTokens,
      },
    });
    expect((await run(name, "desk/reader")).job.status).toBe("succeeded");
    expect((await run(name, "desk/reader")).job.status).toBe("succeeded");
    const fourth = await run(name, "desk/reader");
    expect(fourth.job.failure?.kind).toBe("budget_exceeded");
    expect(denials(fourth.events)[0]).toMatchObject({
      details: { scope: "agent", period: "day", used: perJob * 3 },
    });
    // Another agent of the tenant has a budget of its own.
    expect((await run(name, "desk/writer")).job.status).toBe("succeeded");
  });

  test("counts every agent's calls against the tenant's ceiling over its period", async () => {
    const name = await tenant("tenant-tokens");
    await run(name, "desk/writer");
    const used = await tenantUsage(runtime.store, name, { since: 0 });
    await configure(name, { budget: { tenant: { tokens: used.inputTokens + used.outputTokens + 1 } } });
    const { job, events } = await run(name, "desk/reader");
    expect(job.failure?.kind).toBe("budget_exceeded");
    expect(denials(events)[0]).toMatchObject({ details: { scope: "tenant", period: "month" } });
  });

  test("prices each call for a cost ceiling, and refuses the call that would pass it", async () => {
    const name = await tenant("job-cost");
    // At 1,000 US dollars a million tokens, a token costs a tenth of a cent.
    const usd = (tokens: number) => tokens / 1000;
    const ceiling = usd(Math.floor(tokensOf((await run(name, "desk/writer")).events) / 2));
    await configure(name, {
      budget: { job: { usd: ceiling }, prices: { test: { input: 1000, output: 1000 } }, output_reserve: 40 },
    });
    const { job, events } = await run(name, "desk/writer");
    expect(job.failure?.kind).toBe("budget_exceeded");
    expect(denials(events)[0]).toMatchObject({
      reason: "Cost ceiling exceeded",
      details: { scope: "job", ceiling },
    });
    expect(tokensOf(events)).toBeGreaterThan(0);
    expect(usd(tokensOf(events))).toBeLessThanOrEqual(ceiling);
  });

  test("refuses a call it cannot price when a cost ceiling is set", async () => {
    const name = await tenant("no-price", { budget: { job: { usd: 1 } } });
    const { job, events } = await run(name, "desk/reader");
    expect(job.failure?.kind).toBe("budget_exceeded");
    expect(denials(events)[0]?.reason).toMatch(/^Cost ceiling cannot be checked: no price for test:/);
  });
});

describe("the rate limit", () => {
  test("refuses the model call past its calls per minute", async () => {
    const name = await tenant("rate-models", { rate_limit: { calls_per_minute: 3 } });
    const { job, events } = await run(name, "desk/writer");
    expect(events.filter((entry) => entry.kind === "model_call")).toHaveLength(3);
    expect(job.failure).toMatchObject({ kind: "policy_denied" });
    expect(denials(events)).toEqual([
      {
        hook: "pre_llm_call",
        plugin: "governance",
        contract_id: "rate_limit",
        reason: "Rate limit exceeded: 3/min",
        details: { current_count: 3, calls: "model calls" },
        handler: "rate_limit",
      },
    ]);
  });

  test("refuses the function call past its tool calls per minute, and the model is told", async () => {
    const name = await tenant("rate-tools", { rate_limit: { tool_calls_per_minute: 2 } });
    const { job, events } = await run(name, "desk/writer");
    expect(job.status).toBe("succeeded");
    const results = events.filter((entry) => entry.kind === "tool_result").map((entry) => entry.data);
    expect(results.map((result) => result.ok)).toEqual([true, true, false, false, false]);
    expect(results[2]?.error).toMatchObject({
      code: "POLICY_VIOLATION",
      message: "rate_limit refused: Rate limit exceeded: 2/min",
    });
  });
});

describe("an unconfigured governance plugin", () => {
  test("registers no handler, so jobs record no governance events", async () => {
    const name = await tenant("unconfigured");
    const { job, events } = await run(name, "desk/writer");
    expect(job.status).toBe("succeeded");
    expect(
      events.filter((entry) => entry.kind.startsWith("governance_") || entry.kind === "hook_error"),
    ).toEqual([]);
  });

  test("with a config that does not parse refuses every model call instead of letting it through", async () => {
    const name = await tenant("broken", { budget: { job: { tokens: -5 } } });
    const { job, events } = await run(name, "desk/reader");
    expect(job.failure?.kind).toBe("budget_exceeded");
    expect(denials(events)[0]?.reason).toContain("budget.job.tokens");
  });
});
