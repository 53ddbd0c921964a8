// Gives each problem the SDK's schemas report its lint code. The schemas stay the one place
// where the spec's limits are checked (the loader refuses exactly what they refuse); lint only
// says which rule a problem breaks, from where it sits and what is written there.
import type { ManifestIssue } from "@oz0/sdk";
import { parseAgentRuntime } from "@oz0/sdk/internal";
import type { LintCode } from "./codes.js";
import type { YamlPath } from "./finding.js";
import { asList, asMap, asString } from "./source.js";

/** What a file holds, which decides where its agents sit. */
export type FileKind = "manifest" | "yaml-agent" | "markdown-agent" | "skill" | "tool-manifest";

/** The keys whose values are paths inside the plugin folder. */
const PATH_KEYS = new Set([
  "main",
  "instructions",
  "input_schema",
  "output_schema",
  "script",
  "entry",
  "path",
]);

/** A path that leaves the plugin folder before any link is followed: absolute, or through `..`. */
export function escapesLexically(path: string): boolean {
  return path.startsWith("/") || /^[A-Za-z]:/.test(path) || path.split(/[\\/]/).includes("..");
}

/** The lint code of one schema problem in a file of `kind` whose data is `value`. */
export function classifyIssue(issue: ManifestIssue, kind: FileKind, value: unknown): LintCode {
  const { path } = issue;
  if (issue.message.startsWith("unknown key '")) return "OZ-E003";
  // A Markdown agent's instructions are wrong whatever they say, so that is the problem to report.
  if (kind === "markdown-agent" && path.length === 1 && path[0] === "instructions") return "OZ-S017";
  const last = path.at(-1);
  const written = asString(valueAt(value, path));
  if (typeof last === "string" && PATH_KEYS.has(last) && written !== undefined && escapesLexically(written)) {
    return "OZ-S001";
  }
  const base = agentBase(path, kind);
  if (base === undefined) return "OZ-E001";
  return classifyAgentIssue(path.slice(base.length), asMap(valueAt(value, base)) ?? {}) ?? "OZ-E001";
}

/** Where the agent a problem is about starts, or `undefined` when it is not about an agent. */
function agentBase(path: YamlPath, kind: FileKind): YamlPath | undefined {
  if (kind === "yaml-agent" || kind === "markdown-agent") return [];
  if (kind === "manifest" && path[0] === "agents" && typeof path[1] === "number") return path.slice(0, 2);
  return undefined;
}

function classifyAgentIssue(rel: YamlPath, agent: Readonly<Record<string, unknown>>): LintCode | undefined {
  const [first, second, third] = rel;
  if (first === "tags") return "OZ-S016";
  if (first === "failures") return "OZ-S015";
  if (first === "changes") return "OZ-S011";
  if (first !== "skills") return undefined;
  const skills = agent.skills;
  // The list's only check on itself is its length; its entries' problems sit one level down.
  if (rel.length === 1 && asList(skills) !== undefined) return "OZ-S014";
  if (second === "use" && rel.length === 2 && asList(asMap(skills)?.use) !== undefined) return "OZ-S014";
  if (second !== "propose") return undefined;
  if (third === "arguments" && (rel.length === 4 || asMap(valueAt(agent, rel)) !== undefined))
    return "OZ-S013";
  const remote = parseAgentRuntime(asString(agent.runtime))?.kind === "remote";
  if (rel.length === 2 && remote && asMap(asMap(skills)?.propose) !== undefined) return "OZ-S012";
  return undefined;
}

function valueAt(value: unknown, path: YamlPath): unknown {
  let current = value;
  for (const part of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<string | number, unknown>)[part];
  }
  return current;
}
