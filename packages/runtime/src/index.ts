// @oz0/runtime: the oz0 engine. Each concept lives in its own folder; this entry exports what
// the server and the CLI use.

export {
  buildCard,
  type Card,
  type CardColumn,
  type CardField,
  type DiffLine,
  lineDiff,
} from "./cards/index.js";
export {
  Catalog,
  type CatalogEntry,
  type CatalogOptions,
  type ChangeOptions,
  type ChangeReport,
  DEFAULTS_SETTING,
  type DefaultPluginOutcome,
  defaultPluginDirs,
  nameClashError,
  type PartRef,
  type PluginChange,
  type PluginDetail,
  type PluginSummary,
  type ReferenceProblem,
  type ResolvedPart,
  type ResolveKind,
  type ResolveOptions,
  toolClashError,
} from "./catalog/index.js";
export {
  buildHookTable,
  type GovernanceEvent,
  type GovernanceEventData,
  HookBus,
  type HookPlugin,
  type HookSource,
  HookTable,
  pluginHookSource,
  RunHooks,
  runHooksOf,
  storeHookSource,
} from "./hooks/index.js";
export {
  JOB_ENGINE_DEFAULTS,
  JOB_EVENT_KINDS,
  JobEngine,
  type JobEngineOptions,
  type JobEvent,
  type JobEventKind,
  type JobFailure,
  type JobView,
  type RunListeners,
  type RunOptions,
  type SearchFilter,
  type StartRequest,
  type WaitingFor,
} from "./jobs/index.js";
export {
  formatFinding,
  formatSummary,
  LINT_CODES,
  type LintCode,
  type LintFinding,
  type LintOptions,
  type LintReport,
  type LintSummary,
  lintPlugin,
  OFFICIAL_HARNESSES,
  type TenantContext,
  tenantContextFromCatalog,
} from "./lint/index.js";
export {
  checkSecretKind,
  JOB_META_KEY,
  MCP_HTTP_PATH,
  type McpConnectionStatus,
  McpManager,
  type McpSecretKind,
  type McpSecretNames,
  type McpToolReport,
  mcpToolAt,
  mcpToolReports,
  OzMcpServer,
  serveHttp,
  serveStdio,
} from "./mcp/index.js";
export { MEMORY_LIMITS, MemoryProviders, StoreMemoryDatabase } from "./memory/index.js";
export {
  type AliasView,
  DEFAULT_MODEL_ALIAS,
  type KeyView,
  type LanguageModel,
  type ModelChoice,
  type ModelReply,
  type ModelRequest,
  type ModelResolver,
  Models,
  modelResolver,
  modelSettingKey,
  PROVIDER_TYPES,
  type PriceView,
  type ProviderChange,
  type ProviderType,
  type ProviderView,
  parseTestScript,
  TEST_PROVIDER,
  testModel,
} from "./models/index.js";
export {
  PluginConfigs,
  type PluginConfigView,
  pluginConfigKey,
} from "./plugin-config/index.js";
export {
  type LoadedAgent,
  type LoadedPlugin,
  type LoadedSkill,
  type LoadedToolManifest,
  loadPluginDir,
  type ToolManifestHandler,
} from "./plugin-dir/index.js";
export {
  type ApprovalDecision,
  type ApprovalFilter,
  Approvals,
  type ApprovalView,
  type DecisionReport,
  Inventory,
  type InventoryEntry,
  type KillReport,
  KillSwitches,
  type KillSwitchView,
  type PatternScope,
  type PolicyChange,
  type PolicyRuleView,
  ToolPolicy,
} from "./policy/index.js";
export { defaultHome, Runtime, type RuntimeOptions } from "./runtime.js";
export { type ScaffoldResult, scaffoldPlugin } from "./scaffold/index.js";
export { DEFAULT_PROPOSAL_BASE, type ProposalView, SkillProposals } from "./skills/index.js";
export {
  DEFAULT_TENANT,
  JOB_STATUSES,
  type JobRow,
  type JobStatus,
  openStore,
  PROPOSAL_STATUSES,
  type ProposalStatus,
  type Store,
  type StoreEngine,
  type StoreOptions,
  storeOptionsFromEnv,
} from "./store/index.js";
export { GEN_AI, Telemetry, type TelemetryOptions, tracesUrl } from "./telemetry/index.js";
export {
  type ArgumentChange,
  type ArgumentChanger,
  type CallableFunction,
  type CallInterceptor,
  type CallOutcome,
  dispatchCall,
  FunctionResolver,
  type PartSource,
  ToolCaller,
  type ToolCallReport,
} from "./tools/index.js";
export { tenantUsage, type UsageQuery, type UsageTotals } from "./usage/index.js";
