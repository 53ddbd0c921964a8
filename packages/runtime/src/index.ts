// @oz0/runtime: the oz0 engine. Each concept lives in its own folder; this entry exports what
// the server and the CLI use.

export {
  Catalog,
  type CatalogEntry,
  type ChangeOptions,
  type ChangeReport,
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
  DEFAULT_MODEL_ALIAS,
  type LanguageModel,
  type ModelChoice,
  type ModelReply,
  type ModelRequest,
  type ModelResolver,
  modelResolver,
  modelSettingKey,
  parseTestScript,
  TEST_PROVIDER,
  testModel,
} from "./models/index.js";
export { type LoadedAgent, type LoadedPlugin, type LoadedSkill, loadPluginDir } from "./plugin-dir/index.js";
export { defaultHome, Runtime, type RuntimeOptions } from "./runtime.js";
export { type ScaffoldResult, scaffoldPlugin } from "./scaffold/index.js";
export {
  DEFAULT_TENANT,
  JOB_STATUSES,
  type JobRow,
  type JobStatus,
  openStore,
  type Store,
  type StoreEngine,
  type StoreOptions,
  storeOptionsFromEnv,
} from "./store/index.js";
export {
  type CallableFunction,
  type CallInterceptor,
  type CallOutcome,
  dispatchCall,
  FunctionResolver,
  type PartSource,
  ToolCaller,
  type ToolCallReport,
} from "./tools/index.js";
