// Lint reads a large manifest in time linear in its size, and reports every one of its
// problems: the quadratic reading it replaced took minutes on these inputs (lint reads each
// file twice), far past the test timeout.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { lintPlugin } from "../../src/lint/index.js";

const made: string[] = [];
afterAll(() => Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true }))));

/** A plugin folder whose plugin.yaml is `text`. */
async function pluginWith(text: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "oz0-lint-large-"));
  made.push(dir);
  await writeFile(join(dir, "plugin.yaml"), text);
  return dir;
}

/** `count` keys, `kxxxx: 1` one a line (base-36 numbers, so each key differs). */
const keys = (count: number, indent = "") =>
  `${Array.from({ length: count }, (_, i) => `${indent}k${i.toString(36)}: 1`).join("\n")}\n`;

describe("linting a large plugin.yaml", () => {
  it("reports each of 60,000 unknown keys at its line", async () => {
    const dir = await pluginWith(`name: big\nversion: 1.0.0\n${keys(60_000)}`);
    const report = await lintPlugin(dir, { writeListing: false });
    expect(report.summary.errors).toBe(60_000);
    expect(report.findings.at(-1)).toMatchObject({ file: "plugin.yaml", line: 60_002, code: "OZ-E003" });
  });

  it("reads a map of 90,000 keys under one unknown key and reports that key once", async () => {
    const dir = await pluginWith(`name: big\nversion: 1.0.0\nextra:\n${keys(90_000, "  ")}`);
    const report = await lintPlugin(dir, { writeListing: false });
    expect(report.findings.map((f) => `${f.line}:${f.column} ${f.code}`)).toEqual(["3:1 OZ-E003"]);
  });
});
