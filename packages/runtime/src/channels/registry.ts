// The channels a tenant's plugins register (`host.addChannel`, `registerManagedChannelPlugin`, a
// SurfaceAdapter contract), each built once per loaded plugin and config with the plugin's
// config in the tenant: the one place a channel's config is read (`PluginConfigs.effective`,
// secrets decrypted). A channel's listener is not started here: the runtime host runs it
// (ChannelHost.listeners), once per tenant cluster-wide.
import type { Channel, ChannelSpec, PluginConfig, SurfaceEnvelope } from "@oz0/sdk";
import { Oz0Error } from "@oz0/sdk";
import type { LoadedPlugin } from "../plugin-dir/index.js";
import type { Store } from "../store/index.js";

/** Where the registry gets a tenant's plugins and their config. */
export interface ChannelSource {
  loadInstalled(tenant: string, plugin: string): Promise<LoadedPlugin>;
  config(tenant: string, plugin: string, loaded: LoadedPlugin): Promise<PluginConfig>;
}

/** One channel of a tenant, as its config makes it now. */
export interface ChannelEntry {
  readonly tenant: string;
  readonly plugin: string;
  readonly name: string;
  readonly spec: ChannelSpec;
  /** Whether its registration is enabled (a disabled one is listed, and neither started nor fed). */
  readonly enabled: boolean;
  readonly supportsNotifications: boolean;
  readonly configured: boolean;
  readonly notificationsEnabled: boolean;
  readonly loaded: LoadedPlugin;
  readonly config: PluginConfig;
}

interface Built {
  readonly loaded: LoadedPlugin;
  readonly config: string;
  readonly channel: Promise<Channel>;
}

/** `<plugin>/<channel>`: how routines, hooks and the CLI name a channel. */
export function channelAddress(plugin: string, name: string): string {
  return `${plugin}/${name}`;
}

export class ChannelRegistry {
  readonly #store: Store;
  readonly #source: ChannelSource;
  readonly #built = new Map<string, Built>();

  constructor(store: Store, source: ChannelSource) {
    this.#store = store;
    this.#source = source;
  }

  /** The tenant's channels, by plugin then registration order; only plugins declaring `channel` are loaded. */
  async list(tenant: string): Promise<ChannelEntry[]> {
    const rows = await this.#store.db
      .selectFrom("plugins")
      .select(["name", "manifest"])
      .where("tenant", "=", tenant)
      .orderBy("name")
      .execute();
    const entries: ChannelEntry[] = [];
    for (const row of rows) {
      const capabilities = (JSON.parse(row.manifest) as { capabilities?: unknown }).capabilities;
      if (!Array.isArray(capabilities) || !capabilities.includes("channel")) continue;
      const loaded = await this.#source.loadInstalled(tenant, row.name);
      const registrations = loaded.code?.registrations("channel") ?? [];
      if (registrations.length === 0) continue;
      const config = await this.#source.config(tenant, row.name, loaded);
      for (const registration of registrations)
        entries.push(channelEntry(tenant, row.name, registration, loaded, config));
    }
    return entries;
  }

  /** The channel `plugin/name` of `tenant`, or undefined when there is none. */
  async find(tenant: string, plugin: string, name: string): Promise<ChannelEntry | undefined> {
    return (await this.list(tenant)).find((entry) => entry.plugin === plugin && entry.name === name);
  }

  /**
   * The channel built from `entry`'s spec and config; built again (the old one stopped) when the
   * plugin was loaded afresh or its config changed.
   */
  async channel(entry: ChannelEntry, submit: (envelope: SurfaceEnvelope) => Promise<void>): Promise<Channel> {
    const key = keyOf(entry.tenant, entry.plugin, entry.name);
    const config = JSON.stringify(entry.config);
    const had = this.#built.get(key);
    if (had !== undefined && had.loaded === entry.loaded && had.config === config) return had.channel;
    const channel = Promise.resolve(
      entry.spec.build({ pluginId: entry.plugin, config: entry.config, submit }),
    ).then((built) => {
      if (typeof (built as Partial<Channel> | undefined)?.deliver !== "function") {
        throw new Oz0Error(
          "INVALID_PLUGIN",
          `channel ${channelAddress(entry.plugin, entry.name)}: build(ctx) must return a channel with deliver(envelope, response).`,
          { data: { plugin: entry.plugin, detail: "channel build did not return a channel" } },
        );
      }
      // Only a channel that supports notifications is sent any: a notify nothing calls is refused.
      if (typeof built.notify === "function" && entry.spec.supportsNotifications !== true) {
        throw new Oz0Error(
          "INVALID_PLUGIN",
          `channel ${channelAddress(entry.plugin, entry.name)}: build(ctx) returned a channel with notify(notification), but its spec does not say supportsNotifications: true, so oz0 would never call it; set supportsNotifications: true with notificationsEnabled(config), or remove notify.`,
          { data: { plugin: entry.plugin, detail: "channel notify without supportsNotifications" } },
        );
      }
      return built;
    });
    const fresh: Built = { loaded: entry.loaded, config, channel };
    this.#built.set(key, fresh);
    // A failed build is not kept: the next message tries again.
    channel.catch(() => {
      if (this.#built.get(key) === fresh) this.#built.delete(key);
    });
    return channel;
  }
}

export function keyOf(tenant: string, plugin: string, name: string): string {
  return `${tenant}\0${plugin}\0${name}`;
}

/** A channel registration of a loaded plugin, as `config` makes it. */
export function channelEntry(
  tenant: string,
  plugin: string,
  registration: { readonly name: string; readonly spec: ChannelSpec; readonly enabled: boolean },
  loaded: LoadedPlugin,
  config: PluginConfig,
): ChannelEntry {
  const spec = registration.spec;
  return {
    tenant,
    plugin,
    name: registration.name,
    spec,
    enabled: registration.enabled,
    supportsNotifications: spec.supportsNotifications ?? false,
    configured: spec.configured?.(config) ?? true,
    notificationsEnabled: spec.notificationsEnabled?.(config) ?? false,
    loaded,
    config,
  };
}
