// The catalog and plugins as callers see them: a tenant's parts by address (agents outside the
// caller's scope left out), its installed plugins, lint against the tenant, and install,
// update and remove, which only an admin may do.
import { Oz0Error } from "@oz0/sdk";
import type { Caller } from "../callers/index.js";
import type {
  CatalogEntry,
  ChangeOptions,
  ChangeReport,
  GrantReport,
  PluginDetail,
  PluginSource,
  PluginSummary,
} from "../catalog/index.js";
import { flowPlan, readSchema } from "../jobs/index.js";
import { type LintOptions, type LintReport, lintPlugin, tenantContextFromCatalog } from "../lint/index.js";
import type { InventoryEntry } from "../policy/index.js";
import { inScope, type ServiceCore, scoped } from "./core.js";
import { type PluginStatusView, pluginStatus } from "./plugin-status.js";

/** What the inventory says an agent or tool is for, and who answers for it. */
export type Inventoried = { readonly inventory?: Pick<InventoryEntry, "purpose" | "owner"> };

export type LookupKind = CatalogEntry["kind"];

/** An agent as its page shows it: what it is, runs on and uses, and what it takes and answers. */
export interface AgentDetail {
  readonly address: string;
  readonly plugin: string;
  readonly name: string;
  readonly description: string | null;
  /** The agent runtime its `runtime:` names; `oz0` (oz0's own loop) when it names none. */
  readonly runtime: string;
  /** The model it asks for: an alias (`use`), and a test model's script when it has one. */
  readonly model: { readonly use: string; readonly script?: string } | null;
  readonly tools: readonly string[];
  readonly skills: readonly string[];
  readonly tags: readonly string[];
  readonly inventory?: Pick<InventoryEntry, "purpose" | "owner">;
  /** Its input_schema, read from the plugin; null for an agent that takes text. */
  readonly inputSchema: Readonly<Record<string, unknown>> | null;
  /** Its output_schema; null for a text answer. */
  readonly outputSchema: Readonly<Record<string, unknown>> | null;
  readonly failures: readonly { readonly kind: string; readonly description: string }[];
  readonly limits: Readonly<Record<string, number>>;
}

/** A flow as its page shows it: what it is, and the schemas of what it takes and answers. */
export interface FlowDetail {
  readonly address: string;
  readonly plugin: string;
  readonly name: string;
  readonly description: string | null;
  /** Where its steps are written: YAML steps in plugin.yaml, or code (`host.addFlow`). */
  readonly source: "yaml" | "code";
  readonly tags: readonly string[];
  readonly inventory?: Pick<InventoryEntry, "purpose" | "owner">;
  /** Its input schema; null for a flow that takes text. */
  readonly inputSchema: Readonly<Record<string, unknown>> | null;
  /** Its output schema; null when it declares none. */
  readonly outputSchema: Readonly<Record<string, unknown>> | null;
}

function visible(caller: Caller, entry: Pick<CatalogEntry, "kind" | "address" | "tags">): boolean {
  return (entry.kind !== "agent" && entry.kind !== "flow") || inScope(caller, entry);
}

export class CatalogService {
  readonly #core: ServiceCore;

  constructor(core: ServiceCore) {
    this.#core = core;
  }

  /** Every part of the tenant by address, with what the inventory says of it. */
  async entries(
    caller: Caller,
    options: { readonly tag?: string | undefined } = {},
  ): Promise<(CatalogEntry & Inventoried)[]> {
    const tenant = this.#core.check(caller, "catalog.entries");
    const add = await this.#inventoried(tenant);
    const entries = await this.#core.deps.catalog.entries(tenant, { tag: options.tag });
    return entries.filter((entry) => visible(caller, entry)).map(add);
  }

  /** One part by address or bare name; an agent outside the caller's scope is not found. */
  async lookup(
    caller: Caller,
    name: string,
    options: { readonly kind?: LookupKind | undefined } = {},
  ): Promise<CatalogEntry & Inventoried & { bare: boolean }> {
    const tenant = this.#core.check(caller, "catalog.lookup");
    const add = await this.#inventoried(tenant);
    let found: CatalogEntry & { bare: boolean };
    try {
      found = await this.#core.deps.catalog.lookup(tenant, name, { kind: options.kind });
    } catch (error) {
      // The catalog's refusal may name the closest part, which a scoped caller may not see.
      if (scoped(caller) && (error as { code?: string }).code === "NOT_FOUND")
        throw partNotFound(caller, name);
      throw error;
    }
    if (!visible(caller, found)) throw partNotFound(caller, name);
    return add(found);
  }

  /** An agent by address, as its page shows it; one outside the caller's scope is not found. */
  async agent(caller: Caller, address: string): Promise<AgentDetail> {
    const tenant = this.#core.check(caller, "catalog.agent");
    const found = await this.lookup(caller, address, { kind: "agent" });
    const loaded = await this.#core.deps.catalog.loadInstalled(tenant, found.plugin);
    const definition = loaded.agents.find((agent) => agent.definition.name === found.name)?.definition;
    if (definition === undefined) throw partNotFound(caller, address);
    const inspected = (await this.#core.deps.catalog.inspect(tenant, found.plugin)).agents.find(
      (agent) => agent.address === found.address,
    );
    const model = definition.model ?? loaded.manifest.model;
    return {
      address: found.address,
      plugin: found.plugin,
      name: found.name,
      description: definition.description ?? null,
      runtime: definition.runtime ?? "oz0",
      model:
        model === undefined
          ? null
          : {
              use: model.use,
              ...("script" in model && typeof model.script === "string" ? { script: model.script } : {}),
            },
      tools: inspected?.tools ?? [],
      skills: inspected?.skills ?? [],
      tags: found.tags,
      ...(found.inventory === undefined ? {} : { inventory: found.inventory }),
      inputSchema:
        definition.input_schema === undefined
          ? null
          : await readSchema(loaded, definition.input_schema, "input_schema"),
      outputSchema:
        definition.output_schema === undefined
          ? null
          : await readSchema(loaded, definition.output_schema, "output_schema"),
      failures: (definition.failures ?? []).map((failure) => ({
        kind: failure.kind,
        description: failure.description,
      })),
      limits: { ...definition.limits },
    };
  }

  /** A flow by address, as its page shows it; one outside the caller's scope is not found. */
  async flow(caller: Caller, address: string): Promise<FlowDetail> {
    const tenant = this.#core.check(caller, "catalog.flow");
    const found = await this.lookup(caller, address, { kind: "flow" });
    const plan = await flowPlan(
      await this.#core.deps.catalog.loadInstalled(tenant, found.plugin),
      found.name,
    );
    return {
      address: found.address,
      plugin: found.plugin,
      name: found.name,
      description: plan.description ?? null,
      source: plan.source,
      tags: found.tags,
      ...(found.inventory === undefined ? {} : { inventory: found.inventory }),
      inputSchema: plan.inputSchema ?? null,
      outputSchema: plan.outputSchema ?? null,
    };
  }

  async #inventoried(tenant: string): Promise<<E extends CatalogEntry>(entry: E) => E & Inventoried> {
    const known = new Map(
      (await this.#core.deps.inventory.list(tenant)).map((entry) => [
        `${entry.kind} ${entry.address}`,
        entry,
      ]),
    );
    return (entry) => {
      const listed = known.get(`${entry.kind} ${entry.address}`);
      if (listed === undefined) return entry;
      return { ...entry, inventory: { purpose: listed.purpose, owner: listed.owner } };
    };
  }
}

function partNotFound(caller: Caller, name: string): Oz0Error {
  return new Oz0Error("NOT_FOUND", `no agent, flow, tool or skill ${name} in tenant ${caller.tenant}`, {
    data: { kind: "part", name, tenant: caller.tenant },
  });
}

export interface LintAgainstTenant {
  readonly fix?: boolean | undefined;
  readonly verified?: boolean | undefined;
}

export class PluginsService {
  readonly #core: ServiceCore;

  constructor(core: ServiceCore) {
    this.#core = core;
  }

  /** The tenant's plugins; for a scoped caller their agents and flows are counted only within its scope. */
  async list(caller: Caller): Promise<PluginSummary[]> {
    const tenant = this.#core.check(caller, "plugins.list");
    const plugins = await this.#core.deps.catalog.list(tenant);
    if (!scoped(caller)) return plugins;
    const seen = (await this.#core.deps.catalog.entries(tenant)).filter(
      (entry) => (entry.kind === "agent" || entry.kind === "flow") && inScope(caller, entry),
    );
    const count = (plugin: string, kind: string) =>
      seen.filter((entry) => entry.plugin === plugin && entry.kind === kind).length;
    return plugins.map((plugin) => ({
      ...plugin,
      parts: { ...plugin.parts, agent: count(plugin.name, "agent"), flow: count(plugin.name, "flow") },
    }));
  }

  /** A plugin's parts, uses and history; agents outside the caller's scope are left out. */
  async inspect(caller: Caller, plugin: string): Promise<PluginDetail> {
    const tenant = this.#core.check(caller, "plugins.inspect");
    const detail = await this.#core.deps.catalog.inspect(tenant, plugin);
    if (!scoped(caller)) return detail;
    const tags = new Map(
      (await this.#core.deps.catalog.entries(tenant))
        .filter((entry) => entry.kind === "agent")
        .map((entry) => [entry.address, entry.tags]),
    );
    const visible = (address: string) => inScope(caller, { address, tags: tags.get(address) });
    return {
      ...detail,
      agents: detail.agents.filter((agent) => inScope(caller, agent)),
      flows: detail.flows.filter((flow) => inScope(caller, flow)),
      // What it uses of other plugins' agents names them: only those in scope.
      uses: detail.uses.map((used) => ({ ...used, agents: used.agents.filter(visible) })),
    };
  }

  /**
   * The live status of the tenant's plugins, or of one: each admin spec's status() and the state
   * of each runtime it wants running (`oz0 plugin status`).
   */
  status(caller: Caller, plugin?: string): Promise<PluginStatusView[]> {
    return pluginStatus(this.#core, caller, plugin);
  }

  /** Lints the plugin folder `dir` against the caller's tenant: its parts, and what install would refuse. */
  async lint(caller: Caller, dir: string, options: LintAgainstTenant = {}): Promise<LintReport> {
    const tenant = this.#core.check(caller, "plugins.lint");
    const context = await tenantContextFromCatalog(this.#core.deps.catalog, tenant);
    const lintOptions: LintOptions = {
      fix: options.fix === true,
      verified: options.verified === true,
      tenant: context,
    };
    return lintPlugin(dir, lintOptions);
  }

  /** Installs a plugin from a folder, an archive's path, or a bundle (an upload unpacked). */
  async install(caller: Caller, from: PluginSource, options: ChangeOptions = {}): Promise<ChangeReport> {
    return this.#core.change(caller, "plugins.install", sourceName(from, options), (tenant) =>
      this.#core.deps.catalog.install(tenant, from, { ...options, actor: caller.actor }),
    );
  }

  async update(caller: Caller, from: PluginSource, options: ChangeOptions = {}): Promise<ChangeReport> {
    return this.#core.change(caller, "plugins.update", sourceName(from, options), (tenant) =>
      this.#core.deps.catalog.update(tenant, from, { ...options, actor: caller.actor }),
    );
  }

  async remove(caller: Caller, plugin: string, options: ChangeOptions = {}): Promise<ChangeReport> {
    return this.#core.change(caller, "plugins.remove", plugin, (tenant) =>
      this.#core.deps.catalog.remove(tenant, plugin, options),
    );
  }

  /** Grants what installed `plugin`'s `uses:` asks, in the caller's name (`oz0 plugin grant`). */
  async grant(caller: Caller, plugin: string): Promise<GrantReport> {
    return this.#core.change(caller, "plugins.grant", plugin, (tenant) =>
      this.#core.deps.catalog.grant(tenant, plugin, caller.actor),
    );
  }

  /** Takes back `plugin`'s grant: its parts reach no other plugin's until granted again. */
  async revoke(caller: Caller, plugin: string): Promise<GrantReport> {
    return this.#core.change(caller, "plugins.revoke", plugin, (tenant) =>
      this.#core.deps.catalog.revoke(tenant, plugin, caller.actor),
    );
  }
}

/** What a change records as its target: the path, or where a bundle came from. */
function sourceName(from: PluginSource, options: ChangeOptions): string {
  return typeof from === "string" ? from : (options.source ?? `bundle ${from.digest}`);
}
