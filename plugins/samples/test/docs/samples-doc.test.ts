// docs/samples.md is generated from the samples plugin; these tests keep the two equal and run
// its examples through oz0.
import { readFileSync } from "node:fs";
import { loadPluginDir } from "@oz0/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SAMPLE_TOOLS } from "../../src/index.js";
import { openSamples, SAMPLES_DIR, type Samples } from "../helpers.js";
import { renderSamplesDoc } from "./render.js";

const DOC = new URL("../../../../docs/samples.md", import.meta.url);
/** What a memory hit's score shows in the docs: its value depends on the database. */
const RANK = "(the database's rank)";

let samples: Samples;
beforeAll(async () => {
  samples = await openSamples();
});
afterAll(() => samples.close());

/** `value` with every `score` number shown as the docs show it. */
function withRanks(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withRanks);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key,
      key === "score" && typeof inner === "number" ? RANK : withRanks(inner),
    ]),
  );
}

describe("docs/samples.md", () => {
  it("is generated from the manifests and the tools' metadata (vitest -u rewrites it)", async () => {
    const loaded = await loadPluginDir(SAMPLES_DIR);
    await expect(renderSamplesDoc(loaded.toolManifests)).toMatchFileSnapshot(DOC.pathname);
  });

  it("has the spec's tool summary table, one row per sample tool, matching the metadata", () => {
    const text = readFileSync(DOC, "utf8");
    const rows = [...text.matchAll(/^\| (\w+) \| `([a-z_]+)` \| ([^|]+) \| ([^|]+) \| ([^|]+) \|$/gm)].map(
      (m) => m.slice(1).map((cell) => cell.trim()),
    );
    expect(rows).toEqual(
      SAMPLE_TOOLS.map((info) => [
        info.specName,
        info.id,
        info.keyOperations,
        info.externalDeps,
        info.governance,
      ]),
    );
    expect(rows.map((row) => row[0])).toEqual([
      "WebSearchTool",
      "VerifyFactTool",
      "MemorySearchTool",
      "MemoryGetTool",
      "GetScheduleTool",
      "GetAttractionsTool",
    ]);
  });

  it("shows examples whose results are what the tools return through oz0", async () => {
    let checked = 0;
    for (const info of SAMPLE_TOOLS) {
      expect(info.examples.length, info.id).toBeGreaterThan(0);
      for (const example of info.examples) {
        const ref = `samples:${info.manifest}`;
        expect(withRanks(await samples.call(ref, { ...example.args })), ref).toEqual(example.result);
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(SAMPLE_TOOLS.length);
  });
});
