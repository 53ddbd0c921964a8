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

  /**
   * Sets the config (a JSON object over the plugin's defaults), checked by its admin spec. A
   * value sent back exactly as `show` masked it keeps the secret it stands for, so a config read,
   * edited and set again does not overwrite its secrets with their masks.
   */
  async set(caller: Caller, plugin: string, config: unknown): Promise<PluginConfigView> {
    return this.#core.change(caller, "pluginConfig.set", plugin, async (tenant) => {
      const { configs } = this.#core.deps.catalog;
      const shown = (await configs.show(tenant, plugin)).config;
      const kept = keepSecrets(config, shown, await configs.effective(tenant, plugin));
      return configs.set(tenant, plugin, kept);
    });
  }

  /** Forgets what was set: the plugin's defaults apply. Returns the config as it then is. */
  async unset(caller: Caller, plugin: string): Promise<PluginConfigView> {
    return this.#core.change(caller, "pluginConfig.unset", plugin, async (tenant) => {
      await this.#core.deps.catalog.configs.unset(tenant, plugin);
      return this.#core.deps.catalog.configs.show(tenant, plugin);
    });
  }
}

/**
 * `sent` with each string that equals the masked `shown` value at its place, where the config in
 * clear (`clear`) holds something else there, replaced by that value in clear.
 */
function keepSecrets(sent: unknown, shown: unknown, clear: unknown): unknown {
  if (typeof sent === "string") {
    return sent === shown && typeof clear === "string" && clear !== shown ? clear : sent;
  }
  if (Array.isArray(sent)) {
    return sent.map((item, at) =>
      keepSecrets(
        item,
        Array.isArray(shown) ? shown[at] : undefined,
        Array.isArray(clear) ? clear[at] : undefined,
      ),
    );
  }
  if (typeof sent === "object" && sent !== null) {
    const field = (from: unknown, name: string) =>
      typeof from === "object" && from !== null && !Array.isArray(from)
        ? (from as Record<string, unknown>)[name]
        : undefined;
    return Object.fromEntries(
      Object.entries(sent).map(([name, value]) => [
        name,
        keepSecrets(value, field(shown, name), field(clear, name)),
      ]),
    );
  }
  return sent;
}
