// @oz0/plugin-governance: the code entry oz0 loads from plugin.yaml's `main: dist/index.js`.
import { createGovernancePlugin } from "./plugin.js";

export { BudgetGovernance, type BudgetOptions } from "./budget.js";
export {
  type BudgetConfig,
  configIssues,
  DEFAULT_CONFIG,
  DEFAULT_OUTPUT_RESERVE,
  type GovernanceConfig,
  PERIODS,
  type Period,
  type RateLimitConfig,
  readConfig,
} from "./config.js";
export { periodStart } from "./periods.js";
export { createGovernancePlugin, type GovernancePluginOptions } from "./plugin.js";
export { RateLimitGovernance, type RateLimitOptions } from "./rate-limit.js";

export default createGovernancePlugin();
