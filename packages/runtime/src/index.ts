// @oz0/runtime: the oz0 engine. Each concept lives in its own folder; this entry exports what
// the server and the CLI use.

export type { AuditEntry } from "./audit/index.js";
export {
  bundleFolder,
  packBundle,
  packFolder,
  unpackBundle,
} from "./bundles/index.js";
export {
  type Caller,
  localAdmin,
  type Role,
  requireRole,
} from "./callers/index.js";
export type {
  Card,
  CardField,
} from "./cards/index.js";
export type {
  CatalogEntry,
  ChangeReport,
  GrantReport,
  PluginDetail,
  PluginSummary,
} from "./catalog/index.js";
export {
  CHANNEL_DEFAULTS,
  ChannelDrainer,
  ChannelHost,
  type ChannelView,
  type InboundRequest,
  type InboundResult,
} from "./channels/index.js";
export {
  pluginHookSource,
  RunHooks,
} from "./hooks/index.js";
export {
  type ApiKeyView,
  type MemberChange,
  type MemberView,
  parseAgentList,
  parseDuration,
  type StartedSession,
  type TenantView,
  type UserView,
} from "./identity/index.js";
export {
  type DecisionReport,
  type FollowItem,
  JobEngine,
  type JobEvent,
  type JobView,
  JobWorker,
  type NodeView,
  type PoolMapping,
  type WorkerOptions,
} from "./jobs/index.js";
export {
  formatFinding,
  formatSummary,
  type LintCode,
  type LintFinding,
  type LintSummary,
  lintPlugin,
} from "./lint/index.js";
export {
  cameBack,
  importMcpServers,
  loopback,
  MCP_SECRET_KINDS,
  type McpImport,
  type McpSecretKind,
  type McpSecretNames,
  type McpToolReport,
  type OzMcpServer,
  SessionEventStore,
  serveHttp,
  serveStdio,
  withdrawIfGone,
  writeMcpImport,
} from "./mcp/index.js";
export { type Isolation, processIsolation } from "./mediated/index.js";
export type {
  AliasView,
  KeyView,
  LanguageModel,
  PriceView,
  ProviderChange,
  ProviderType,
  ProviderView,
} from "./models/index.js";
export {
  type PluginConfigView,
  pluginConfigKey,
} from "./plugin-config/index.js";
export {
  type LoadedToolManifest,
  loadPluginDir,
} from "./plugin-dir/index.js";
export {
  type InstalledPluginState,
  type ManagedRuntime,
  PluginRuntimeHost,
  PluginRuntimes,
  type PluginRuntimeView,
  RESTART_DEFAULTS,
  RUNTIME_HOST_DEFAULTS,
  RUNTIME_STATES,
  type RuntimeClock,
  type RuntimeSource,
  type RuntimeState,
  type RuntimeStatus,
  RuntimeSupervisor,
  restartDelay,
  type WantedRuntime,
} from "./plugin-runtimes/index.js";
export type {
  ApprovalView,
  InventoryEntry,
  KillSwitchView,
  PolicyChange,
  PolicyRuleView,
} from "./policy/index.js";
export type { Erasure, RecordHold, Retention, TenantRecord } from "./records/index.js";
export {
  type FireView,
  Routines,
  type RoutineView,
  signWebhook,
} from "./routines/index.js";
export {
  defaultHome,
  Runtime,
} from "./runtime.js";
export { scaffoldPlugin } from "./scaffold/index.js";
export {
  type AdminStatusView,
  answerText,
  CALL_PREVIEW_LIMITS,
  type ChatTurn,
  type DecidedCall,
  type FlowDetail,
  type Inventoried,
  type PatternCalls,
  type PluginStatusView,
  runResult,
  SERVICE_ROLES,
  type ServiceAction,
  Services,
  type ShownProposal,
} from "./services/index.js";
export type { ProposalView } from "./skills/index.js";
export {
  type JobStatus,
  openStore,
  type ProposalStatus,
  type Store,
} from "./store/index.js";
export {
  type CallableFunction,
  dispatchCall,
  type PartSource,
  type ToolCallReport,
} from "./tools/index.js";
export { tenantUsage } from "./usage/index.js";
