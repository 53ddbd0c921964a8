// Nodes and task queues as callers see them: the nodes on the store (live, stopped or gone),
// read by an operator, and the tenant's map of plugins to shared pools, read by a viewer and
// changed by an operator. Nodes serve every tenant; what a tenant sees of them is the same list,
// with the nodes kept to another tenant left out.
import { Oz0Error } from "@oz0/sdk";
import type { Caller } from "../callers/index.js";
import {
  listNodes,
  mapPool,
  type NodeView,
  type PoolMapping,
  poolMappings,
  unmapPool,
} from "../jobs/index.js";
import type { ServiceCore } from "./core.js";

export interface PoolChange {
  readonly plugin: string;
  /** The shared pool: nodes started with `oz0 node --pool <pool>` serve it. */
  readonly pool: string;
  /** Labels the selector adds to what the plugin requires. */
  readonly labels?: readonly string[] | undefined;
}

export class NodesService {
  readonly #core: ServiceCore;

  constructor(core: ServiceCore) {
    this.#core = core;
  }

  /** The nodes that serve the caller's tenant (every tenant's, or its own), live first. */
  async list(caller: Caller): Promise<NodeView[]> {
    const tenant = this.#core.check(caller, "nodes.list");
    const nodes = await listNodes(this.#core.deps.jobs);
    return nodes.filter((node) => node.tenant === null || node.tenant === tenant);
  }

  /** The tenant's plugins mapped to shared pools. */
  async pools(caller: Caller): Promise<PoolMapping[]> {
    const tenant = this.#core.check(caller, "nodes.pools");
    return poolMappings(this.#core.deps.store, tenant);
  }

  /** Maps an installed plugin to a shared pool with a node selector; its next jobs run there. */
  async setPool(caller: Caller, change: PoolChange): Promise<PoolMapping> {
    return this.#core.change(caller, "nodes.setPool", change.plugin, async (tenant) => {
      await this.#core.deps.catalog.loadInstalled(tenant, change.plugin);
      return mapPool(this.#core.deps.store, tenant, {
        plugin: change.plugin,
        pool: change.pool,
        labels: change.labels ?? [],
        by: caller.actor,
      });
    });
  }

  /** Takes a plugin back to its own pool, `pool.<plugin>`. */
  async removePool(caller: Caller, plugin: string): Promise<void> {
    await this.#core.change(caller, "nodes.removePool", plugin, async (tenant) => {
      if (await unmapPool(this.#core.deps.store, tenant, plugin)) return;
      throw new Oz0Error(
        "NOT_FOUND",
        `plugin ${plugin} is not mapped to a shared pool in tenant ${tenant}; its jobs run on pool.${plugin}.`,
        { data: { kind: "pool mapping", name: plugin } },
      );
    });
  }
}
