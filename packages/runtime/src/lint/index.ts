// Plugin lint: every rule the spec names, each with a stable code (docs/lint.md), over a plugin
// folder alone or against a tenant that knows the other plugins' parts, with --fix for what
// can be rewritten safely.
export {
  type CheckOptions,
  type CheckResult,
  checkPlugin,
  lintFiles,
  lintRefusal,
  type TenantProblem,
} from "./checks.js";
export { LINT_CODES, type LintCode, type LintCodeInfo, type LintSeverity } from "./codes.js";
export {
  type AgentContract,
  type ContractBreak,
  contractBreaks,
  describeBreak,
  FAILURE_FLAGS,
  type FailureFlag,
  isNewMajor,
  nextMajor,
  type PluginContract,
} from "./contracts.js";
export {
  formatFinding,
  formatSummary,
  type LintFinding,
  type LintFix,
  type LintSummary,
  summarize,
} from "./finding.js";
export { applyFixes, fixYaml } from "./fix.js";
export {
  type HarnessProtocol,
  JSONL_HARNESS_TOOLS,
  OFFICIAL_HARNESSES,
  type OfficialHarness,
} from "./harnesses.js";
export { type LintOptions, type LintReport, lintPlugin } from "./lint.js";
export { LISTING_FILE, type ListedFunction, type ToolListing } from "./listing.js";
export { type ReadResult, readPluginFiles } from "./read.js";
export { type LintRule, missingFunctionProblem, type RuleContext } from "./rules/index.js";
export { runtimeModelProblem, runtimeProblem } from "./runtimes.js";
export type { PluginFiles } from "./source.js";
export {
  type CatalogReader,
  type TenantContext,
  type TenantPartEntry,
  type TenantPlugin,
  tenantContextFromCatalog,
  tenantContextFromEntries,
} from "./tenant.js";
