// The checks a plugin folder must pass, which `oz0 plugin lint` reports and install refuses on:
// every lint rule over the folder's files and, against a tenant, what that tenant would refuse
// at install (a check the catalog provides). Install runs these same checks, so an error here
// is an install refusal with the same text, and what install refuses is an error here.
import { isOz0Error, type ManifestIssue, Oz0Error } from "@oz0/sdk";
import { type FormatRefusal, foreignFormat, loadPluginDir, pluginRoot } from "../plugin-dir/index.js";
import { finding, type LintFinding, orderFindings, type YamlPath } from "./finding.js";
import { readPluginFiles } from "./read.js";
import { RULES, type RuleContext } from "./rules/index.js";
import { type PluginFiles, placeOf, pluginName, type YamlSource } from "./source.js";
import type { TenantContext } from "./tenant.js";

/** What a tenant would refuse of a plugin at install, at the place in its files it is about. */
export interface TenantProblem {
  readonly code: "OZ-S026" | "OZ-S027";
  readonly file: string;
  readonly path: YamlPath;
  readonly message: string;
}

export interface CheckOptions {
  /** Hold the plugin to a verified plugin's rules, whatever its manifest says. */
  readonly verified?: boolean | undefined;
  /** The tenant to check against, to know other plugins' parts and what it would refuse. */
  readonly tenant?: TenantContext | undefined;
  /**
   * Whether the loader has accepted the folder already (install loads it first); otherwise a
   * refusal of the loader that no rule reports is reported as found (see `loaderFindings`).
   */
  readonly loaded?: boolean | undefined;
}

export interface CheckResult {
  /** The plugin folder's real path. */
  readonly root: string;
  readonly files: PluginFiles;
  readonly plugin: string | undefined;
  /** In file order. */
  readonly findings: readonly LintFinding[];
}

/** Runs every rule over a plugin folder's parsed files: pure, for a caller that read them. */
export function lintFiles(files: PluginFiles, context: RuleContext): LintFinding[] {
  return RULES.flatMap((rule) => rule(files, context));
}

/** Reads the plugin folder at `dir` and runs every check; throws INVALID_PLUGIN only when it is no plugin folder. */
export async function checkPlugin(dir: string, options: CheckOptions = {}): Promise<CheckResult> {
  const root = await pluginRoot(dir);
  if ((await foreignFormat(root)) !== undefined) return checkForeign(root, options);
  const read = await readPluginFiles(dir);
  const { files } = read;
  const verified = options.verified === true || files.manifest?.raw.verified === true;
  const ruled = lintFiles(files, { verified, tenant: options.tenant });
  // A reference the schema already refused is not reported again by a rule that reads it.
  const taken = new Set(read.findings.map(placeKey));
  const fresh = ruled.filter((f) => f.code !== "OZ-E001" || !taken.has(placeKey(f)));
  const found = [...read.findings, ...fresh];
  const check = options.tenant?.check;
  if (check !== undefined) found.push(...tenantFindings(files, await check(read.root), found));
  if (options.loaded !== true && !found.some((f) => f.severity === "error")) {
    found.push(...(await loaderFindings(read.root, files)));
  }
  return { root: read.root, files, plugin: pluginName(files), findings: orderFindings(found) };
}

/**
 * The tenant's problems as findings, each at its place; one where a rule already found an
 * error is that error's (the rule says it from the plugin's own files).
 */
function tenantFindings(
  files: PluginFiles,
  problems: readonly TenantProblem[],
  found: readonly LintFinding[],
): LintFinding[] {
  const errors = new Set(found.filter((f) => f.severity === "error").map(placeKey));
  const sources: YamlSource[] = [
    ...(files.manifest === undefined ? [] : [files.manifest]),
    ...files.agents,
    ...files.toolManifests,
  ];
  return problems.flatMap((problem) => {
    const source = sources.find((candidate) => candidate.file === problem.file);
    const place =
      source === undefined ? { file: problem.file, line: 1, column: 1 } : placeOf(source, problem.path);
    const made = finding(problem.code, place, problem.message);
    return errors.has(placeKey(made)) ? [] : [made];
  });
}

/**
 * What the loader refuses of a folder no rule finds an error in, so that lint never passes what
 * install refuses: each problem at its place when the loader gives one, else at main: (or the
 * manifest's start).
 */
async function loaderFindings(root: string, files: PluginFiles): Promise<LintFinding[]> {
  try {
    await loadPluginDir(root);
    return [];
  } catch (error) {
    if (!isOz0Error(error)) throw error;
    const issues =
      error.code === "INVALID_MANIFEST" ? (error.data?.issues as ManifestIssue[] | undefined) : undefined;
    if (issues !== undefined && issues.length > 0) {
      return issues.map((issue) =>
        finding(
          "OZ-E001",
          { file: issue.file, line: Math.max(issue.line, 1), column: Math.max(issue.column, 1) },
          issue.message,
        ),
      );
    }
    const manifest = files.manifest;
    const place =
      manifest === undefined
        ? { file: "plugin.yaml", line: 1, column: 1 }
        : placeOf(manifest, Object.hasOwn(manifest.raw, "main") ? ["main"] : []);
    return [finding("OZ-E004", place, error.message)];
  }
}

/**
 * A Claude Code plugin or standalone Agent Skill: the reader's refusals are the findings
 * (OZ-S030), so lint and install decide the same; one that loads has no plugin.yaml rules to run.
 */
async function checkForeign(root: string, options: CheckOptions): Promise<CheckResult> {
  const files: PluginFiles = {
    manifest: undefined,
    agents: [],
    toolManifests: [],
    paths: new Map(),
    schemas: new Map(),
    scripts: new Map(),
    code: { status: "none" },
    listing: undefined,
  };
  try {
    const loaded = await loadPluginDir(root);
    // What the tenant would refuse, at the file of the part concerned (the manifest's place is
    // the file that names the plugin: plugin.json, or the skill's SKILL.md).
    const manifestFile =
      loaded.skills.length === 1 && loaded.skills[0]?.file === "SKILL.md"
        ? "SKILL.md"
        : ".claude-plugin/plugin.json";
    const problems = (await options.tenant?.check?.(root)) ?? [];
    const findings = problems.map((problem) =>
      finding(
        problem.code,
        { file: problem.file === "plugin.yaml" ? manifestFile : problem.file, line: 1, column: 1 },
        problem.message,
      ),
    );
    return { root, files, plugin: loaded.manifest.name, findings: orderFindings(findings) };
  } catch (error) {
    if (!isOz0Error(error)) throw error;
    const refusals = error.data?.refusals as FormatRefusal[] | undefined;
    const findings =
      refusals === undefined
        ? [finding("OZ-E004", { file: ".", line: 1, column: 1 }, error.message)]
        : refusals.map((r) => finding("OZ-S030", r, r.field === "" ? r.message : `${r.field}: ${r.message}`));
    return { root, files, plugin: undefined, findings: orderFindings(findings) };
  }
}

function placeKey(f: { file: string; line: number; column: number }): string {
  return `${f.file}:${f.line}:${f.column}`;
}

/**
 * The refusal of an install whose plugin has lint errors, each at its place with its code, or
 * `undefined` when it has none; `attempt` opens the message (`cannot install …`).
 */
export function lintRefusal(
  findings: readonly LintFinding[],
  attempt: string,
  dir: string,
): Oz0Error | undefined {
  const errors = findings.filter((f) => f.severity === "error");
  if (errors.length === 0) return undefined;
  const count = errors.length === 1 ? "1 error" : `${errors.length} errors`;
  const lines = errors.map((f) => `\n  - ${f.file}:${f.line}:${f.column} ${f.code} ${f.message}`).join("");
  return new Oz0Error(
    "INVALID_PLUGIN",
    `${attempt}: plugin lint finds ${count}:${lines}\nFix them and try again (oz0 plugin lint ${dir} checks the folder; docs/lint.md explains each code).`,
    {
      data: {
        detail: "lint errors",
        findings: errors.map(({ file, line, column, code, message }) => ({
          file,
          line,
          column,
          code,
          message,
        })),
      },
    },
  );
}
