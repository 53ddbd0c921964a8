// What lint reports: one finding per problem, at its file, line and column, in the one-line
// form editors and terminals link to, and a count of errors and warnings.
import type { ManifestIssue } from "@oz0/sdk";
import { LINT_CODES, type LintCode, type LintSeverity } from "./codes.js";

/** Keys and list indexes from a YAML document's root. */
export type YamlPath = ManifestIssue["path"];

/** A rewrite of one scalar in a YAML file (or a Markdown file's front matter). */
export interface LintFix {
  readonly file: string;
  /** Where the scalar sits in the file's YAML. */
  readonly path: YamlPath;
  /** The scalar's new value. */
  readonly replacement: string;
}

export interface LintFinding {
  /** The file inside the plugin folder, with `/` between folders. */
  readonly file: string;
  /** 1-based. */
  readonly line: number;
  /** 1-based. */
  readonly column: number;
  readonly severity: LintSeverity;
  readonly code: LintCode;
  readonly message: string;
  /** What `--fix` writes; present only where the fix is certain. */
  readonly fix?: LintFix;
}

export interface LintSummary {
  readonly errors: number;
  readonly warnings: number;
  /** Problems `--fix` rewrote; they are no longer among the findings. */
  readonly fixed: number;
}

/** A place in a file, as SafeYamlDocument.locate gives it. */
export interface Place {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

/** A finding at `place`, with the code's own severity unless `severity` raises it. */
export function finding(
  code: LintCode,
  place: Place,
  message: string,
  extra: { severity?: LintSeverity; fix?: LintFix } = {},
): LintFinding {
  const base = {
    file: place.file,
    line: place.line,
    column: place.column,
    severity: extra.severity ?? LINT_CODES[code].severity,
    code,
    message,
  };
  return extra.fix === undefined ? base : { ...base, fix: extra.fix };
}

/**
 * `file:line:col severity CODE message`.
 * @example formatFinding(f) // "plugin.yaml:12:7 warning OZ-S019 bare name ..."
 */
export function formatFinding(f: LintFinding): string {
  return `${f.file}:${f.line}:${f.column} ${f.severity} ${f.code} ${f.message}`;
}

/** `2 errors, 1 warning`, and what --fix rewrote. */
export function formatSummary(summary: LintSummary): string {
  const count = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  const text = `${count(summary.errors, "error")}, ${count(summary.warnings, "warning")}`;
  return summary.fixed === 0 ? text : `${text} (${count(summary.fixed, "problem")} fixed)`;
}

export function summarize(findings: readonly LintFinding[], fixed = 0): LintSummary {
  const errors = findings.filter((f) => f.severity === "error").length;
  return { errors, warnings: findings.length - errors, fixed };
}

/** In file order, each problem once (two agents sharing one schema file find its problems twice). */
export function orderFindings(findings: readonly LintFinding[]): LintFinding[] {
  const seen = new Set<string>();
  const unique = findings.filter((f) => {
    const key = formatFinding(f);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return unique.sort(
    (a, b) =>
      (a.file === "plugin.yaml" ? 0 : 1) - (b.file === "plugin.yaml" ? 0 : 1) ||
      a.file.localeCompare(b.file) ||
      a.line - b.line ||
      a.column - b.column ||
      a.code.localeCompare(b.code),
  );
}
