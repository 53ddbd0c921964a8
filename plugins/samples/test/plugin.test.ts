// The samples plugin as oz0 loads it: the spec's sample library (spec/plugin-and-tool-authoring.txt
// §4) as kind: Tool manifests under tools/, a memory provider in its code, and a sample agent.
import { readFileSync } from "node:fs";
import { loadPluginDir } from "@oz0/runtime";
import { parsePluginManifest } from "@oz0/sdk";
import { loadPluginForTest } from "@oz0/sdk/testing";
import { describe, expect, it } from "vitest";
import samplesPlugin, { SAMPLE_TOOLS } from "../src/index.js";
import { SAMPLES_DIR } from "./helpers.js";

const manifestText = readFileSync(new URL("../plugin.yaml", import.meta.url), "utf8");
const packageJson = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
  version: string;
};

describe("the samples plugin", () => {
  it("ships the six tools of the spec's sample library as kind: Tool manifests that agents reference", async () => {
    const loaded = await loadPluginDir(SAMPLES_DIR);
    expect(
      loaded.toolManifests.map((tool) => [tool.file, `${tool.manifest.name}.${tool.manifest.spec.function}`]),
    ).toEqual([
      ["tools/get-attractions.tool.yaml", "get_attractions.lookup"],
      ["tools/get-schedule.tool.yaml", "get_schedule.lookup"],
      ["tools/memory-get.tool.yaml", "memory_get.get"],
      ["tools/memory-search.tool.yaml", "memory_search.search"],
      ["tools/verify-fact.tool.yaml", "verify_fact.verify"],
      ["tools/web-search.tool.yaml", "web_search.search"],
    ]);
    expect(SAMPLE_TOOLS.map((info) => [info.id, info.manifest]).sort()).toEqual(
      loaded.toolManifests.map((tool) => [tool.manifest.name, tool.file]).sort(),
    );
  });

  it("registers only the notes memory provider in code, as its plugin.yaml says", async () => {
    const host = await loadPluginForTest(samplesPlugin, { pluginId: "samples" });
    expect(host.kinds()).toEqual(["memory"]);
    expect(host.registrations("memory").map((memory) => memory.name)).toEqual(["notes"]);
    const manifest = parsePluginManifest(manifestText, { file: "plugin.yaml" });
    expect([manifest.name, manifest.main, manifest.capabilities]).toEqual([
      "samples",
      "dist/index.js",
      ["memory"],
    ]);
  });

  it("has a trip planner that names every sample tool by its manifest", async () => {
    const loaded = await loadPluginDir(SAMPLES_DIR);
    const planner = loaded.agents.find((agent) => agent.definition.name === "trip-planner");
    expect(planner?.definition.tools).toEqual(
      loaded.toolManifests.map((tool) => `samples:${tool.file}`).sort(byTool),
    );
  });

  it("keeps plugin.yaml's version equal to the package's", () => {
    expect(parsePluginManifest(manifestText, { file: "plugin.yaml" }).version).toBe(packageJson.version);
  });
});

/** The trip planner's order: memory first, then the city, then the web. */
function byTool(a: string, b: string): number {
  const order = [
    "memory-search",
    "memory-get",
    "get-attractions",
    "get-schedule",
    "web-search",
    "verify-fact",
  ];
  const rank = (ref: string) => order.findIndex((name) => ref.includes(`/${name}.`));
  return rank(a) - rank(b);
}
