// Builds the memory providers a plugin registers with `addMemory`, for one tenant: each gets a
// MemoryContext whose db is the plugin's own part of oz0's store and whose config is the one the
// plugin runs with in the tenant. A provider is built once per tenant, loaded plugin and config,
// so an edited plugin (loaded afresh) or a changed config gets a fresh one.

import type { MemoryProvider, PluginConfig, Summarizer } from "@oz0/sdk";
import { Oz0Error } from "@oz0/sdk";
import type { LoadedPlugin } from "../plugin-dir/index.js";
import type { Store } from "../store/index.js";
import { StoreMemoryDatabase } from "./database.js";

const PROVIDER_METHODS = ["store", "get", "search"] as const;

export class MemoryProviders {
  readonly #store: Store;
  readonly #built = new WeakMap<LoadedPlugin, Map<string, Promise<MemoryProvider>>>();

  constructor(store: Store) {
    this.#store = store;
  }

  /**
   * The memory provider `name` of `plugin`, or its only one when `name` is left out, built for
   * `tenant`. Throws NOT_FOUND for a name it does not register, INVALID_INPUT when a name is
   * needed to choose, INVALID_PLUGIN when its build returns no provider.
   */
  provider(
    tenant: string,
    plugin: LoadedPlugin,
    name?: string,
    config: PluginConfig = {},
  ): Promise<MemoryProvider> {
    const spec = chooseSpec(plugin, name);
    let built = this.#built.get(plugin);
    if (built === undefined) {
      built = new Map();
      this.#built.set(plugin, built);
    }
    // A provider is built again when the operator's config changes.
    const key = `${tenant}\0${spec.name}\0${JSON.stringify(config)}`;
    let provider = built.get(key);
    if (provider === undefined) {
      provider = this.#build(tenant, plugin.manifest.name, spec, config);
      built.set(key, provider);
      // A failed build is not kept: the next call tries again.
      const cache = built;
      provider.catch(() => cache.delete(key));
    }
    return provider;
  }

  async #build(
    tenant: string,
    plugin: string,
    spec: ReturnType<typeof chooseSpec>,
    config: PluginConfig,
  ): Promise<MemoryProvider> {
    const db = new StoreMemoryDatabase(this.#store, { tenant, plugin });
    const provider: unknown = await spec.build({
      pluginId: plugin,
      config,
      db,
      summarizer: noSummarizer,
    });
    const missing = PROVIDER_METHODS.filter(
      (method) => typeof (provider as Record<string, unknown> | undefined)?.[method] !== "function",
    );
    if (missing.length > 0) {
      throw new Oz0Error(
        "INVALID_PLUGIN",
        `memory provider '${spec.name}' of plugin '${plugin}': build(ctx) must return a provider with store, get and search; it has no ${missing.join(", ")}.`,
        { data: { plugin, detail: "memory build did not return a provider" } },
      );
    }
    return provider as MemoryProvider;
  }
}

function chooseSpec(plugin: LoadedPlugin, name: string | undefined) {
  const pluginName = plugin.manifest.name;
  // A provider its plugin disabled is not built, as if it were not registered.
  const registered = (plugin.code?.registrations("memory") ?? []).filter(
    (registration) => registration.enabled,
  );
  const names = registered.map((registration) => registration.name);
  if (name === undefined && registered.length === 1) return registered[0]!.spec;
  if (name === undefined && registered.length > 1) {
    throw new Oz0Error(
      "INVALID_INPUT",
      `plugin ${pluginName} registers the memory providers ${names.join(", ")}; name the one to use, such as memory("${names[0]}").`,
      { data: { issues: [{ path: "name", message: "several memory providers; name one" }] } },
    );
  }
  const found = registered.find((registration) => registration.name === name);
  if (found !== undefined) return found.spec;
  const has = names.length === 0 ? "registers none (host.addMemory)" : `registers ${names.join(", ")}`;
  throw new Oz0Error(
    "NOT_FOUND",
    `plugin ${pluginName} has no memory provider${name === undefined ? "" : ` ${name}`}: it ${has}.`,
    { data: { kind: "memory provider", name: name ?? "" } },
  );
}

/** Memory providers may not summarize with the tenant's model yet; saying so beats a silent stub. */
const noSummarizer: Summarizer = async () => {
  throw new Oz0Error(
    "INTERNAL",
    "summarizer: this oz0 does not give memory providers the tenant's model yet; keep entries whole, or summarize them before storing.",
  );
};
