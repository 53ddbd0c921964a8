// The shape every lint rule has: a pure function from the parsed plugin folder (and what lint
// knows beyond it) to findings.
import type { LintFinding } from "../finding.js";
import type { PluginFiles } from "../source.js";
import type { TenantContext } from "../tenant.js";

export interface RuleContext {
  /** Bare names of other plugins' parts are errors, not warnings. */
  readonly verified: boolean;
  /** The tenant the plugin is linted against, when one was given. */
  readonly tenant: TenantContext | undefined;
}

export type LintRule = (files: PluginFiles, context: RuleContext) => LintFinding[];
