// MemoryContext.summarizer: a memory provider summarizes with the model of the job whose call
// it serves, as one of the job's model calls: governed by its hooks, counted in its usage,
// recorded in its history and given back from there when the call runs again.
import { PolicyViolation } from "@oz0/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pluginHookSource } from "../../src/hooks/index.js";
import type { JobRun } from "../../src/jobs/job-run.js";
import type { AgentSetup } from "../../src/jobs/setup.js";
import { jobSummarizer } from "../../src/jobs/summarize.js";
import { MemoryProviders } from "../../src/memory/index.js";
import { Records } from "../../src/records/index.js";
import type { PartSource } from "../../src/tools/index.js";
import { tenantUsage } from "../../src/usage/index.js";
import { hookPlugin } from "../hooks/helpers.js";
import { type Harness, harness, ofKind, TENANT } from "../jobs/helpers.js";

let h: Harness;
let source: PartSource;
let providers: MemoryProviders;
beforeAll(async () => {
  h = await harness(["keeper"]);
  providers = new MemoryProviders(h.store);
  const records = new Records(h.store);
  source = Object.assign(Object.create(h.source) as PartSource, {
    memory: (tenant: string, plugin: string, name?: string) =>
      providers.provider(tenant, h.source.plugins.get(plugin)!, name),
    recordsOf: (tenant: string, plugin: string) => records.forPlugin(tenant, plugin),
  });
});
afterAll(() => h.close());

describe("the memory summarizer", () => {
  it("summarizes with the job's model inside a job's call, recorded as memory_summary and counted in the job's and the tenant's usage", async () => {
    const engine = h.engine({ source });
    const started = await engine.start({ tenant: TENANT, agent: "keeper/summarizer", input: "keep it" });
    const job = await engine.run(started.id, { tenant: TENANT });
    expect(job.status).toBe("succeeded");
    const events = await engine.events(job.id, { tenant: TENANT });
    const [summary] = ofKind(events, "memory_summary");
    expect(summary?.data).toMatchObject({
      callId: "1.1",
      index: 1,
      text: "Sampled: the printer on floor 2 jams every morning",
      usage: { input: expect.any(Number), output: expect.any(Number) },
    });
    // The summary is recorded before the provider stores it.
    expect(summary!.seq).toBeLessThan(ofKind(events, "tool_result")[0]!.seq);
    expect(ofKind(events, "tool_result")[0]?.data).toMatchObject({
      ok: true,
      result: { content: "Sampled: the printer on floor 2 jams every morning" },
    });
    const usage = await tenantUsage(h.store, TENANT, { since: 0, agent: "keeper/summarizer" });
    expect(usage.modelCalls).toBe(3);
  });

  it("passes the job's pre_llm_call: a refusal fails the tool's call, and nothing is summarized or stored", async () => {
    const guard = hookPlugin("budget", (host) => {
      host.addHook({
        name: "budget",
        build: () => ({
          // The summary's request offers no functions; the agent's steps offer notes__keep.
          pre_llm_call: (p) => {
            if (p.tools.length === 0) throw new PolicyViolation("budget", "Token ceiling exceeded");
          },
        }),
      });
    });
    const engine = h.engine({ source, hooks: pluginHookSource([guard]) });
    const started = await engine.start({ tenant: TENANT, agent: "keeper/summarizer", input: "keep it" });
    const job = await engine.run(started.id, { tenant: TENANT });
    const events = await engine.events(job.id, { tenant: TENANT });
    expect(ofKind(events, "memory_summary")[0]?.data).toMatchObject({
      callId: "1.1",
      refused: expect.stringContaining("Token ceiling exceeded"),
    });
    expect(ofKind(events, "tool_result")[0]?.data).toMatchObject({
      ok: false,
      error: { code: "POLICY_VIOLATION" },
    });
    expect(
      events.some((entry) => entry.kind === "governance_denied" && entry.data.contract_id === "budget"),
    ).toBe(true);
  });

  it("gives a call run again its recorded summaries back, in order, without calling the model", async () => {
    const asked: string[] = [];
    const run = {
      row: { id: "job-1", tenant: TENANT, plugin: "keeper", name: "summarizer" },
      history: { summaries: new Map([["1.1", ["the recorded summary"]]]), steps: 1, tokensUsed: 0 },
      hooks: undefined,
      signal: new AbortController().signal,
    } as unknown as JobRun;
    const setup = {
      limits: { max_tokens: 1000 },
      model: {
        id: "test:x",
        generate: async (request: { messages: { content: unknown }[] }) => {
          asked.push(String(request.messages.at(-1)?.content));
          throw new Error("the model was called");
        },
      },
    } as unknown as AgentSetup;
    const summarize = jobSummarizer(run, setup, "1.1");
    expect(await summarize("the printer jams")).toBe("the recorded summary");
    expect(asked).toEqual([]);
    // The call's second summary was never recorded: that one is asked of the model.
    await expect(summarize("the printer jams again")).rejects.toThrow("the model was called");
    expect(asked).toEqual(["the printer jams again"]);
  });

  it("is refused outside a job's call, where no job governs and records it", async () => {
    const provider = (await providers.provider(TENANT, h.source.plugins.get("keeper")!)) as unknown as {
      summarize(text: string): Promise<string>;
    };
    await expect(provider.summarize("a note")).rejects.toMatchObject({
      code: "INVALID_INPUT",
      message: expect.stringContaining("summarizes only inside a job's function call"),
    });
  });
});
