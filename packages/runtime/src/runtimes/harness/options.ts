// What an agent's `harness:` options may say for the harness it runs on, and whether its
// harness still asks before each call: one check for lint (OZ-S033, OZ-S034), install and the
// job's start alike.
import type { HarnessProtocol } from "@oz0/sdk";
import { ACP_TOOL_KINDS } from "./kinds.js";

/** The options an ACP harness reads. */
export const ACP_OPTIONS: readonly string[] = ["tools", "requires_approval", "mode", "config", "needs"];

/** The client capabilities `needs` may ask for. */
export const ACP_NEEDS: readonly string[] = ["fs", "terminal"];

export interface OptionProblem {
  /** The option at fault; undefined for the options as a whole. */
  readonly key: string | undefined;
  readonly message: string;
}

/** What is wrong with `options` for harness `name` of `protocol`; none when nothing is. */
export function harnessOptionProblems(
  protocol: HarnessProtocol,
  name: string,
  options: Readonly<Record<string, unknown>>,
): OptionProblem[] {
  if (protocol === "jsonl") {
    return Object.keys(options).map((key) => ({
      key,
      message: `the JSON-lines harness '${name}' takes no harness: options; remove ${key}`,
    }));
  }
  const problems: OptionProblem[] = [];
  const at = `for the ACP harness '${name}'`;
  for (const key of Object.keys(options)) {
    if (!ACP_OPTIONS.includes(key)) {
      problems.push({
        key,
        message: `'${key}' is not an option ${at} (${ACP_OPTIONS.join(", ")}); remove it`,
      });
    }
  }
  for (const key of ["tools", "requires_approval"]) {
    const value = options[key];
    if (value === undefined) continue;
    if (!Array.isArray(value) || value.some((kind) => !ACP_TOOL_KINDS.includes(kind as string))) {
      problems.push({ key, message: `${key} ${at} lists ACP tool kinds (${ACP_TOOL_KINDS.join(", ")})` });
    }
  }
  if (options.mode !== undefined && typeof options.mode !== "string") {
    problems.push({ key: "mode", message: `mode ${at} is a session mode ID` });
  }
  const config = options.config;
  if (
    config !== undefined &&
    (typeof config !== "object" ||
      config === null ||
      Array.isArray(config) ||
      Object.values(config).some((value) => typeof value !== "string" && typeof value !== "boolean"))
  ) {
    problems.push({
      key: "config",
      message: `config ${at} maps setting IDs to values (text, or true/false)`,
    });
  }
  const needs = options.needs;
  if (
    needs !== undefined &&
    (!Array.isArray(needs) || needs.some((need) => !ACP_NEEDS.includes(need as string)))
  ) {
    problems.push({
      key: "needs",
      message: `needs ${at} lists client capabilities: ${ACP_NEEDS.join(", ")}`,
    });
  }
  return problems;
}

/**
 * Why the harness's `acp.asks` does not hold for these options, or undefined when it does: it
 * asks before each call in its own mode, and a mode other than its own, or any config, voids it.
 */
export function askProblem(
  spec: { readonly name: string; readonly acp?: { readonly asks?: boolean; readonly mode?: string } },
  options: Readonly<Record<string, unknown>>,
): string | undefined {
  if (spec.acp?.asks !== true)
    return `harness '${spec.name}' does not say it asks before each call (acp.asks)`;
  if (options.mode !== undefined && options.mode !== spec.acp.mode) {
    return `its harness.mode '${String(options.mode)}' is not harness '${spec.name}''s own mode, which voids its acp.asks`;
  }
  if (options.config !== undefined) return `its harness.config voids harness '${spec.name}''s acp.asks`;
  return undefined;
}
