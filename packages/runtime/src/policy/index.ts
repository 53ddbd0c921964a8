// Tenant governance of calls and parts: tool policy rules (allow, ask, deny on address
// patterns), approvals of the calls an ask rule holds, kill switches on agents and tools, and
// the inventory of what each agent and tool is for. The job loop and the dispatch path read
// it through one cached reader per store, one version read per step.
export { type ApprovalRequest, type ApprovalView, newApprovalId } from "./approval-rows.js";
export {
  type ApprovalDecision,
  type ApprovalFilter,
  Approvals,
  type DecisionReport,
} from "./approvals.js";
export { type ApprovalSubject, approvalBinding, canonicalJson, definitionHash } from "./canonical.js";
export {
  bumpGovernanceVersion,
  GovernanceReader,
  governanceOf,
  type KillRecord,
  type TenantGovernance,
} from "./governance.js";
export { approvalBindingInterceptor, governanceInterceptor } from "./interceptor.js";
export { INVENTORY_LIMITS, Inventory, type InventoryChange, type InventoryEntry } from "./inventory.js";
export { governCall, governStep, waitsForApproval } from "./job-gate.js";
export { assertAgentRuns, type KillReport, KillSwitches, type KillSwitchView } from "./kill-switches.js";
export type { OwnerCheck } from "./owners.js";
export { CompiledPolicy, callAddress, type PolicyDecision, type PolicyRule } from "./rules.js";
export { type PatternScope, type PolicyChange, type PolicyRuleView, ToolPolicy } from "./tool-policy.js";
