import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fixYaml, lintPlugin } from "../../src/lint/index.js";
import { copyFixture, fixture } from "./fixtures.js";

describe("--fix", () => {
  it("rewrites only the scalar, keeping its quotes, the comments and the layout", () => {
    const text = [
      "tools:   # what the agent may call",
      "  - oz0_github.get_file     # github's",
      "  - 'oz0_github.list_pull_requests'",
      'delegation: { allow: ["oz0-github"] }',
      "",
    ].join("\n");
    const fixed = fixYaml(text, [
      { path: ["tools", 0], replacement: "github/oz0_github.get_file" },
      { path: ["tools", 1], replacement: "github/oz0_github.list_pull_requests" },
      { path: ["delegation", "allow", 0], replacement: "github/oz0-github" },
    ]);
    expect(fixed).toEqual({
      applied: 3,
      text: [
        "tools:   # what the agent may call",
        "  - github/oz0_github.get_file     # github's",
        "  - 'github/oz0_github.list_pull_requests'",
        'delegation: { allow: ["github/oz0-github"] }',
        "",
      ].join("\n"),
    });
  });

  it("skips a fix whose path no longer holds a scalar", () => {
    expect(fixYaml("tools: []\n", [{ path: ["tools", 0], replacement: "x/y.z" }])).toEqual({
      text: "tools: []\n",
      applied: 0,
    });
  });

  it("writes the address of each bare name of another plugin's part, giving the spec's example", async () => {
    const dir = await copyFixture("oz-s019", "triggers");
    const report = await lintPlugin(dir, { fix: true, writeListing: false });
    expect(report.findings).toEqual([]);
    expect(report.summary).toEqual({ errors: 0, warnings: 0, fixed: 2 });
    expect(await readFile(join(dir, "plugin.yaml"), "utf8")).toBe(
      await readFile(fixture("oz-s019", "passes", "plugin.yaml"), "utf8"),
    );
  });

  it("rewrites a Markdown agent inside its front matter and leaves its body alone", async () => {
    const dir = await copyFixture("oz-s019", "passes");
    await mkdir(join(dir, "agents"));
    const agent = [
      "---",
      "name: reviewer",
      "description: Reviews pull requests.",
      "input: text",
      "output: text",
      "tools: [oz0_github.list_pull_requests]  # bare",
      "---",
      "Call oz0_github.list_pull_requests first.",
      "",
    ].join("\n");
    await writeFile(join(dir, "agents", "reviewer.md"), agent);
    const report = await lintPlugin(dir, { fix: true, writeListing: false });
    expect(report.summary.fixed).toBe(1);
    expect(report.findings).toEqual([]);
    expect(await readFile(join(dir, "agents", "reviewer.md"), "utf8")).toBe(
      agent.replace("tools: [oz0_github", "tools: [github/oz0_github"),
    );
  });

  it("leaves files alone when there is nothing to fix", async () => {
    const dir = await copyFixture("oz-s002", "triggers");
    const before = await readFile(join(dir, "plugin.yaml"), "utf8");
    const report = await lintPlugin(dir, { fix: true, writeListing: false });
    expect(report.summary.fixed).toBe(0);
    expect(report.summary.errors).toBe(2);
    expect(await readFile(join(dir, "plugin.yaml"), "utf8")).toBe(before);
  });
});
