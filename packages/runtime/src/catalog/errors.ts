// The catalog's refusals, worded once: the job engine raises the same clash errors when a job
// starts, so a person reads one sentence for one problem wherever it shows.
import { Oz0Error } from "@oz0/sdk";
import { closestWord } from "@oz0/sdk/internal";

/** `a and b`, `a, b and c`; or `a or b` with `joint` "or". */
export function listWords(words: readonly string[], joint: "and" | "or" = "and"): string {
  if (words.length <= 1) return words.join("");
  return `${words.slice(0, -1).join(", ")} ${joint} ${words.at(-1)}`;
}

/** Lines of a message below its first, each on its own line. */
export function bulleted(lines: readonly string[]): string {
  return lines.map((line) => `\n  - ${line}`).join("");
}

/**
 * Two plugins of a tenant define one agent or flow name (from before installs refused it), so
 * neither runs.
 * @example nameClashError("triage", ["b", "a"]).message
 * // "plugins a and b each define an agent or flow named triage, so neither runs. Remove one …"
 */
export function nameClashError(name: string, plugins: readonly string[]): Oz0Error {
  const sorted = [...plugins].sort();
  return new Oz0Error(
    "NAME_CLASH",
    `plugins ${listWords(sorted)} each define an agent or flow named ${name}, so neither runs. ` +
      "Remove one of the plugins, or update one to a version whose agent or flow has another name.",
    { data: { kind: "agent or flow", name, plugins: sorted } },
  );
}

/**
 * Two plugins of a tenant provide one tool ID, so neither's functions run (error type
 * ToolClash): the one text for it, whether the catalog or the dispatch path finds the clash.
 */
export function toolClashError(tool: string, plugins: readonly string[]): Oz0Error {
  const sorted = [...plugins].sort();
  return new Oz0Error(
    "TOOL_CLASH",
    `plugins ${listWords(sorted)} each define the tool ${tool}, so neither runs. ` +
      "Remove one of the plugins, or update one to a version whose tool has another ID.",
    { data: { tool, plugins: sorted } },
  );
}

/** `--force` must come with a reason, and a reason only with `--force`; returns the reason. */
export function forcedReason(options: { force?: boolean; reason?: string }): string | null {
  const reason = options.reason?.trim();
  if (options.force === true && (reason === undefined || reason === "")) {
    throw new Oz0Error(
      "INVALID_INPUT",
      "--force needs --reason TEXT: the reason is recorded with the change, for whoever finds the tenant this way later.",
      { data: { issues: [{ path: "reason", message: "required with --force" }] } },
    );
  }
  if (options.force !== true && reason !== undefined) {
    throw new Oz0Error(
      "INVALID_INPUT",
      "--reason goes with --force; leave it out, or add --force to go past what would be refused.",
      { data: { issues: [{ path: "force", message: "required with --reason" }] } },
    );
  }
  return options.force === true ? (reason ?? null) : null;
}

/** `plugin` is not installed in `tenant`; `dir` adds how to install it from there. */
export function notInstalledError(
  tenant: string,
  plugin: string,
  installed: readonly string[],
  dir?: string,
): Oz0Error {
  const guess = closestWord(plugin, installed);
  const hint = guess === undefined ? "" : `; did you mean ${guess}?`;
  const fix = dir === undefined ? "" : `. Install it with oz0 plugin install ${dir}`;
  return new Oz0Error("NOT_FOUND", `plugin ${plugin} is not installed in tenant ${tenant}${hint}${fix}`, {
    data: { kind: "plugin", name: plugin, tenant },
  });
}

/** An install of a plugin the tenant has: an update replaces it. */
export function alreadyInstalled(
  tenant: string,
  current: { name: string; version: string },
  wanted: { version: string; dir: string },
): Oz0Error {
  const { name } = current;
  const { version } = wanted;
  return new Oz0Error(
    "ALREADY_INSTALLED",
    `${name} ${current.version} is already installed in tenant ${tenant}; to replace it with ${version} from ${wanted.dir}, run oz0 plugin update ${wanted.dir}`,
    { data: { tenant, plugin: name, version: current.version } },
  );
}
