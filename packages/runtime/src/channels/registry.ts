// The channels a tenant's plugins register (`host.addChannel`, `registerManagedChannelPlugin`, a
// SurfaceAdapter contract), each built once per loaded plugin and config with the plugin's
// config in the tenant: the one place a channel's config is read (`PluginConfigs.effective`,
// secrets decrypted). A rebuilt channel's started adapter is stopped first.
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
  started?: AbortController;
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
      for (const registration of registrations) {
        const spec = registration.spec;
        entries.push({
          tenant,
          plugin: row.name,
          name: registration.name,
          spec,
          enabled: registration.enabled,
          supportsNotifications: spec.supportsNotifications ?? false,
          configured: spec.configured?.(config) ?? true,
          notificationsEnabled: spec.notificationsEnabled?.(config) ?? false,
          loaded,
          config,
        });
      }
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
    if (had !== undefined) await this.#stop(key, had);
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

  /** Starts the channel's listener (its `start`), once; the signal of `stop` ends it. */
  async start(entry: ChannelEntry, submit: (envelope: SurfaceEnvelope) => Promise<void>): Promise<void> {
    const channel = await this.channel(entry, submit);
    const built = this.#built.get(keyOf(entry.tenant, entry.plugin, entry.name));
    if (built === undefined || built.started !== undefined) return;
    const started = new AbortController();
    built.started = started;
    await channel.start?.({ submit, signal: started.signal });
  }

  /** Every started channel of `tenant` (all tenants' when left out) not in `keep`, stopped and forgotten. */
  async stopExcept(keep: ReadonlySet<string>, tenant?: string): Promise<void> {
    for (const [key, built] of [...this.#built]) {
      if (tenant !== undefined && !key.startsWith(`${tenant}\0`)) continue;
      if (!keep.has(key)) await this.#stop(key, built);
    }
  }

  async #stop(key: string, built: Built): Promise<void> {
    this.#built.delete(key);
    if (built.started === undefined) return;
    built.started.abort();
    const channel = await built.channel.catch(() => undefined);
    await channel?.stop?.();
  }
}

export function keyOf(tenant: string, plugin: string, name: string): string {
  return `${tenant}\0${plugin}\0${name}`;
}
