// Shared by the manifest tests: fixtures, and catching the errors the parsers throw.
import { readFileSync } from "node:fs";
import { expect } from "vitest";
import { type ErrorCode, isOz0Error, type Oz0Error } from "../../src/errors/index.js";
import type { ManifestIssue } from "../../src/manifest/index.js";

export function fixture(name: string): string {
  return readFileSync(new URL(`../fixtures/manifest/${name}`, import.meta.url), "utf8");
}

/** The Oz0Error of `code` that `run` throws; fails the test when it throws nothing or another. */
export function errorOf(code: ErrorCode, run: () => unknown): Oz0Error {
  try {
    run();
  } catch (error) {
    if (isOz0Error(error, code)) return error;
    throw error;
  }
  expect.fail(`expected an ${code} error, but nothing was thrown`);
}

/** The issues of the INVALID_MANIFEST error that `run` throws. */
export function issuesOf(run: () => unknown): ManifestIssue[] {
  return errorOf("INVALID_MANIFEST", run).data?.issues as ManifestIssue[];
}

/** The one issue `run` reports; fails when there are none or several. */
export function onlyIssue(run: () => unknown): ManifestIssue {
  const issues = issuesOf(run);
  expect(issues, JSON.stringify(issues)).toHaveLength(1);
  return issues[0]!;
}
