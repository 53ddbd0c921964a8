// Helpers for lint tests: the fixture plugins (one that triggers each rule, one that passes),
// and temporary copies for tests that write (--fix, tools.listing.json).
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach } from "vitest";
import { formatFinding, type LintFinding, type LintOptions, lintPlugin } from "../../src/lint/index.js";

export const FIXTURES = join(import.meta.dirname, "../fixtures/lint");

export function fixture(...parts: string[]): string {
  return join(FIXTURES, ...parts);
}

/** Lints a folder without writing its listing, and returns the findings as printed lines. */
export async function lintLines(dir: string, options: LintOptions = {}): Promise<string[]> {
  const report = await lintPlugin(dir, { writeListing: false, ...options });
  return report.findings.map(formatFinding);
}

/** Lints a folder without writing its listing. */
export async function lintFindings(dir: string, options: LintOptions = {}): Promise<readonly LintFinding[]> {
  return (await lintPlugin(dir, { writeListing: false, ...options })).findings;
}

const temporary: string[] = [];

afterEach(async () => {
  await Promise.all(temporary.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A copy of a fixture in a fresh temporary folder, removed after the test. */
export async function copyFixture(...parts: string[]): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "oz0-lint-"));
  temporary.push(dir);
  const target = join(dir, "plugin");
  await cp(fixture(...parts), target, { recursive: true });
  return target;
}
