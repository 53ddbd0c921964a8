// Every lint rule, in the order they run. The schema's own problems are classified where files
// are read (../classify.ts); these are the rules that need more than one file, the disk, the
// code's registrations or the tenant.
import { checkAdmin } from "./admin.js";
import { checkBuiltins } from "./builtins.js";
import { checkCapabilities } from "./capabilities.js";
import { checkCards } from "./cards.js";
import { checkChannels } from "./channels.js";
import { checkContract } from "./contract.js";
import { checkFailureContract } from "./failure-contract.js";
import { checkHarness } from "./harness.js";
import { checkLabels } from "./labels.js";
import { checkModelNames } from "./model-names.js";
import { checkDuplicateAgents } from "./parts.js";
import { checkPaths } from "./paths.js";
import { checkReferences } from "./references.js";
import { checkRoutines } from "./routines.js";
import type { LintRule } from "./rule.js";
import { checkRuntimeFields } from "./runtime-fields.js";
import { checkRuntimeModels } from "./runtime-models.js";
import { checkRuntimes } from "./runtimes.js";
import { checkSchemas } from "./schemas.js";
import { checkScripts } from "./scripts.js";

export { missingFunctionProblem } from "./references.js";
export type { LintRule, RuleContext } from "./rule.js";

export const RULES: readonly LintRule[] = [
  checkDuplicateAgents,
  checkPaths,
  checkContract,
  checkCards,
  checkSchemas,
  checkScripts,
  checkModelNames,
  checkRuntimes,
  checkRuntimeModels,
  checkRuntimeFields,
  checkHarness,
  checkReferences,
  checkBuiltins,
  checkCapabilities,
  checkAdmin,
  checkFailureContract,
  checkRoutines,
  checkLabels,
  checkChannels,
];
