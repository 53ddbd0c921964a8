// kind: Tool manifests as the loader reads them: each tools/<name>.tool.yaml is a tool whose one
// function runs the export its entry module names, and an agent of the plugin may name it by
// reference (`almanac:tools/lookup.tool.yaml`).
import { cp, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { isOz0Error, type Oz0Error } from "@oz0/sdk";
import { buildTool } from "@oz0/sdk/internal";
import { testToolContext } from "@oz0/sdk/testing";
import { afterAll, describe, expect, it } from "vitest";
import { loadPluginDir, pluginToolSpec, pluginToolSpecs, toolRefTarget } from "../../src/plugin-dir/index.js";

const ALMANAC = fileURLToPath(new URL("../fixtures/plugins/almanac", import.meta.url));
const made: string[] = [];
afterAll(() => Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true }))));

/** A copy of the almanac fixture with `files` written over it. */
async function almanacWith(files: Record<string, string>): Promise<string> {
  const dir = join(await mkdtemp(join(tmpdir(), "oz0-manifests-")), "almanac");
  made.push(dir);
  await cp(ALMANAC, dir, { recursive: true });
  for (const [path, text] of Object.entries(files)) await writeFile(join(dir, path), text);
  return dir;
}

async function loadError(dir: string): Promise<Oz0Error> {
  try {
    await loadPluginDir(dir);
  } catch (error) {
    if (isOz0Error(error)) return error;
    throw error;
  }
  throw new Error(`${dir} loaded`);
}

const call = {
  tenant: "default",
  jobId: "job-1",
  callId: "call-1",
  idempotencyKey: "key-1",
  address: "almanac/lookup.find",
  attempt: 1,
  signal: new AbortController().signal,
};

describe("kind: Tool manifests in a plugin folder", () => {
  it("reads each tools/*.tool.yaml as a tool whose one function runs the export its entry names", async () => {
    const loaded = await loadPluginDir(ALMANAC);
    expect(
      loaded.toolManifests.map((tool) => [tool.file, tool.manifest.name, tool.manifest.spec.function]),
    ).toEqual([
      ["tools/lookup.tool.yaml", "lookup", "find"],
      ["tools/remember.tool.yaml", "remember", "store_and_search"],
    ]);
    expect(pluginToolSpecs(loaded).map((spec) => spec.name)).toEqual(["clock", "lookup", "remember"]);
    const built = await buildTool(
      pluginToolSpec(loaded, "lookup")!,
      testToolContext({ pluginId: "almanac" }),
    );
    expect(built.functions.map((fn) => [fn.name, fn.description, fn.inputSchema])).toEqual([
      [
        "find",
        "Looks a fact up by its subject.",
        { type: "object", properties: { subject: { type: "string" } }, required: ["subject"] },
      ],
    ]);
  });

  it("gives the handler the arguments, the call and the plugin's tool context", async () => {
    const loaded = await loadPluginDir(ALMANAC);
    const built = await buildTool(
      pluginToolSpec(loaded, "lookup")!,
      testToolContext({ pluginId: "almanac" }),
    );
    expect(await built.functions[0]!.run({ subject: "tides" }, call)).toEqual({
      subject: "tides",
      address: "almanac/lookup.find",
      plugin: "almanac",
      tenant: testToolContext().tenant,
    });
  });

  it("resolves a reference <plugin>:<path> to the function its manifest describes", async () => {
    const loaded = await loadPluginDir(ALMANAC);
    expect(toolRefTarget(loaded, "tools/remember.tool.yaml")).toBe("remember.store_and_search");
    let error: unknown;
    try {
      toolRefTarget(loaded, "tools/nope.tool.yaml");
    } catch (thrown) {
      error = thrown;
    }
    expect(isOz0Error(error, "NOT_FOUND")).toBe(true);
    expect((error as Error).message).toBe(
      "almanac:tools/nope.tool.yaml: plugin almanac has no kind: Tool manifest tools/nope.tool.yaml (it has tools/lookup.tool.yaml, tools/remember.tool.yaml).",
    );
  });

  it("keeps an agent's references to its own plugin's manifests as written", async () => {
    const loaded = await loadPluginDir(ALMANAC);
    expect(loaded.agents[0]?.definition.tools).toEqual([
      "almanac:tools/lookup.tool.yaml",
      "almanac:tools/remember.tool.yaml",
      "clock.now",
    ]);
  });

  it("refuses an agent's reference to a manifest its own plugin does not have, at load", async () => {
    const dir = await almanacWith({
      "agents/reader.yaml":
        "name: almanac-reader\ntools: [almanac:tools/nope.tool.yaml]\ninput: text\noutput: text\n",
    });
    const error = await loadError(dir);
    expect(error.code).toBe("INVALID_MANIFEST");
    expect(error.message).toBe(
      "agents/reader.yaml: tools: 'almanac:tools/nope.tool.yaml' names no kind: Tool manifest of this plugin; it has tools/lookup.tool.yaml, tools/remember.tool.yaml",
    );
  });

  it("refuses a manifest whose entry does not exist, naming the manifest and the field", async () => {
    const dir = await almanacWith({
      "tools/lookup.tool.yaml":
        "kind: Tool\nname: lookup\ndescription: Looks up.\nspec:\n  entry: dist/lookup.js\n  function: find\n",
    });
    const error = await loadError(dir);
    expect(error.code).toBe("INVALID_MANIFEST");
    expect(error.message).toBe(
      "tools/lookup.tool.yaml: spec.entry 'dist/lookup.js' does not exist in the plugin folder",
    );
  });

  it("refuses a manifest whose export is not a function of its entry, listing the entry's functions", async () => {
    const dir = await almanacWith({
      "tools/lookup.tool.yaml":
        "kind: Tool\nname: lookup\ndescription: Looks up.\nspec:\n  entry: tools/lookup.js\n  function: find\n  export: search\n",
    });
    const error = await loadError(dir);
    expect(error.code).toBe("INVALID_PLUGIN");
    expect(error.message).toBe(
      "plugin 'almanac': tools/lookup.tool.yaml: tools/lookup.js has no function exported as 'search' (its functions: find); set spec.export to the one that runs find.",
    );
  });

  it("refuses a manifest that does not match the schema, with its file and line", async () => {
    const dir = await almanacWith({
      "tools/lookup.tool.yaml":
        "kind: tool\nname: lookup\ndescription: Looks up.\nspec: { entry: tools/lookup.js, function: find }\n",
    });
    const error = await loadError(dir);
    expect(error.code).toBe("INVALID_MANIFEST");
    expect(error.message).toContain("tools/lookup.tool.yaml:1:7");
    expect(error.message).toContain("kind must be Tool");
  });

  it("refuses two manifests that describe one tool ID", async () => {
    const dir = await almanacWith({
      "tools/again.tool.yaml":
        "kind: Tool\nname: lookup\ndescription: Again.\nspec: { entry: tools/lookup.js, function: find, export: find }\n",
    });
    expect((await loadError(dir)).message).toBe(
      "plugin 'almanac': tools/again.tool.yaml and tools/lookup.tool.yaml both describe tool lookup; a tool ID is described once.",
    );
  });

  it("refuses a tool ID that the code registers and a manifest describes too", async () => {
    const dir = await almanacWith({
      "tools/clock.tool.yaml":
        "kind: Tool\nname: clock\ndescription: Again.\nspec: { entry: tools/lookup.js, function: find, export: find }\n",
    });
    expect((await loadError(dir)).message).toBe(
      "plugin 'almanac': its code registers tool clock, which tools/clock.tool.yaml describes too; keep one of them.",
    );
  });
});
