// Plugins' long-lived runtimes (`host.addRuntime`), reconciled from the desired plugin state:
// started, restarted with backoff, replaced and stopped, each in one process cluster-wide.
export {
  type InstalledPluginState,
  type ManagedRuntime,
  PluginRuntimeHost,
  RUNTIME_HOST_DEFAULTS,
  type RuntimeHostOptions,
  type RuntimeSource,
  registeredRuntimes,
  runtimeKey,
  type SourceEntry,
} from "./host.js";
export { type HostOptions, PluginRuntimes, type PluginRuntimeView } from "./runtimes.js";
export {
  RESTART_DEFAULTS,
  type RestartOptions,
  RUNTIME_STATES,
  type RuntimeClock,
  type RuntimeState,
  type RuntimeStatus,
  RuntimeSupervisor,
  restartDelay,
  systemClock,
  type WantedRuntime,
} from "./supervisor.js";
