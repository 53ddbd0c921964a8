// A plugin's configuration in the caller's tenant: shown through the plugin's redaction to a
// viewer, set or unset by an operator.
import type { Caller } from "../callers/index.js";
import type { PluginConfigView } from "../plugin-config/index.js";
import type { ServiceCore } from "./core.js";

export class PluginConfigService {
  readonly #core: ServiceCore;

  constructor(core: ServiceCore) {
    this.#core = core;
  }

  async show(caller: Caller, plugin: string): Promise<PluginConfigView> {
    return this.#core.deps.catalog.configs.show(this.#core.check(caller, "pluginConfig.show"), plugin);
  }

  /** Sets the config (a JSON object over the plugin's defaults), checked by its admin spec. */
  async set(caller: Caller, plugin: string, config: unknown): Promise<PluginConfigView> {
    return this.#core.change(caller, "pluginConfig.set", plugin, (tenant) =>
      this.#core.deps.catalog.configs.set(tenant, plugin, config),
    );
  }

  /** Forgets what was set: the plugin's defaults apply. Returns the config as it then is. */
  async unset(caller: Caller, plugin: string): Promise<PluginConfigView> {
    return this.#core.change(caller, "pluginConfig.unset", plugin, async (tenant) => {
      await this.#core.deps.catalog.configs.unset(tenant, plugin);
      return this.#core.deps.catalog.configs.show(tenant, plugin);
    });
  }
}
