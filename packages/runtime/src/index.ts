// @oz0/runtime: the oz0 engine. Each concept lives in its own folder; this entry exports what
// the server and the CLI use.

export { type LoadedAgent, type LoadedPlugin, type LoadedSkill, loadPluginDir } from "./plugin-dir/index.js";
export { defaultHome, Runtime, type RuntimeOptions } from "./runtime.js";
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
