// The std plugin as oz0 loads it: its five tools, their model-visible names, and its plugin.yaml.
import { readFileSync } from "node:fs";
import { modelVisibleName, parsePluginManifest } from "@oz0/sdk";
import { loadPluginForTest, testToolContext } from "@oz0/sdk/testing";
import { describe, expect, it } from "vitest";
import stdPlugin, { STD_TOOLS } from "../src/index.js";
import { loadStd } from "./helpers.js";

const manifestText = readFileSync(new URL("../plugin.yaml", import.meta.url), "utf8");
const packageJson = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
  version: string;
};

describe("the std plugin", () => {
  it("registers the five tools of the spec's library, and only tools", async () => {
    const host = await loadPluginForTest(stdPlugin, { pluginId: "std" });
    expect(host.kinds()).toEqual(["admin", "tool"]);
    expect(host.registrations("tool").map((tool) => tool.name)).toEqual([
      "datetime",
      "json",
      "text",
      "http",
      "calculator",
    ]);
  });

  it("gives each tool the short functions a model sees as <tool>__<function>", async () => {
    const host = await loadStd();
    const names: string[] = [];
    for (const tool of host.registrations("tool")) {
      const built = await tool.spec.build(testToolContext());
      for (const fn of built.functions) names.push(modelVisibleName(tool.name, fn.name));
    }
    expect(names).toEqual([
      "datetime__now",
      "json__parse",
      "json__format",
      "json__get",
      "json__merge",
      "text__count",
      "text__search",
      "text__replace",
      "text__extract",
      "text__split",
      "text__truncate",
      "http__request",
      "calculator__evaluate",
    ]);
  });

  it("has a plugin.yaml that declares exactly the tools the code registers, with the same descriptions", async () => {
    const manifest = parsePluginManifest(manifestText, { file: "plugin.yaml" });
    expect(manifest.name).toBe("std");
    expect(manifest.main).toBe("dist/index.js");
    expect(manifest.capabilities).toEqual(["tool", "config"]);
    const host = await loadStd();
    expect(manifest.tools?.map((tool) => ({ id: tool.id, description: tool.description }))).toEqual(
      host.registrations("tool").map((tool) => ({ id: tool.name, description: tool.spec.description })),
    );
  });

  it("keeps plugin.yaml's version equal to the package's", () => {
    expect(parsePluginManifest(manifestText, { file: "plugin.yaml" }).version).toBe(packageJson.version);
  });

  it("describes every tool in its metadata, in registration order", async () => {
    const host = await loadStd();
    expect(STD_TOOLS.map((info) => [info.id, info.description])).toEqual(
      host.registrations("tool").map((tool) => [tool.name, tool.spec.description]),
    );
  });
});
