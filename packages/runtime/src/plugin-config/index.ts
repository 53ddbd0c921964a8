// A plugin's configuration in a tenant (`oz0 plugin config`), read by its tools, hooks and providers.
export {
  adminDefaults,
  effectiveConfig,
  PluginConfigs,
  type PluginConfigView,
  pluginConfigKey,
} from "./configs.js";
