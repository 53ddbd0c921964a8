// Lint reads an agent's references to kind: Tool manifests (`<plugin>:tools/<file>.tool.yaml`):
// well formed, and, for the plugin's own, naming a manifest the folder has.
import { cp, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { lintLines } from "./fixtures.js";

const ALMANAC = join(import.meta.dirname, "../fixtures/plugins/almanac");
const SAMPLES = join(import.meta.dirname, "../../../../plugins/samples");
const STD_TOUR = join(import.meta.dirname, "../../../../examples/std-tour");
const made: string[] = [];
afterAll(() => Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true }))));

async function almanacWithAgent(agent: string): Promise<string> {
  const dir = join(await mkdtemp(join(tmpdir(), "oz0-lint-refs-")), "almanac");
  made.push(dir);
  await cp(ALMANAC, dir, { recursive: true });
  await writeFile(join(dir, "agents", "reader.yaml"), agent);
  return dir;
}

describe("lint of tool manifest references", () => {
  it("accepts references to the plugin's own manifests, as text or as { ref }, and a manifest's tool declared in plugin.yaml", async () => {
    expect(await lintLines(ALMANAC)).toEqual([]);
  });

  it("reports a reference to a manifest the plugin does not have, with its place", async () => {
    const dir = await almanacWithAgent(
      "name: almanac-reader\ntools: [almanac:tools/nope.tool.yaml]\ninput: text\noutput: text\n",
    );
    expect((await lintLines(dir)).filter((line) => line.includes("nope"))).toEqual([
      "agents/reader.yaml:2:9 error OZ-E001 'almanac:tools/nope.tool.yaml' names no kind: Tool manifest of this plugin; it has tools/lookup.tool.yaml, tools/remember.tool.yaml",
    ]);
  });

  it("reports a malformed reference as a schema error", async () => {
    const dir = await almanacWithAgent(
      "name: almanac-reader\ntools: [almanac:lookup.js]\ninput: text\noutput: text\n",
    );
    expect((await lintLines(dir)).filter((line) => line.includes("lookup.js"))).toEqual([
      "agents/reader.yaml:2:9 error OZ-E001 'almanac:lookup.js' names 'lookup.js', which is not a kind: Tool manifest of the plugin: write <plugin>:tools/<file>.tool.yaml, such as samples:tools/memory-search.tool.yaml",
    ]);
  });

  it("passes the samples plugin, whose trip planner names its tools by reference", async () => {
    expect(await lintLines(SAMPLES)).toEqual([]);
  });

  it("passes examples/std-tour, whose agent names std's functions by address under uses:", async () => {
    expect(await lintLines(STD_TOUR)).toEqual([]);
  });
});
