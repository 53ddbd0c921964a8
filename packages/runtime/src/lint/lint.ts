// Lints a plugin folder: runs the checks install runs too (checks.ts) over every file, as far
// as it parses, writes the measured listing (tools.listing.json), and with `fix` rewrites what can
// be rewritten and lints again, so the report shows what is left.
import { isEscape, readInPlugin, writeInPlugin } from "../plugin-dir/index.js";
import { checkPlugin } from "./checks.js";
import { finding, type LintFinding, type LintSummary, orderFindings, summarize } from "./finding.js";
import { applyFixes } from "./fix.js";
import type { TenantContext } from "./tenant.js";

export interface LintOptions {
  /** Rewrite what lint can (bare names of other plugins' parts) in the plugin's files. */
  readonly fix?: boolean;
  /** Hold the plugin to a verified plugin's rules, whatever its manifest says. */
  readonly verified?: boolean;
  /** The tenant to lint against, to know other plugins' parts. */
  readonly tenant?: TenantContext;
  /** Write tools.listing.json (the default); false only measures it. */
  readonly writeListing?: boolean;
}

export interface LintReport {
  /** The plugin's name, when plugin.yaml gives one. */
  readonly plugin: string | undefined;
  readonly findings: readonly LintFinding[];
  readonly summary: LintSummary;
  /** The listing file written, relative to the plugin folder; `undefined` when none was. */
  readonly listing: string | undefined;
}

/**
 * Lints the plugin folder at `dir`. Throws INVALID_PLUGIN only when `dir` is not a plugin
 * folder; every problem of the plugin itself is a finding.
 * @example const { summary } = await lintPlugin("examples/support-triage"); // { errors: 0, warnings: 0, fixed: 0 }
 */
export async function lintPlugin(dir: string, options: LintOptions = {}): Promise<LintReport> {
  const once = () => checkPlugin(dir, { verified: options.verified, tenant: options.tenant });
  let result = await once();
  let fixed = 0;
  if (options.fix === true) {
    const fixes = result.findings.flatMap((f) => (f.fix === undefined ? [] : [f.fix]));
    if (fixes.length > 0) {
      fixed = await applyFixes(result.root, fixes);
      result = await once();
    }
  }
  let listing: string | undefined;
  let findings = result.findings;
  const source = result.files.listing;
  if (source !== undefined && options.writeListing !== false) {
    const refused = await writeListing(result.root, source.file, source.text);
    if (refused === undefined) listing = source.file;
    else findings = orderFindings([...findings, refused]);
  }
  return { plugin: result.plugin, findings, summary: summarize(findings, fixed), listing };
}

/**
 * Writes the listing, only when it changed, so an unchanged plugin's folder stays untouched.
 * A listing file that is a link out of the folder is left alone, and is the finding returned.
 */
async function writeListing(root: string, file: string, text: string): Promise<LintFinding | undefined> {
  try {
    const before = await readInPlugin(root, file).catch((error: unknown) => {
      if (isEscape(error)) throw error;
      return undefined;
    });
    if (before !== text) await writeInPlugin(root, file, text);
    return undefined;
  } catch (error) {
    if (!isEscape(error)) throw error;
    const why = `${error.message.replace(/; put the file itself inside the folder$/, "")}; lint writes the listing there, so remove the link`;
    return finding("OZ-S001", { file, line: 1, column: 1 }, why);
  }
}
