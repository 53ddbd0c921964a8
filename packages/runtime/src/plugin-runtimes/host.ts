// Where plugins' runtimes run: every `oz0 serve` worker and `oz0 node` runs a runtime host, and
// each runtime of each tenant runs in exactly one of them, cluster-wide. The one that holds the
// runtime's lease row in `plugin_runtimes` runs it and renews the lease at each pass; when that
// process dies its lease lapses and the next pass of another host takes it over. Each pass works
// the desired state out afresh from the database (the plugins installed in each tenant, their
// code and config), so an install, an update, a removal or a config change made anywhere is
// acted on within one poll (and at once in the process that made it: `wake()`).
import { createHash } from "node:crypto";
import type { PluginConfig, RuntimeContext, RuntimeInstance } from "@oz0/sdk";
import { sql } from "kysely";
import type { Catalog } from "../catalog/index.js";
import type { LoadedPlugin } from "../plugin-dir/index.js";
import type { Store } from "../store/index.js";
import {
  type RestartOptions,
  type RuntimeClock,
  type RuntimeStatus,
  RuntimeSupervisor,
  type WantedRuntime,
} from "./supervisor.js";

export const RUNTIME_HOST_DEFAULTS = Object.freeze({
  /** How often a host works the desired state out again and renews its leases. */
  pollMs: 5_000,
  /** How long a lease holds without renewal: a dead host's runtimes move after this. */
  leaseMs: 15_000,
});

/** An installed plugin as a runtime source sees it: its loaded code and the config it runs with. */
export interface InstalledPluginState {
  readonly tenant: string;
  readonly plugin: string;
  readonly loaded: LoadedPlugin;
  readonly config: PluginConfig;
}

/** A long-lived runtime a source wants running for an installed plugin. */
export interface ManagedRuntime {
  /** Unique within the plugin: a `host.addRuntime` name, or a prefixed one (`channel:<name>`). */
  readonly name: string;
  build(ctx: RuntimeContext): RuntimeInstance | Promise<RuntimeInstance>;
}

/**
 * What a plugin wants running. The runtime host asks every source at each pass; the default one
 * gives the plugin's enabled `host.addRuntime` registrations, and other parts of oz0 (channels'
 * adapters) add theirs with `PluginRuntimes.addSource`, to be started, restarted, replaced and
 * stopped the same way.
 */
export type RuntimeSource = (plugin: InstalledPluginState) => readonly ManagedRuntime[];

/** A source and the manifest capabilities (`runtime`, `channel`) of the plugins it may want something of. */
export interface SourceEntry {
  readonly source: RuntimeSource;
  /** Only plugins whose `capabilities:` list one of these are loaded and asked. */
  readonly capabilities: readonly string[];
}

/** The runtimes a plugin registers with `host.addRuntime` and has not disabled. */
export const registeredRuntimes: RuntimeSource = ({ loaded }) =>
  (loaded.code?.registrations("runtime") ?? [])
    .filter((registration) => registration.enabled)
    .map((registration) => ({ name: registration.name, build: (ctx) => registration.spec.build(ctx) }));

export interface RuntimeHostOptions {
  readonly store: Store;
  readonly catalog: Catalog;
  /** This process's node ID: the lease holder it writes. */
  readonly node: string;
  /** Only this tenant's runtimes (`oz0 node --tenant`); every tenant's when left out. */
  readonly tenant?: string | undefined;
  readonly sources: () => readonly SourceEntry[];
  readonly pollMs?: number | undefined;
  readonly leaseMs?: number | undefined;
  readonly clock?: RuntimeClock | undefined;
  readonly restart?: RestartOptions | undefined;
  /** Told of a fault the host went on after (a plugin that does not load, a lost write). */
  readonly onError?: ((error: unknown) => void) | undefined;
}

interface Desired extends WantedRuntime {
  readonly tenant: string;
  readonly plugin: string;
  readonly runtime: string;
}

export class PluginRuntimeHost {
  readonly node: string;
  readonly #options: RuntimeHostOptions;
  readonly #supervisor: RuntimeSupervisor;
  readonly #held = new Map<string, Desired>();
  #writes: Promise<void> = Promise.resolve();
  #moves: Promise<void> = Promise.resolve();
  #stopped = false;
  #loop: Promise<void> | undefined;
  #wake: (() => void) | undefined;
  #passing: Promise<void> | undefined;
  #again = false;
  readonly #told = new Set<string>();

  constructor(options: RuntimeHostOptions) {
    this.node = options.node;
    this.#options = options;
    this.#supervisor = new RuntimeSupervisor({
      ...(options.clock === undefined ? {} : { clock: options.clock }),
      ...(options.restart === undefined ? {} : { restart: options.restart }),
      onStatus: (key, status) => this.#record(key, status),
    });
  }

  /** The runtimes this host runs now, by `<tenant>/<plugin>/<runtime>`. */
  running(): Map<string, RuntimeStatus> {
    return this.#supervisor.statuses();
  }

  /** Starts passing on a timer, the first pass at once. */
  start(): void {
    if (this.#loop !== undefined) throw new Error("this runtime host has started already");
    this.#loop = this.#run();
  }

  /** Asks for a pass now (a plugin or its config changed in this process). */
  wake(): void {
    if (this.#passing !== undefined) this.#again = true;
    this.#wake?.();
  }

  /**
   * Stops passing and stops every runtime it runs, giving up their leases so that another host
   * takes them at its next pass.
   */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#wake?.();
    await this.#loop;
    await this.#passing;
    await this.#moves;
    await this.#supervisor.stopAll();
    await this.#writes;
    const held = [...this.#held.values()];
    this.#held.clear();
    for (const one of held) {
      await this.#guard(() =>
        this.#rowOf(
          this.#options.store.db.updateTable("plugin_runtimes").set({ lease_until: 0 }),
          one,
        ).execute(),
      );
    }
  }

  /**
   * One pass: works out every wanted runtime, renews or takes the leases it can, and makes the
   * runtimes it runs those it holds. A second call while one runs waits for it and passes again.
   */
  pass(): Promise<void> {
    if (this.#passing !== undefined) {
      this.#again = true;
      return this.#passing;
    }
    this.#passing = (async () => {
      try {
        do {
          this.#again = false;
          await this.#passOnce();
        } while (this.#again && !this.#stopped);
      } finally {
        this.#passing = undefined;
      }
    })();
    return this.#passing;
  }

  async #passOnce(): Promise<void> {
    const { store } = this.#options;
    const tenants =
      this.#options.tenant === undefined
        ? (await store.db.selectFrom("tenants").select("name").execute()).map((row) => row.name)
        : [this.#options.tenant];
    const held: Desired[] = [];
    for (const tenant of tenants) {
      const desired = await this.#desired(tenant);
      for (const one of desired) if (await this.#guard(() => this.#claim(one))) held.push(one);
      await this.#guard(() => this.#forgetUndesired(tenant, desired));
    }
    if (this.#stopped) return;
    this.#held.clear();
    for (const one of held) this.#held.set(one.key, one);
    // The pass does not wait for the starts and stops it asked for: a runtime slow to start must
    // not hold back the next pass, which renews the leases of all the others.
    const moves = this.#supervisor.reconcile(held);
    this.#moves = this.#moves.then(() => moves);
  }

  /** The runtimes every source wants for the tenant's installed plugins. */
  async #desired(tenant: string): Promise<Desired[]> {
    const { store, catalog } = this.#options;
    const rows = await store.db
      .selectFrom("plugins")
      .select(["name", "version", "bundle", "manifest"])
      .where("tenant", "=", tenant)
      .orderBy("name")
      .execute();
    const found: Desired[] = [];
    const entries = this.#options.sources();
    for (const row of rows) {
      // Only the plugins some source may want something of are loaded at each pass.
      const declared = declaredCapabilities(row.manifest);
      const sources = entries.filter((entry) => entry.capabilities.some((word) => declared.includes(word)));
      if (sources.length === 0) continue;
      const state = await this.#guard(async () => {
        const loaded = await catalog.loadInstalled(tenant, row.name);
        return {
          tenant,
          plugin: row.name,
          loaded,
          config: await catalog.configs.effective(tenant, row.name, loaded),
        };
      });
      if (state === undefined) continue;
      const code = `${row.version}@${row.bundle ?? ""}`;
      const fingerprint = createHash("sha256")
        .update(code)
        .update("\0")
        .update(stableJson(state.config))
        .digest("hex");
      for (const { source } of sources) {
        const runtimes = this.#guard(() => source(state));
        for (const runtime of (await runtimes) ?? []) {
          found.push({
            tenant,
            plugin: row.name,
            runtime: runtime.name,
            key: runtimeKey(tenant, row.name, runtime.name),
            pluginId: row.name,
            config: state.config,
            fingerprint,
            code,
            build: (ctx) => runtime.build(ctx),
          });
        }
      }
    }
    return found;
  }

  /** Renews this host's lease on the runtime, or takes a lapsed one; whether it holds it now. */
  async #claim(one: Desired): Promise<boolean> {
    const { store, node } = this.#options;
    const until = sql<number>`${store.clockSql} + ${this.#leaseMs()}`;
    const renewed = await this.#rowOf(
      store.db.updateTable("plugin_runtimes").set({ lease_until: until }),
      one,
    )
      .where("node", "=", node)
      .executeTakeFirst();
    if (Number(renewed.numUpdatedRows) > 0) return true;
    const taken = await store.db
      .insertInto("plugin_runtimes")
      .values({
        tenant: one.tenant,
        plugin: one.plugin,
        runtime: one.runtime,
        node,
        lease_until: until,
        state: "starting",
        restarts: 0,
        last_error: null,
        since: store.clockSql,
        updated_at: store.clockSql,
      })
      .onConflict((conflict) =>
        conflict
          .columns(["tenant", "plugin", "runtime"])
          .doUpdateSet({
            node,
            lease_until: until,
            state: "starting",
            restarts: 0,
            last_error: null,
            since: store.clockSql,
            updated_at: store.clockSql,
          })
          .where("plugin_runtimes.lease_until", "<", store.clockSql),
      )
      .returning("node")
      .executeTakeFirst();
    return taken?.node === node;
  }

  /** Drops the tenant's rows of runtimes nothing wants now, once no live host holds them. */
  async #forgetUndesired(tenant: string, desired: readonly Desired[]): Promise<void> {
    const { store, node } = this.#options;
    const rows = await store.db
      .selectFrom("plugin_runtimes")
      .select(["plugin", "runtime", "node", "lease_until"])
      .where("tenant", "=", tenant)
      .execute();
    const wanted = new Set(desired.map((one) => one.key));
    const now = await store.now();
    for (const row of rows) {
      if (wanted.has(runtimeKey(tenant, row.plugin, row.runtime))) continue;
      const mine = row.node === node;
      if (!mine && Number(row.lease_until) >= now) continue;
      // A runtime of this host's stops at this pass's reconcile; its row goes first so that the
      // status it writes on the way out finds none.
      await store.db
        .deleteFrom("plugin_runtimes")
        .where("tenant", "=", tenant)
        .where("plugin", "=", row.plugin)
        .where("runtime", "=", row.runtime)
        .where("node", "=", row.node)
        .execute();
    }
  }

  /** Writes a status move to the runtime's row, in order, while this host holds it. */
  #record(key: string, status: RuntimeStatus): void {
    const one = this.#held.get(key);
    if (one === undefined) return;
    const { store, node } = this.#options;
    this.#writes = this.#writes.then(() =>
      this.#guard(async () => {
        await this.#rowOf(
          store.db.updateTable("plugin_runtimes").set({
            state: status.state,
            restarts: status.restarts,
            last_error: status.lastError,
            since: status.since,
            updated_at: store.clockSql,
          }),
          one,
        )
          .where("node", "=", node)
          .execute();
      }).then(() => {}),
    );
  }

  /** Waits for the starts, stops and status writes the passes so far asked for. */
  async settled(): Promise<void> {
    await this.#moves;
    await this.#writes;
  }

  // biome-ignore lint/suspicious/noExplicitAny: the update builder's type varies with its set().
  #rowOf<Q extends { where: (...args: any[]) => Q }>(query: Q, one: Desired): Q {
    return query
      .where("tenant", "=", one.tenant)
      .where("plugin", "=", one.plugin)
      .where("runtime", "=", one.runtime);
  }

  #leaseMs(): number {
    return this.#options.leaseMs ?? RUNTIME_HOST_DEFAULTS.leaseMs;
  }

  async #guard<T>(work: () => T | Promise<T>): Promise<T | undefined> {
    try {
      return await work();
    } catch (error) {
      // A fault that recurs at every pass (a plugin that does not load) is told of once.
      const message = error instanceof Error ? error.message : String(error);
      if (!this.#told.has(message)) {
        this.#told.add(message);
        this.#options.onError?.(error);
      }
      return undefined;
    }
  }

  async #run(): Promise<void> {
    const pollMs = this.#options.pollMs ?? RUNTIME_HOST_DEFAULTS.pollMs;
    while (!this.#stopped) {
      await this.pass().catch((error: unknown) => this.#options.onError?.(error));
      if (this.#stopped) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollMs);
        timer.unref?.();
        this.#wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.#wake = undefined;
    }
  }
}

function declaredCapabilities(manifest: string): string[] {
  try {
    const capabilities = (JSON.parse(manifest) as { capabilities?: unknown }).capabilities;
    return Array.isArray(capabilities) ? capabilities.filter((word) => typeof word === "string") : [];
  } catch {
    return [];
  }
}

export function runtimeKey(tenant: string, plugin: string, runtime: string): string {
  return `${tenant}/${plugin}/${runtime}`;
}

/** JSON with object keys sorted, so one config always has one fingerprint. */
function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    typeof item === "object" && item !== null && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}
