import { mkdir, readFile, stat, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { isOz0Error } from "@oz0/sdk";
import { describe, expect, it } from "vitest";
import { formatSummary, LISTING_FILE, lintPlugin, summarize } from "../../src/lint/index.js";
import { copyFixture, fixture, lintFindings, lintLines } from "./fixtures.js";

describe("lintPlugin", () => {
  it("reports every problem of a plugin across its files instead of stopping at the first", async () => {
    const findings = await lintFindings(fixture("many-problems"));
    expect(findings.map((f) => `${f.file} ${f.code}`)).toEqual([
      "plugin.yaml OZ-E001",
      "plugin.yaml OZ-E003",
      "plugin.yaml OZ-S003",
      "plugin.yaml OZ-S004",
      "plugin.yaml OZ-S002",
      "plugin.yaml OZ-E001",
      "plugin.yaml OZ-S019",
      "plugin.yaml OZ-S016",
      "agents/broken.yaml OZ-E002",
      "agents/broken.yaml OZ-E002",
      "agents/writer.md OZ-S017",
      "agents/writer.md OZ-S009",
      "agents/writer.md OZ-S023",
    ]);
  });

  it("reads a reference the schema accepts but the address rules refuse as a schema error, once", async () => {
    const lines = await lintLines(fixture("many-problems"));
    expect(lines.filter((line) => line.startsWith("plugin.yaml:9:13 "))).toEqual([
      "plugin.yaml:9:13 error OZ-E001 'tickets' is not a valid function address: it names no function: 'tickets' has no '.' between the tool ID and the function name. Write <tool>.<function> for a part of this plugin or <plugin>/<tool>.<function> for another plugin's, such as oz0_github.get_pull_request or github/oz0_github.get_pull_request.",
    ]);
  });

  it("makes an agent without input or output an error from manifest schema 1.0 on", async () => {
    const findings = await lintFindings(fixture("oz-s003", "from-v1"));
    expect(findings.map((f) => [f.code, f.severity])).toEqual([
      ["OZ-S003", "error"],
      ["OZ-S004", "error"],
    ]);
  });

  it("makes a bare name of another plugin's part an error with --verified", async () => {
    const findings = await lintFindings(fixture("oz-s019", "triggers"), { verified: true });
    expect(findings.map((f) => [f.code, f.severity])).toEqual([
      ["OZ-S019", "error"],
      ["OZ-S019", "error"],
    ]);
  });

  it("makes a bare name of another plugin's part an error for a plugin with verified: true", async () => {
    const dir = await copyFixture("oz-s019", "triggers");
    const manifest = join(dir, "plugin.yaml");
    await writeFile(manifest, `verified: true\n${await readFile(manifest, "utf8")}`);
    const findings = await lintFindings(dir);
    expect(findings.map((f) => [f.code, f.severity])).toEqual([
      ["OZ-S019", "error"],
      ["OZ-S019", "error"],
    ]);
  });

  it("refuses instructions that are a link leading out of the plugin folder", async () => {
    const dir = await copyFixture("oz-s001", "passes");
    await writeFile(join(dir, "..", "outside.md"), "You help.\n");
    await symlink(join(dir, "..", "outside.md"), join(dir, "prompts", "linked.md"));
    const manifest = join(dir, "plugin.yaml");
    await writeFile(
      manifest,
      (await readFile(manifest, "utf8")).replace("prompts/helper.md", "prompts/linked.md"),
    );
    expect(await lintLines(dir)).toEqual([
      "plugin.yaml:7:19 error OZ-S001 instructions 'prompts/linked.md' is a link that leads out of the plugin folder; put the file itself inside the folder",
    ]);
  });

  it("refuses a folder that is not a plugin folder, as the loader does", async () => {
    const error = await lintPlugin(fixture("oz-e001")).catch((thrown: unknown) => thrown);
    expect(isOz0Error(error, "INVALID_PLUGIN")).toBe(true);
    expect((error as Error).message).toMatch(/oz-e001 is not a plugin folder: it has no plugin\.yaml/);
  });

  it("names the field that is required but missing, as install does, and the key a transposed one meant", async () => {
    const dir = await copyFixture("oz-e001", "passes");
    const manifest = join(dir, "plugin.yaml");
    const text = await readFile(manifest, "utf8");
    await writeFile(manifest, `${text.replace(/^version: .*\n/m, "")}    tgas: [x]\n`);
    const lines = await lintLines(dir);
    expect(lines).toContain("plugin.yaml:1:1 error OZ-E001 version: required, but missing");
    expect(
      lines.some((line) => line.includes("unknown key 'tgas'") && line.includes("did you mean 'tags'?")),
    ).toBe(true);
  });

  it("counts errors and warnings in the summary", async () => {
    const report = await lintPlugin(fixture("many-problems"), { writeListing: false });
    expect(report.summary).toEqual({ errors: 9, warnings: 4, fixed: 0 });
    expect(formatSummary(report.summary)).toBe("9 errors, 4 warnings");
    expect(formatSummary(summarize([]))).toBe("0 errors, 0 warnings");
    expect(formatSummary({ errors: 1, warnings: 1, fixed: 2 })).toBe("1 error, 1 warning (2 problems fixed)");
  });
});

const SEARCH_TOOL =
  "kind: Tool\nname: search\ndescription: Search.\nspec:\n  entry: search.js\n  function: run\n";

describe("tools.listing.json", () => {
  it("lists every function with its model-visible name, address, description and input schema", async () => {
    const dir = await copyFixture("../../../../../examples/support-triage");
    const report = await lintPlugin(dir);
    expect(report.listing).toBe(LISTING_FILE);
    const listing = JSON.parse(await readFile(join(dir, LISTING_FILE), "utf8"));
    expect(listing.plugin).toBe("support-triage");
    expect(listing.functions.map((fn: { name: string; address: string }) => [fn.name, fn.address])).toEqual([
      ["tickets__lookup", "support-triage/tickets.lookup"],
      ["tickets__assign", "support-triage/tickets.assign"],
    ]);
    expect(listing.functions[0]).toMatchObject({
      description: "Look a ticket up by id.",
      input_schema: { type: "object", properties: { id: { type: "integer" } }, required: ["id"] },
    });
  });

  it("leaves an unchanged listing untouched", async () => {
    const dir = await copyFixture("oz-s007", "passes");
    await lintPlugin(dir);
    const before = await stat(join(dir, LISTING_FILE));
    await new Promise((resolve) => setTimeout(resolve, 20));
    await lintPlugin(dir);
    expect((await stat(join(dir, LISTING_FILE))).mtimeMs).toBe(before.mtimeMs);
  });

  it("writes no listing when the code entry fails, since it could not be measured", async () => {
    const dir = await copyFixture("oz-e004", "triggers");
    const report = await lintPlugin(dir);
    expect(report.listing).toBeUndefined();
    await expect(stat(join(dir, LISTING_FILE))).rejects.toThrow();
  });

  it("measures a function a kind: Tool manifest describes", async () => {
    const dir = await copyFixture("oz-s001", "passes");
    await mkdir(join(dir, "tools"));
    await writeFile(join(dir, "tools", "search.tool.yaml"), SEARCH_TOOL);
    await writeFile(join(dir, "search.js"), "export default async () => [];\n");
    const report = await lintPlugin(dir);
    expect(report.findings).toEqual([]);
    const listing = JSON.parse(await readFile(join(dir, LISTING_FILE), "utf8"));
    expect(listing.functions).toEqual([
      {
        name: "search__run",
        address: "stays-inside/search.run",
        description: "Search.",
        input_schema: { type: "object", properties: {} },
      },
    ]);
  });

  it("reports a kind: Tool manifest whose entry does not exist", async () => {
    const dir = await copyFixture("oz-s001", "passes");
    await mkdir(join(dir, "tools"));
    await writeFile(join(dir, "tools", "search.tool.yaml"), SEARCH_TOOL);
    expect(await lintLines(dir)).toEqual([
      "tools/search.tool.yaml:5:10 error OZ-S002 spec.entry 'search.js' does not exist in the plugin folder; create it, or fix the path",
    ]);
  });
});
