// A runtime's plugin runtimes: the sources of what plugins want running, the hosts `oz0 serve`
// and `oz0 node` start, and the status of each runtime as the host that runs it last wrote it,
// readable from any process on the database.
import type { Catalog } from "../catalog/index.js";
import type { Store } from "../store/index.js";
import {
  PluginRuntimeHost,
  type RuntimeHostOptions,
  type RuntimeSource,
  registeredRuntimes,
  type SourceEntry,
} from "./host.js";
import type { RuntimeState } from "./supervisor.js";

/** One runtime of a plugin as `oz0 plugin status` shows it. */
export interface PluginRuntimeView {
  readonly plugin: string;
  readonly runtime: string;
  readonly state: RuntimeState;
  readonly restarts: number;
  readonly lastError: string | null;
  /** When it entered its state, epoch milliseconds; null when no host ever ran it. */
  readonly since: number | null;
  /** The node that runs it; null when none does. */
  readonly node: string | null;
}

export type HostOptions = Omit<RuntimeHostOptions, "store" | "catalog" | "sources">;

export class PluginRuntimes {
  readonly #store: Store;
  readonly #catalog: Catalog;
  readonly #sources: SourceEntry[] = [{ source: registeredRuntimes, capabilities: ["runtime"] }];
  readonly #hosts = new Set<PluginRuntimeHost>();

  constructor(store: Store, catalog: Catalog) {
    this.#store = store;
    this.#catalog = catalog;
  }

  /**
   * Adds a source of runtimes (a channel's adapter, started and stopped as a runtime): every host
   * asks it at each pass from now on, for each installed plugin whose manifest lists one of
   * `capabilities` (`["channel"]`). Returns what takes it away again.
   */
  addSource(source: RuntimeSource, capabilities: readonly string[]): () => void {
    const entry = { source, capabilities };
    this.#sources.push(entry);
    return () => {
      const at = this.#sources.indexOf(entry);
      if (at >= 0) this.#sources.splice(at, 1);
    };
  }

  /** The runtimes each source wants for one installed plugin, by name. */
  async wanted(tenant: string, plugin: string): Promise<string[]> {
    const loaded = await this.#catalog.loadInstalled(tenant, plugin);
    const config = await this.#catalog.configs.effective(tenant, plugin, loaded);
    const declared: readonly string[] = loaded.manifest.capabilities ?? [];
    return this.#sources
      .filter((entry) => entry.capabilities.some((word) => declared.includes(word)))
      .flatMap(({ source }) => source({ tenant, plugin, loaded, config }).map((one) => one.name));
  }

  /** A host for this process (`oz0 serve`'s worker, `oz0 node`); `start()` sets it going. */
  host(options: HostOptions): PluginRuntimeHost {
    const host = new PluginRuntimeHost({
      ...options,
      store: this.#store,
      catalog: this.#catalog,
      sources: () => this.#sources,
    });
    this.#hosts.add(host);
    const stop = host.stop.bind(host);
    host.stop = async () => {
      this.#hosts.delete(host);
      await stop();
    };
    return host;
  }

  /** Tells this process's hosts that a plugin or its config changed, for a pass now. */
  changed(): void {
    for (const host of this.#hosts) host.wake();
  }

  /**
   * The status of each runtime the plugin's sources want: as its host wrote it, `stopped` with no
   * node when no live host holds its lease (none runs, or the one that did died).
   */
  async status(tenant: string, plugin: string): Promise<PluginRuntimeView[]> {
    const names = await this.wanted(tenant, plugin);
    if (names.length === 0) return [];
    const rows = await this.#store.db
      .selectFrom("plugin_runtimes")
      .selectAll()
      .where("tenant", "=", tenant)
      .where("plugin", "=", plugin)
      .execute();
    const now = await this.#store.now();
    return names.map((runtime) => {
      const row = rows.find((one) => one.runtime === runtime);
      if (row === undefined) {
        return { plugin, runtime, state: "stopped", restarts: 0, lastError: null, since: null, node: null };
      }
      const live = Number(row.lease_until) >= now;
      return {
        plugin,
        runtime,
        state: live ? (row.state as RuntimeState) : "stopped",
        restarts: row.restarts,
        lastError:
          row.last_error ??
          (live || row.state === "stopped" ? null : `node ${row.node} stopped renewing its lease`),
        since: Number(row.since),
        node: live ? row.node : null,
      };
    });
  }
}
