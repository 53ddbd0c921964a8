// The plugin object: what it registers, the handlers each config calls for, and its manifest.
import { readFile } from "node:fs/promises";
import { parsePluginManifest } from "@oz0/sdk";
import { buildHookHandlers, capabilityMismatch } from "@oz0/sdk/internal";
import { loadPluginForTest } from "@oz0/sdk/testing";
import { describe, expect, test } from "vitest";
import { configIssues, createGovernancePlugin, DEFAULT_CONFIG } from "../src/index.js";

async function handlers(config: unknown): Promise<string[]> {
  const host = await loadPluginForTest(createGovernancePlugin(), { pluginId: "governance" });
  const names: string[] = [];
  for (const registration of host.registrations("hook")) {
    const built = await buildHookHandlers(registration.spec, {
      pluginId: "governance",
      config: config as Record<string, unknown>,
    });
    for (const hook of Object.keys(built)) names.push(`${registration.name}:${hook}`);
  }
  return names;
}

describe("the governance plugin", () => {
  test("registers its config and the budget and rate_limit hooks, as its manifest says", async () => {
    const host = await loadPluginForTest(createGovernancePlugin(), { pluginId: "governance" });
    expect(host.kinds()).toEqual(["admin", "hook"]);
    expect(host.registrations("hook").map((registration) => registration.name)).toEqual([
      "budget",
      "rate_limit",
    ]);
    const manifest = parsePluginManifest(await readFile(new URL("../plugin.yaml", import.meta.url), "utf8"), {
      file: "plugin.yaml",
    });
    expect(capabilityMismatch(manifest.capabilities ?? [], host.registrations())).toEqual({
      undeclared: [],
      unregistered: [],
    });
  });

  test("registers no handler with its default config", async () => {
    expect(await handlers(DEFAULT_CONFIG)).toEqual([]);
  });

  test("registers a handler for each check its config sets", async () => {
    expect(await handlers({ budget: { job: { tokens: 10 } }, rate_limit: { calls_per_minute: 5 } })).toEqual([
      "budget:pre_llm_call",
      "rate_limit:pre_llm_call",
    ]);
    expect(await handlers({ rate_limit: { tool_calls_per_minute: 5 } })).toEqual([
      "rate_limit:pre_tool_call",
    ]);
  });

  test("reports each problem of a config with its path", () => {
    expect(configIssues(DEFAULT_CONFIG)).toEqual([]);
    expect(configIssues({ budget: { job: { tokens: 0 }, tenant: { period: "week" } }, extra: 1 })).toEqual([
      { path: "budget.job.tokens", message: expect.any(String) },
      { path: "budget.tenant.period", message: expect.any(String) },
      { path: "", message: expect.stringContaining("extra") },
    ]);
  });
});
