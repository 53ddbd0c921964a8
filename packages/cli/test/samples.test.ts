// The sample tool library from the command line: `oz0 run samples/trip-planner` on the offline
// model, whose agent names each sample tool by its kind: Tool manifest, and the tools called
// by hand and listed in the catalog.
import { fileURLToPath } from "node:url";
import type { CatalogEntry } from "@oz0/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { oz0, tempHome } from "./run-cli.js";

const SAMPLES = fileURLToPath(new URL("../../../plugins/samples", import.meta.url));

interface TraceEvent {
  seq: number;
  kind: string;
  data: Record<string, unknown>;
}

let home: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ home, cleanup } = await tempHome());
  const installed = await oz0(["plugin", "install", SAMPLES, "--home", home]);
  expect(installed.stderr).toBe("");
});
afterAll(() => cleanup());

const run = (...args: string[]) => oz0([...args, "--home", home]);

describe("the samples plugin from the command line", () => {
  it("runs samples/trip-planner on the offline model, each sample tool named by its manifest answering", async () => {
    const job = (await run("run", "samples/trip-planner", "Plan my Friday in Lisbon", "--json")).json<{
      id: string;
      status: string;
      output: string;
    }>();
    expect(job.status).toBe("succeeded");
    expect(job.output).toMatch(/^Friday 2026-05-15 in Lisbon\. Morning: Gulbenkian Museum/);
    const trace = (await run("job", "trace", job.id, "--json")).json<TraceEvent[]>();
    const calls = trace
      .filter((event) => event.kind === "tool_call")
      .map((event) => [event.data.name, event.data.address]);
    expect(calls).toEqual([
      ["memory_search__search", "samples/memory_search.search"],
      ["memory_get__get", "samples/memory_get.get"],
      ["get_attractions__lookup", "samples/get_attractions.lookup"],
      ["get_schedule__lookup", "samples/get_schedule.lookup"],
      ["web_search__search", "samples/web_search.search"],
      ["verify_fact__verify", "samples/verify_fact.verify"],
    ]);
    const results = trace.filter((event) => event.kind === "tool_result").map((event) => event.data);
    expect(results.map((data) => data.ok)).toEqual([true, true, true, true, true, true]);
    expect(results[1]?.result).toMatchObject({ key: "traveller/diet", found: true });
    expect(results[2]?.result).toMatchObject({
      attractions: [{ name: "Gulbenkian Museum" }, { name: "National Tile Museum (MNAz)" }],
    });
    expect(results[5]?.result).toMatchObject({ verdict: "supported" });
    const assembled = trace.find((event) => event.kind === "context_assembled");
    expect(assembled?.data.functions).toEqual(calls.map(([name]) => name));
  });

  it("calls a sample tool by hand by its address", async () => {
    const result = await run(
      "tool",
      "call",
      "samples/get_attractions.lookup",
      "--args",
      '{"city": "Porto", "limit": 1}',
    );
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      city: "Porto",
      count: 3,
      attractions: [{ name: "Jardins do Palácio de Cristal" }],
    });
  });

  it("calls a sample tool by hand by its manifest", async () => {
    const result = await run(
      "tool",
      "call",
      "samples:tools/verify-fact.tool.yaml",
      "--args",
      '{"claim": "Lisbon is the capital of Spain"}',
      "--json",
    );
    expect(result.json()).toMatchObject({
      address: "samples/verify_fact.verify",
      ok: true,
      result: { verdict: "refuted" },
    });
  });

  it("lists the sample tools in the catalog with the names a model sees", async () => {
    const entries = (await run("catalog", "--json")).json<CatalogEntry[]>();
    const functions = entries.filter((entry) => entry.kind === "function" && entry.plugin === "samples");
    expect(functions.map((entry) => [entry.address, entry.modelName])).toEqual([
      ["samples/get_attractions.lookup", "get_attractions__lookup"],
      ["samples/get_schedule.lookup", "get_schedule__lookup"],
      ["samples/memory_get.get", "memory_get__get"],
      ["samples/memory_search.search", "memory_search__search"],
      ["samples/verify_fact.verify", "verify_fact__verify"],
      ["samples/web_search.search", "web_search__search"],
    ]);
  });
});
