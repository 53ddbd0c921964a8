// The hook bus: the tenant's hook table (every handler its plugins register through addHook,
// the lifecycle specs and governance contracts), run with each hook point's semantics, and the
// governance events it records in a job's history.

export type {
  GovernanceEvent,
  GovernanceEventData,
  GovernanceEventKind,
  GovernanceSink,
} from "../events/index.js";
export { HookBus, type HookFields, type HookOutcome, type HookScope } from "./bus.js";
export { hookInterceptor } from "./interceptor.js";
export {
  hookFailure,
  type JobEnd,
  type PromptSection,
  type RunForHooks,
  RunHooks,
  type RunHooksOptions,
  runHooksFor,
  runHooksOf,
} from "./run-hooks.js";
export {
  type HookSource,
  type PluginWithCode,
  pluginHookSource,
  storeHookSource,
} from "./source.js";
export {
  type BrokenRegistration,
  buildHookTable,
  HOOK_REGISTRATION_KINDS,
  type HookEntry,
  type HookPlugin,
  HookTable,
} from "./table.js";
