// Tenant governance of calls and parts: tool policy rules (allow, ask, deny on address
// patterns), the rows of the approvals an ask rule holds a call for, kill switches on agents
// and tools, and the inventory of what each agent and tool is for. The job loop (jobs/gate.ts)
// and the dispatch path read it through one cached reader per store, one version read per step.
export {
  type ApprovalRequest,
  type ApprovalView,
  approvalMismatch,
  approvalOfCall,
  approvalView,
  insertApprovals,
  moveApproval,
  newApprovalId,
  noteApproval,
  parseRequest,
} from "./approval-rows.js";
export { type ApprovalSubject, approvalBinding, canonicalJson, definitionHash } from "./canonical.js";
export {
  approvalDeniedError,
  approvalMismatchError,
  approvalRequiredError,
  killedAgentError,
  killedDelegateError,
  killedToolError,
  policyDeniedError,
} from "./errors.js";
export {
  bumpGovernanceVersion,
  GovernanceReader,
  governanceOf,
  type KillRecord,
  type TenantGovernance,
} from "./governance.js";
export { approvalBindingInterceptor, governanceInterceptor } from "./interceptor.js";
export { INVENTORY_LIMITS, Inventory, type InventoryChange, type InventoryEntry } from "./inventory.js";
export { assertAgentRuns, type KillReport, KillSwitches, type KillSwitchView } from "./kill-switches.js";
export type { OwnerCheck } from "./owners.js";
export { CompiledPolicy, callAddress, type PolicyDecision, type PolicyRule } from "./rules.js";
export {
  type PatternScope,
  type PolicyChange,
  type PolicyRuleView,
  type PolicyWhatIf,
  ToolPolicy,
} from "./tool-policy.js";
