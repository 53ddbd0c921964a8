// Services: the one layer every surface (CLI, server) calls, each operation taking a Caller
// first; the role table; and the public result shapes every surface prints.

export type { AuditService } from "./audit.js";
export type {
  CatalogService,
  FlowDetail,
  Inventoried,
  LintAgainstTenant,
  LookupKind,
  PluginsService,
} from "./catalog.js";
export type { ChangeEvent, ChangeListener, ServiceDeps } from "./core.js";
export {
  type ApprovalsService,
  CALL_PREVIEW_LIMITS,
  type DecidedCall,
  type InventoryService,
  type KillSwitchesService,
  type PatternCalls,
  type PolicyAction,
  type PolicyService,
  type SwitchKind,
} from "./governance.js";
export type { IdentityService } from "./identity.js";
export {
  answerText,
  type ChatOpen,
  type ChatService,
  type FollowJob,
  type JobSearch,
  type JobsService,
  type RunWatch,
  type StartJob,
} from "./jobs.js";
export type { McpLogin, McpService, SecretRemoved, SecretSet } from "./mcp.js";
export type { ModelsService } from "./models.js";
export type { PartHint } from "./parts.js";
export type { PluginConfigService } from "./plugin-config.js";
export { type AdminStatusView, type PluginStatusView, STATUS_TIMEOUT_MS } from "./plugin-status.js";
export type { RecordFilter, RecordsService } from "./records.js";
export type { RemoteService } from "./remote.js";
export { type ChatTurn, type RunOutcome, type RunResult, runResult } from "./results.js";
export { SERVICE_ROLES, type ServiceAction } from "./roles.js";
export type { RoutinesService } from "./routines.js";
export { Services, type ServicesOptions } from "./services.js";
export type { ShownProposal, SkillsService } from "./skills.js";
export type { ToolsService } from "./tools.js";
export type { UsageAmounts, UsageBy, UsageReport, UsageRow, UsageService } from "./usage.js";
