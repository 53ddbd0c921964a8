// `oz0 plugin lint [dir] [--fix] [--verified]`: every problem of a plugin folder, one a line as
// file:line:col severity CODE message, then a count; exit code 1 when there is an error. With
// --tenant or --home it lints against that tenant's installed plugins, to know their parts and
// what an install there would refuse.
import type { LintCode, LintFinding, LintSummary } from "@oz0/runtime";
import { type Command, CommanderError } from "commander";
import { withLocalRuntime } from "../context.js";
import type { Output } from "../output.js";

interface LintCommandOptions {
  fix?: boolean;
  verified?: boolean;
}

/** One finding as `--json` prints it. */
export interface PrintedFinding {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly severity: LintFinding["severity"];
  readonly code: LintCode;
  readonly message: string;
  /** `--fix` can rewrite it. */
  readonly fixable: boolean;
}

export interface LintOutput {
  readonly findings: readonly PrintedFinding[];
  readonly summary: LintSummary;
}

/** Adds `lint` to the `oz0 plugin` command. */
export function registerPluginLint(pluginCommand: Command, out: Output): Command {
  return pluginCommand
    .command("lint")
    .description("check a plugin folder and report every problem with its place and code (docs/lint.md)")
    .argument("[dir]", "the plugin folder", ".")
    .option("--fix", "rewrite what lint can: bare names of other plugins' parts become their addresses")
    .option(
      "--verified",
      "hold the plugin to a verified plugin's rules, as verified: true in plugin.yaml does",
    )
    .action(async (dir: string, options: LintCommandOptions, command: Command) => {
      const { formatFinding, formatSummary, lintPlugin } = await import("@oz0/runtime");
      const flags = { fix: options.fix === true, verified: options.verified === true };
      // Against a tenant, the catalog stays open while lint runs: it checks what install would refuse.
      const report = selectsTenant(command)
        ? await withLocalRuntime(out, ({ services, caller }) => services.plugins.lint(caller, dir, flags))
        : await lintPlugin(dir, flags);
      out.result<LintOutput>({ findings: report.findings.map(toPrinted), summary: report.summary }, () =>
        [...report.findings.map(formatFinding), formatSummary(report.summary)].join("\n"),
      );
      // Commander's own error for "exit with this code": the findings are already printed.
      if (report.summary.errors > 0)
        throw new CommanderError(1, "oz0.plugin.lint", formatSummary(report.summary));
    });
}

function toPrinted(f: LintFinding): PrintedFinding {
  return {
    file: f.file,
    line: f.line,
    column: f.column,
    severity: f.severity,
    code: f.code,
    message: f.message,
    fixable: f.fix !== undefined,
  };
}

/** Lint reads a tenant only when asked to: --tenant or --home given on the command line. */
function selectsTenant(command: Command): boolean {
  let root = command;
  while (root.parent !== null) root = root.parent;
  return root.getOptionValueSource("tenant") === "cli" || root.getOptionValueSource("home") === "cli";
}
