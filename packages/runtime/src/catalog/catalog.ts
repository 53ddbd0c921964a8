// The catalog: which plugins each tenant has installed and the parts they define. Installs,
// updates and removes are all or nothing, each in one store transaction under the tenant's
// lock; every later use of a part's name goes through the owner check in resolve.ts.

import { readFile, realpath, stat } from "node:fs/promises";
import type { MemoryProvider, PluginConfig, RecordsApi } from "@oz0/sdk";
import { isOz0Error, Oz0Error } from "@oz0/sdk";
import type { BuiltTool } from "@oz0/sdk/internal";
import type { Kysely } from "kysely";
import {
  BUNDLE_LIMITS,
  BundleCache,
  bundleFolder,
  type PackedBundle,
  type PluginBundle,
  packed,
  saveBundle,
  unpackBundle,
} from "../bundles/index.js";
import {
  type ContractBreak,
  checkPlugin,
  lintRefusal,
  type PluginContract,
  type TenantContext,
  type TenantProblem,
  tenantContextFromEntries,
} from "../lint/index.js";
import { MemoryProviders } from "../memory/index.js";
import { TenantSettings } from "../models/index.js";
import { PluginConfigs } from "../plugin-config/index.js";
import { type LoadedPlugin, loadPluginDir, pluginRoot, toolDisabled } from "../plugin-dir/index.js";
import { Records } from "../records/index.js";
import { type Database, type Store, TenantCache } from "../store/index.js";
import {
  type ReferenceProblem,
  refuseBrokenDependents,
  refuseTakenNames,
  refuseUnmetUses,
  tenantProblems,
} from "./checks.js";
import { refuseBrokenContract, storedContract } from "./contract.js";
import {
  type DefaultPluginOutcome,
  defaultNames,
  givenDefaults,
  markDefault,
  unavailableReason,
} from "./defaults.js";
import { alreadyInstalled, forcedReason, notInstalledError } from "./errors.js";
import { deleteGrant, readGrant, type TenantGrant, usesAddresses, usesCover, writeGrant } from "./grants.js";
import { InstalledPlugins } from "./installed.js";
import {
  listMcpFunctions,
  type McpFunctions,
  type McpLister,
  withListErrors,
  withMcpFunctions,
} from "./mcp.js";
import { comparePartRefs, partFromRow, partRow, partsOf, type StoredPart } from "./parts.js";
import {
  type CatalogEntry,
  detailOf,
  entriesOf,
  entryOf,
  type GrantView,
  type PluginChange,
  type PluginDetail,
  type PluginSummary,
  summaryOf,
} from "./reports.js";
import {
  checkPartText,
  type ResolvedPart,
  type ResolveKind,
  type ResolveOptions,
  refOf,
  resolvePart,
} from "./resolve.js";
import { refuseStrandedJobs, type StrandedJob, strandedJobs } from "./stranded-jobs.js";
import { checkTenantName, ensureTenant, lockTenant, requireTenant } from "./tenants.js";
import { type StoredPlugin, TenantView } from "./view.js";

/** `--force --reason TEXT`: go past what an install, update or remove would break for other plugins. */
export interface ChangeOptions {
  readonly force?: boolean | undefined;
  readonly reason?: string | undefined;
  /**
   * For an install or update from a bundle: what to record as where it came from (an archive's
   * file name, an upload); `bundle <digest>` when left out. A folder records its real path.
   */
  readonly source?: string | undefined;
  /**
   * Who makes the change: an install or update grants what the version's `uses:` asks, recorded
   * as granted by them (only an admin installs: the services check it); `catalog` when left out.
   */
  readonly actor?: string | undefined;
}

/** A grant or revoke of what a plugin's `uses:` asks. */
export interface GrantReport {
  readonly action: "grant" | "revoke";
  readonly tenant: string;
  readonly plugin: string;
  /** The plugin's version whose `uses:` was granted; for a revoke, the version of the grant taken back. */
  readonly version: string | null;
  /** What was granted, or taken back, by address. */
  readonly uses: readonly string[];
  readonly by: string;
}

/**
 * What an install or update takes: the path of a plugin folder or of an archive of one (a
 * `.tgz` from `oz0 plugin pack`), or a bundle (`unpackBundle` of an archive received).
 */
export type PluginSource = string | PluginBundle;

/** What an install, update or remove did. */
export interface ChangeReport {
  readonly action: "install" | "update" | "remove";
  readonly tenant: string;
  readonly plugin: string;
  /** The version installed, updated to, or removed. */
  readonly version: string;
  /** An update's version before it; `null` otherwise. */
  readonly previousVersion: string | null;
  /** Where the plugin was installed from: its folder, or what a bundle install named. */
  readonly dir: string;
  /** The digest of the bundle the plugin runs from now (the one removed, for a remove). */
  readonly digest: string | null;
  readonly forcedReason: string | null;
  /** Parts by address that the change added, and that it removed. */
  readonly added: readonly string[];
  readonly removed: readonly string[];
  /** What other plugins lost that `--force` went past. */
  readonly overridden: readonly ReferenceProblem[];
  /** Jobs that had not ended and ran as a part the change took away, which `--force` went past. */
  readonly strandedJobs: readonly StrandedJob[];
  /** What an update asks more of its agents' callers without a new major version, which `--force` went past. */
  readonly contractBreaks: readonly ContractBreak[];
  /**
   * What an install or update granted at once, by address (all its `uses:` asks; empty when it
   * asks nothing); `null` for a remove, which takes the grant away with the plugin.
   */
  readonly granted: readonly string[] | null;
}

type Action = ChangeReport["action"];

export interface CatalogOptions {
  /**
   * Plugin folders every tenant gets once, when it comes into being (oz0's std library);
   * none when left out.
   */
  readonly defaults?: readonly string[] | undefined;
  /** Told what became of each default plugin a tenant was to be given. */
  readonly onDefault?: ((outcome: DefaultPluginOutcome) => void) | undefined;
  /** Lists and calls MCP-backed tools' functions; without it they list none and are not found. */
  readonly mcp?: McpLister | undefined;
}

/** A default plugin loaded and ready to write into a tenant. */
interface PendingDefault {
  readonly plugin: StoredPlugin;
  readonly bundle: PackedBundle;
}

/**
 * The tenants' installed plugins. Every method runs its own queries or transaction on the
 * store, so call none of them from inside a store transaction (on SQLite, one connection
 * serves both, and the inner call would wait for the outer one forever).
 */
export class Catalog {
  readonly store: Store;
  readonly home: string;
  private readonly installed: InstalledPlugins;
  /** What the look-ups below answered, kept while the tenant's catalog version stands. */
  private readonly cache: TenantCache;
  /** The bundles under the home that this catalog's plugins load from. */
  private readonly bundles: BundleCache;
  private readonly options: CatalogOptions;
  private readonly memories: MemoryProviders;
  /** Plugins' configs in their tenants (`oz0 plugin config`). */
  readonly configs: PluginConfigs;
  /** The records plugins' tools keep (`ctx.records`, `oz0 records`). */
  readonly records: Records;

  constructor(store: Store, home: string, options: CatalogOptions = {}) {
    this.store = store;
    this.home = home;
    this.options = options;
    this.bundles = new BundleCache(home);
    this.installed = new InstalledPlugins(store, this.bundles);
    this.cache = new TenantCache(store.db, (tenant) => requireTenant(store.db, tenant));
    this.memories = new MemoryProviders(store);
    this.records = new Records(store);
    this.configs = new PluginConfigs(store, home, (tenant, plugin) => this.loadInstalled(tenant, plugin));
  }

  /**
   * Gives `tenant` the default plugins it has not been given yet: each is installed once, and
   * one an admin removed later stays removed. The `default` tenant gets them when the runtime
   * opens; any other tenant with its first install. A default whose folder does not load is
   * reported `unavailable` and tried again next time; one the tenant has no room for (a name
   * another plugin has) is reported `declined`, once.
   */
  async installDefaults(tenant: string): Promise<DefaultPluginOutcome[]> {
    const pending = await this.pendingDefaults(tenant, undefined);
    if (pending.length === 0) return [];
    return this.store.transaction(async (trx) => {
      await this.lock(trx, tenant);
      return this.giveDefaults(trx, tenant, pending);
    });
  }

  /** The config `plugin` runs with in `tenant` (a tool's `ctx.config`): its defaults and what an operator set. */
  async config(tenant: string, plugin: string): Promise<PluginConfig> {
    return this.configs.effective(tenant, plugin);
  }

  /** A memory provider `plugin` registers with addMemory, built for `tenant` (a tool's `ctx.memory`). */
  async memory(tenant: string, plugin: string, name?: string): Promise<MemoryProvider> {
    const loaded = await this.loadInstalled(tenant, plugin);
    return this.memories.provider(tenant, loaded, name, await this.configs.effective(tenant, plugin, loaded));
  }

  /** The records API of `plugin` in `tenant` (a tool's `ctx.records`). */
  recordsOf(tenant: string, plugin: string): RecordsApi {
    return this.records.forPlugin(tenant, plugin);
  }

  /**
   * Installs the plugin folder `from` (or the bundle `from`) into `tenant`, creating the tenant
   * if it does not exist. The plugin's files are stored as a bundle, which it runs from from now
   * on: the folder can change or go without changing the installed plugin. Refused, leaving the
   * tenant as it was, when the folder does not bundle or load, when it would add an agent or
   * flow name or tool ID another plugin has, when what it uses is missing, or (unless forced)
   * when another installed plugin names what this version lacks.
   */
  install(tenant: string, from: PluginSource, options: ChangeOptions = {}): Promise<ChangeReport> {
    return this.put("install", tenant, from, options);
  }

  /** Replaces an installed plugin with the version in `from` (a folder or a bundle), under the rules of install. */
  update(tenant: string, from: PluginSource, options: ChangeOptions = {}): Promise<ChangeReport> {
    return this.stopServersAfter(this.put("update", tenant, from, options));
  }

  /** Removes `plugin` from `tenant`; refused, unless forced, while another plugin names its parts. */
  async remove(tenant: string, plugin: string, options: ChangeOptions = {}): Promise<ChangeReport> {
    const reason = forcedReason(options);
    const change = this.store.transaction(async (trx): Promise<ChangeReport> => {
      await this.lock(trx, tenant);
      const before = await TenantView.load(trx, tenant);
      const current = requirePlugin(before, plugin);
      const after = before.without(plugin);
      const attempt = `cannot remove ${plugin} ${current.version} from tenant ${tenant}`;
      const overridden = refuseBrokenDependents(before, after, plugin, "remove", reason, attempt);
      const stranded = refuseStrandedJobs(
        await strandedJobs(trx, tenant, plugin, current.parts, []),
        { tenant, plugin, action: "remove", reason },
        attempt,
      );
      await trx.deleteFrom("parts").where("tenant", "=", tenant).where("plugin", "=", plugin).execute();
      await trx.deleteFrom("plugins").where("tenant", "=", tenant).where("name", "=", plugin).execute();
      await deleteGrant(trx, tenant, plugin);
      await this.record(trx, {
        tenant,
        plugin,
        action: "remove",
        version: current.version,
        previous: null,
        reason,
      });
      return {
        action: "remove",
        tenant,
        plugin,
        version: current.version,
        previousVersion: null,
        dir: current.dir,
        digest: current.bundle,
        forcedReason: reason,
        added: [],
        removed: addresses(current.parts),
        overridden,
        strandedJobs: stranded,
        contractBreaks: [],
        granted: null,
      };
    });
    return this.stopServersAfter(change);
  }

  /** The MCP servers of a plugin that was removed or updated stop once the change is stored. */
  private async stopServersAfter(change: Promise<ChangeReport>): Promise<ChangeReport> {
    const report = await change;
    await this.options.mcp?.stopPlugin(report.tenant, report.plugin);
    return report;
  }

  /** The tenant's plugins, by name. */
  async list(tenant: string): Promise<PluginSummary[]> {
    const view = await this.view(tenant);
    return [...view.plugins.values()].sort((a, b) => (a.name < b.name ? -1 : 1)).map(summaryOf);
  }

  /** One installed plugin with its parts by address, what it uses, and its history in the tenant. */
  async inspect(tenant: string, plugin: string): Promise<PluginDetail> {
    const view = await this.view(tenant);
    const listed = await this.mcpFunctions(view, [requirePlugin(view, plugin)]);
    const listedView = withMcpFunctions(view, listed);
    const detail = detailOf(
      listedView,
      requirePlugin(listedView, plugin),
      await this.changes(tenant, { plugin }),
    );
    const grant = await readGrant(this.store.db, tenant, plugin);
    return {
      ...detail,
      tools: withListErrors(detail.tools, listed.errors),
      grant: grant === undefined ? null : grantView(grant),
      ungranted: ungrantedUses(requirePlugin(view, plugin).manifest.uses, grant),
    };
  }

  /**
   * Grants what installed `plugin`'s `uses:` asks in `tenant`, by `by`, in place of the grant it
   * had: for a plugin that came with the default plugins, or whose grant was revoked.
   */
  async grant(tenant: string, plugin: string, by: string): Promise<GrantReport> {
    return this.store.transaction(async (trx) => {
      await this.lock(trx, tenant);
      const current = requirePlugin(await TenantView.load(trx, tenant), plugin);
      await writeGrant(trx, tenant, current, by, this.store.clockSql);
      return {
        action: "grant",
        tenant,
        plugin,
        version: current.version,
        uses: usesAddresses(current.manifest.uses),
        by,
      };
    });
  }

  /**
   * Takes back `plugin`'s grant in `tenant`: from now on each call, delegation or skill load of
   * another plugin's part by its agents and flows is refused, running jobs' next ones included.
   */
  async revoke(tenant: string, plugin: string, by: string): Promise<GrantReport> {
    return this.store.transaction(async (trx) => {
      await this.lock(trx, tenant);
      requirePlugin(await TenantView.load(trx, tenant), plugin);
      const had = await readGrant(trx, tenant, plugin);
      await deleteGrant(trx, tenant, plugin);
      return {
        action: "revoke",
        tenant,
        plugin,
        version: had?.version ?? null,
        uses: usesAddresses(had?.uses),
        by,
      };
    });
  }

  /** Every agent, flow, tool, function and skill of the tenant by address; `tag` keeps agents tagged so. */
  async entries(tenant: string, options: { tag?: string | undefined } = {}): Promise<CatalogEntry[]> {
    const view = await this.view(tenant);
    // Only agents carry tags, so a list by tag has no functions to ask MCP servers for.
    if (options.tag !== undefined) return entriesOf(view, options.tag);
    const listed = await this.mcpFunctions(view, [...view.plugins.values()]);
    const entries = withListErrors(entriesOf(withMcpFunctions(view, listed), undefined), listed.errors);
    return this.withoutDisabledTools(tenant, entries);
  }

  /** `entries` less the tools (and their functions) that their plugin's code has disabled now. */
  private async withoutDisabledTools(tenant: string, entries: CatalogEntry[]): Promise<CatalogEntry[]> {
    const owners = new Set(entries.filter((entry) => entry.kind === "tool").map((entry) => entry.plugin));
    const disabled = new Set<string>();
    for (const plugin of owners) {
      const loaded = await this.loadInstalled(tenant, plugin).catch(() => undefined);
      for (const registration of loaded?.code?.registrations("tool") ?? []) {
        if (toolDisabled(loaded!, registration.name)) disabled.add(`${plugin}/${registration.name}`);
      }
    }
    if (disabled.size === 0) return entries;
    const toolOf = (entry: CatalogEntry) =>
      entry.kind === "function" ? entry.name.split(".")[0] : entry.name;
    return entries.filter(
      (entry) =>
        (entry.kind !== "tool" && entry.kind !== "function") ||
        !disabled.has(`${entry.plugin}/${toolOf(entry)}`),
    );
  }

  /** Each installed plugin's version and its agents' failure contracts, which an update must keep. */
  async contracts(tenant: string): Promise<(PluginContract & { plugin: string })[]> {
    const view = await this.view(tenant);
    return [...view.plugins.values()].map((plugin) => ({ plugin: plugin.name, ...storedContract(plugin) }));
  }

  /**
   * Tool `tool` of `loaded`, whose functions its MCP server lists: how the dispatch path builds
   * an MCP-backed tool (PartSource.mcpTool).
   */
  async mcpTool(tenant: string, loaded: LoadedPlugin, tool: string): Promise<BuiltTool> {
    if (this.options.mcp === undefined) {
      throw new Oz0Error(
        "NOT_FOUND",
        `tool ${tool} of ${loaded.manifest.name} comes from an MCP server, and this catalog has no MCP manager to start it.`,
        { data: { kind: "tool", name: tool, tenant } },
      );
    }
    return this.options.mcp.tool(tenant, loaded, tool);
  }

  /** The functions the MCP servers of `plugins` list now; none without an MCP manager. */
  private async mcpFunctions(view: TenantView, plugins: readonly StoredPlugin[]): Promise<McpFunctions> {
    if (this.options.mcp === undefined) return { parts: [], errors: new Map() };
    return listMcpFunctions(this.options.mcp, view, plugins, (plugin) =>
      this.loadInstalled(view.tenant, plugin),
    );
  }

  /**
   * The catalog's lookup by name: one part by address or bare name, through the owner check
   * of `resolvePart`. Without `kind`, a name with a '.' is a function, and any other name is
   * looked for as an agent or flow, then a tool, then a skill.
   * @example await catalog.lookup("default", "support-triage/tickets.lookup") // { kind: "function", … }
   */
  async lookup(
    tenant: string,
    text: string,
    options: ResolveOptions & { kind?: ResolveKind | undefined } = {},
  ): Promise<CatalogEntry & { bare: boolean }> {
    await requireTenant(this.store.db, tenant);
    const kinds: ResolveKind[] =
      options.kind !== undefined
        ? [options.kind]
        : text.includes(".")
          ? ["function"]
          : ["agent-or-flow", "tool", "skill"];
    for (const kind of kinds) {
      let found: ResolvedPart;
      try {
        found = await this.resolvePart(tenant, kind, text, options);
      } catch (error) {
        if (kinds.length === 1 || !isOz0Error(error, "NOT_FOUND")) throw error;
        continue;
      }
      const row = await this.store.db
        .selectFrom("parts")
        .select(["kind", "plugin", "name", "definition"])
        .where("tenant", "=", tenant)
        .where("plugin", "=", found.plugin)
        .where("kind", "=", found.kind)
        .where("name", "=", found.name)
        .executeTakeFirst();
      if (row !== undefined) return { ...entryOf(partFromRow(row), false), bare: found.bare };
      // A function of an MCP tool has no row: its server lists it.
      return { ...(await this.mcpEntry(tenant, found)), bare: found.bare };
    }
    throw new Oz0Error("NOT_FOUND", `no agent, flow, tool or skill ${text} in tenant ${tenant}`, {
      data: { kind: "part", name: text, tenant },
    });
  }

  /** A function of an MCP-backed tool as its server lists it; NOT_FOUND when it lists no such function. */
  private async mcpEntry(tenant: string, found: ResolvedPart): Promise<CatalogEntry> {
    const unlisted: StoredPart = {
      ...found,
      kind: "function",
      description: "",
      inputSchema: { type: "object" },
    };
    // Without an MCP manager nothing can ask the server: the function is taken at its tool's word.
    if (this.options.mcp === undefined) return { ...entryOf(unlisted, false), description: null };
    const view = await this.view(tenant);
    const listed = await this.mcpFunctions(view, [requirePlugin(view, found.plugin)]);
    const part = listed.parts.find((fn) => fn.plugin === found.plugin && fn.name === found.name);
    if (part !== undefined) return entryOf(part, false);
    const tool = found.name.slice(0, found.name.indexOf("."));
    const listError = listed.errors.get(`${found.plugin}/${tool}`);
    if (listError !== undefined) return { ...entryOf(unlisted, false), description: null, listError };
    const names = listed.parts
      .filter((fn) => fn.plugin === found.plugin && fn.name.startsWith(`${tool}.`))
      .map((fn) => fn.name.slice(tool.length + 1));
    throw new Oz0Error(
      "NOT_FOUND",
      `${found.address}: the MCP server of ${found.plugin}/${tool} lists no function ${found.name.slice(tool.length + 1)} ` +
        `(its functions: ${names.join(", ") || "none"}).`,
      { data: { kind: "function", name: found.name, tenant } },
    );
  }

  /** The tenant's installs, updates and removes in order, with the reasons given for forced ones. */
  async changes(tenant: string, options: { plugin?: string | undefined } = {}): Promise<PluginChange[]> {
    await requireTenant(this.store.db, tenant);
    let query = this.store.db.selectFrom("plugin_changes").selectAll().where("tenant", "=", tenant);
    if (options.plugin !== undefined) query = query.where("plugin", "=", options.plugin);
    const rows = await query.orderBy("seq").execute();
    return rows.map((row) => ({
      seq: row.seq,
      plugin: row.plugin,
      action: row.action,
      version: row.version,
      previousVersion: row.previous_version,
      forcedReason: row.forced_reason,
      at: row.at,
    }));
  }

  /**
   * The owner check. Reads `text` as an address (`<plugin>/<name>`) or a bare name of a part of
   * `kind` and finds the plugin that owns it in `tenant`:
   * - an address whose plugin does not own the part: `OWNER_MISMATCH`, with the spec's message
   *   (`github/triage is not an agent of github: triage is support-triage's`);
   * - a name nobody defines, or one `options.visible` hides: `NOT_FOUND`, the same answer for both;
   * - an agent or flow name two plugins define: `NAME_CLASH` (neither runs); a tool ID two
   *   plugins define, named as a tool or through one of its functions: `TOOL_CLASH`.
   *
   * A bare name means `options.fromPlugin`'s own part first, then the one plugin that has it,
   * reported with `bare: true`. Jobs and records keep the returned bare `name`.
   * @example await catalog.resolvePart("default", "agent", "support-triage/triage")
   * // { kind: "agent", plugin: "support-triage", name: "triage", address: "support-triage/triage", bare: false }
   */
  async resolvePart(
    tenant: string,
    kind: ResolveKind,
    text: string,
    options: ResolveOptions = {},
  ): Promise<ResolvedPart> {
    checkPartText(kind, text);
    const resolve = () => resolvePart(this.store.db, tenant, kind, text, options);
    // What a caller may see is a function of its own, so only the answer for everyone is kept.
    if (options.visible !== undefined) return resolve();
    return this.cache.get(tenant, `part\0${kind}\0${text}\0${options.fromPlugin ?? ""}`, resolve);
  }

  /** The installed plugin loaded from its bundle, for building its tools and reading its agents. */
  loadInstalled(tenant: string, plugin: string): Promise<LoadedPlugin> {
    return this.cache.get(tenant, `plugin\0${plugin}`, async () => {
      const row = await this.store.db
        .selectFrom("plugins")
        .select(["name", "version", "dir", "bundle"])
        .where("tenant", "=", tenant)
        .where("name", "=", plugin)
        .executeTakeFirst();
      if (row === undefined) throw await this.notInstalled(tenant, plugin);
      return this.installed.load({ tenant, ...row });
    });
  }

  /** The tenant admin's grant of `plugin`'s `uses:`, as stored now; undefined when it has none. */
  tenantGrant(tenant: string, plugin: string): Promise<TenantGrant | undefined> {
    // A tenant that does not exist has no grants; it is not refused here.
    return this.cache.get(
      tenant,
      `grant\0${plugin}`,
      () => readGrant(this.store.db, tenant, plugin),
      async () => {},
    );
  }

  /** The plugins of `tenant` that define tool `toolId`: more than one is a clash, and none runs. */
  async toolOwners(tenant: string, toolId: string): Promise<string[]> {
    // A tenant that does not exist has no tools; it is not refused here.
    const owners = await this.cache.get(
      tenant,
      `tool owners\0${toolId}`,
      async () => {
        const rows = await this.store.db
          .selectFrom("parts")
          .select("plugin")
          .where("tenant", "=", tenant)
          .where("kind", "=", "tool")
          .where("name", "=", toolId)
          .orderBy("plugin")
          .execute();
        return rows.map((row) => row.plugin);
      },
      async () => {},
    );
    return [...owners];
  }

  /**
   * What installing the plugin folder `dir` in `tenant` would be refused for by the tenant: a
   * name another plugin has, or something it uses that is missing, each at its place and in
   * install's words. Lint against a tenant reports these; none when the folder does not load
   * (lint's own findings say why).
   */
  async installProblems(tenant: string, dir: string): Promise<TenantProblem[]> {
    let loaded: LoadedPlugin;
    try {
      loaded = await loadPluginDir(dir);
    } catch (error) {
      if (isOz0Error(error)) return [];
      throw error;
    }
    const plugin = toBeStored(
      loaded,
      { dir: loaded.dir, bundle: null },
      await partsOf(loaded, { tenant, home: this.home }),
      null,
    );
    return tenantProblems(await this.view(tenant), plugin);
  }

  /** What lint knows of `tenant` at install: its plugins' parts; nothing before it exists. */
  private async lintContext(tenant: string): Promise<TenantContext | undefined> {
    const row = await this.store.db
      .selectFrom("tenants")
      .select("name")
      .where("name", "=", tenant)
      .executeTakeFirst();
    if (row === undefined) return undefined;
    const view = await TenantView.load(this.store.db, tenant);
    const entries = [...view.plugins.values()].flatMap((plugin) =>
      plugin.parts.map((part) => ({ kind: part.kind, address: refOf(part).address })),
    );
    return { ...tenantContextFromEntries(tenant, entries), modelSettings: await this.modelSettings(tenant) };
  }

  /** The tenant's model aliases and providers by setting key: which provider serves an agent's model (OZ-S031). */
  async modelSettings(tenant: string): Promise<Map<string, unknown>> {
    return new TenantSettings(this.store.db, this.store.clockSql).routes(tenant);
  }

  private async put(
    action: "install" | "update",
    tenant: string,
    from: PluginSource,
    options: ChangeOptions,
  ) {
    checkTenantName(tenant);
    const reason = forcedReason(options);
    const { bundle, dir, loaded } = await this.loadForInstall(from, options.source);
    const parts = await partsOf(loaded, { tenant, home: this.home });
    const { name, version } = loaded.manifest;
    // Lint's checks, against the tenant as it is now: their errors refuse the change below.
    const { findings } = await checkPlugin(loaded.dir, {
      tenant: await this.lintContext(tenant),
      loaded: true,
    });
    const defaults = action === "install" ? await this.pendingDefaults(tenant, name) : [];
    // A default installed by hand counts as given: removing it later must stick too.
    const isDefault = (await defaultNames(this.options.defaults ?? [])).some((entry) => entry.name === name);
    return this.store.transaction(async (trx): Promise<ChangeReport> => {
      if (action === "install") await ensureTenant(trx, tenant, this.store.clockSql);
      await this.lock(trx, tenant);
      await this.giveDefaults(trx, tenant, defaults);
      const before = await TenantView.load(trx, tenant);
      const current = before.plugin(name);
      if (action === "install" && current !== undefined)
        throw alreadyInstalled(tenant, current, { version, dir });
      if (action === "update" && current === undefined) {
        throw notInstalledError(tenant, name, [...before.plugins.keys()], dir);
      }
      const attempt =
        current === undefined
          ? `cannot install ${name} ${version} in tenant ${tenant}`
          : `cannot update ${name} from ${current.version} to ${version} in tenant ${tenant}`;
      const plugin = toBeStored(loaded, { dir, bundle: bundle.bundle.digest }, parts, reason);
      const after = before.with(plugin);
      refuseTakenNames(before, plugin, attempt);
      refuseUnmetUses(after, plugin, attempt);
      const linted = lintRefusal(findings, attempt, dir);
      if (linted !== undefined) throw linted;
      const overridden = refuseBrokenDependents(before, after, name, action, reason, attempt);
      const breaks =
        current === undefined ? [] : refuseBrokenContract(tenant, current, plugin, reason, attempt);
      const stranded =
        current === undefined
          ? []
          : refuseStrandedJobs(
              await strandedJobs(trx, tenant, name, current.parts, parts),
              { tenant, plugin: name, action: "update", reason },
              attempt,
            );
      await saveBundle(trx, bundle, this.store.clockSql);
      await this.write(trx, tenant, plugin, current !== undefined);
      await writeGrant(trx, tenant, plugin, options.actor ?? "catalog", this.store.clockSql);
      await this.record(trx, {
        tenant,
        plugin: name,
        action,
        version,
        previous: current?.version ?? null,
        reason,
      });
      if (action === "install" && isDefault) {
        await markDefault(trx, tenant, name, "installed", this.store.clockSql);
      }
      const had = new Set(addresses(current?.parts ?? []));
      const has = new Set(addresses(parts));
      return {
        action,
        tenant,
        plugin: name,
        version,
        previousVersion: current?.version ?? null,
        dir,
        digest: bundle.bundle.digest,
        forcedReason: reason,
        added: [...has].filter((address) => !had.has(address)),
        removed: [...had].filter((address) => !has.has(address)),
        overridden,
        strandedJobs: stranded,
        contractBreaks: breaks,
        granted: usesAddresses(plugin.manifest.uses),
      };
    });
  }

  /**
   * The default plugins `tenant` has not been given, loaded outside any transaction (loading
   * runs their code); `skip` is the plugin an install is about to put there itself.
   */
  private async pendingDefaults(tenant: string, skip: string | undefined): Promise<PendingDefault[]> {
    const dirs = this.options.defaults ?? [];
    if (dirs.length === 0) return [];
    const given = await givenDefaults(this.store.db, tenant);
    const pending: PendingDefault[] = [];
    for (const { dir, name } of await defaultNames(dirs)) {
      if (name !== undefined && (name === skip || Object.hasOwn(given, name))) continue;
      let loaded: LoadedPlugin;
      let bundle: PackedBundle;
      try {
        ({ loaded, bundle } = await this.loadForInstall(dir, undefined));
        const { findings } = await checkPlugin(loaded.dir, { loaded: true });
        const linted = lintRefusal(
          findings,
          `cannot install the default plugin ${loaded.manifest.name}`,
          dir,
        );
        if (linted !== undefined) throw linted;
      } catch (error) {
        const plugin = name ?? dir;
        this.options.onDefault?.({
          tenant,
          plugin,
          dir,
          outcome: "unavailable",
          reason: unavailableReason(dir, error),
        });
        continue;
      }
      pending.push({
        plugin: toBeStored(
          loaded,
          { dir, bundle: bundle.bundle.digest },
          await partsOf(loaded, { tenant, home: this.home }),
          null,
        ),
        bundle,
      });
    }
    return pending;
  }

  /** Writes the pending defaults into the locked tenant, each unless it was given meanwhile. */
  private async giveDefaults(
    trx: Kysely<Database>,
    tenant: string,
    pending: readonly PendingDefault[],
  ): Promise<DefaultPluginOutcome[]> {
    const outcomes: DefaultPluginOutcome[] = [];
    for (const { plugin, bundle } of pending) {
      if (Object.hasOwn(await givenDefaults(trx, tenant), plugin.name)) continue;
      const before = await TenantView.load(trx, tenant);
      const base = { tenant, plugin: plugin.name, dir: plugin.dir };
      let outcome: DefaultPluginOutcome;
      if (before.plugin(plugin.name) !== undefined) {
        // Installed by hand already: nothing to give, and nothing to give later.
        await markDefault(trx, tenant, plugin.name, "installed", this.store.clockSql);
        continue;
      }
      try {
        const attempt = `cannot install the default plugin ${plugin.name} ${plugin.version} in tenant ${tenant}`;
        refuseTakenNames(before, plugin, attempt);
        refuseUnmetUses(before.with(plugin), plugin, attempt);
        await saveBundle(trx, bundle, this.store.clockSql);
        await this.write(trx, tenant, plugin, false);
        await this.record(trx, {
          tenant,
          plugin: plugin.name,
          action: "install",
          version: plugin.version,
          previous: null,
          reason: null,
        });
        await markDefault(trx, tenant, plugin.name, "installed", this.store.clockSql);
        outcome = { ...base, outcome: "installed", reason: null };
      } catch (error) {
        if (!isOz0Error(error, "NAME_TAKEN") && !isOz0Error(error, "USES_UNSATISFIED")) throw error;
        await markDefault(trx, tenant, plugin.name, "declined", this.store.clockSql);
        outcome = { ...base, outcome: "declined", reason: error.message };
      }
      outcomes.push(outcome);
      this.options.onDefault?.(outcome);
    }
    return outcomes;
  }

  private async write(trx: Kysely<Database>, tenant: string, plugin: StoredPlugin, replace: boolean) {
    const row = {
      version: plugin.version,
      dir: plugin.dir,
      bundle: plugin.bundle,
      manifest: JSON.stringify(plugin.manifest),
      installed_at: this.store.clockSql,
      forced_reason: plugin.forcedReason,
    };
    if (replace) {
      await trx.deleteFrom("parts").where("tenant", "=", tenant).where("plugin", "=", plugin.name).execute();
      await trx
        .updateTable("plugins")
        .set(row)
        .where("tenant", "=", tenant)
        .where("name", "=", plugin.name)
        .execute();
    } else {
      await trx
        .insertInto("plugins")
        .values({ tenant, name: plugin.name, ...row })
        .execute();
    }
    // Kept well under SQLite's and PostgreSQL's limits on parameters per statement.
    const rows = plugin.parts.map((part) => partRow(tenant, part));
    for (let at = 0; at < rows.length; at += PART_ROWS_PER_INSERT) {
      await trx
        .insertInto("parts")
        .values(rows.slice(at, at + PART_ROWS_PER_INSERT))
        .execute();
    }
  }

  private async record(
    trx: Kysely<Database>,
    change: {
      tenant: string;
      plugin: string;
      action: Action;
      version: string;
      previous: string | null;
      reason: string | null;
    },
  ): Promise<void> {
    // The tenant is locked, so the next number cannot be taken by another change meanwhile.
    const last = await trx
      .selectFrom("plugin_changes")
      .select((eb) => eb.fn.max("seq").as("seq"))
      .where("tenant", "=", change.tenant)
      .executeTakeFirst();
    await trx
      .insertInto("plugin_changes")
      .values({
        tenant: change.tenant,
        seq: Number(last?.seq ?? 0) + 1,
        plugin: change.plugin,
        action: change.action,
        version: change.version,
        previous_version: change.previous,
        forced_reason: change.reason,
        at: this.store.clockSql,
      })
      .execute();
  }

  private async lock(trx: Kysely<Database>, tenant: string): Promise<void> {
    await requireTenant(trx, tenant);
    await lockTenant(trx, this.store.engine, tenant);
  }

  /**
   * The plugin to install, bundled (a folder) and written under the home, then loaded from
   * there as every process will load it; a problem says which folder or bundle it is in, and
   * names files where the folder has them rather than where the home keeps them.
   */
  private async loadForInstall(
    from: PluginSource,
    source: string | undefined,
  ): Promise<{ bundle: PackedBundle; dir: string; loaded: LoadedPlugin }> {
    const given = await bundleOf(from, source);
    const bundle = await packed(given.bundle);
    const cached = await this.bundles.put(bundle.bundle);
    try {
      return { bundle, dir: given.dir, loaded: await loadPluginDir(cached) };
    } catch (error) {
      throw located(error, cached, given.dir);
    }
  }

  private async view(tenant: string): Promise<TenantView> {
    await requireTenant(this.store.db, tenant);
    return TenantView.load(this.store.db, tenant);
  }

  private async notInstalled(tenant: string, plugin: string): Promise<Oz0Error> {
    const names = await this.store.db
      .selectFrom("plugins")
      .select("name")
      .where("tenant", "=", tenant)
      .execute();
    return notInstalledError(
      tenant,
      plugin,
      names.map((row) => row.name),
    );
  }
}

const PART_ROWS_PER_INSERT = 200;

/**
 * The bundle `from` names, with where it came from: a folder's (real path) files; an archive
 * file's (`oz0 plugin pack`) contents; a bundle as it is.
 */
async function bundleOf(
  from: PluginSource,
  source: string | undefined,
): Promise<{ bundle: PluginBundle; dir: string }> {
  if (typeof from !== "string") return { bundle: from, dir: source ?? `bundle ${from.digest}` };
  const info = await stat(from).catch(() => undefined);
  if (info?.isFile() !== true) return { bundle: await bundleFolder(from), dir: await pluginRoot(from) };
  const file = await realpath(from);
  if (info.size > BUNDLE_LIMITS.maxTotalBytes) {
    throw new Oz0Error(
      "INVALID_BUNDLE",
      `${from} is ${info.size} bytes, more than a bundle may hold in all (${BUNDLE_LIMITS.maxTotalBytes} bytes, maxTotalBytes).`,
      { data: { detail: "bundle too large", limit: "maxTotalBytes", max: BUNDLE_LIMITS.maxTotalBytes } },
    );
  }
  return { bundle: await unpackBundle(await readFile(file), { name: from }), dir: source ?? file };
}

/** A load's problem in `cached`, told of `dir`: prefixed with it, and with its paths in place of the home's. */
function located(error: unknown, cached: string, dir: string): unknown {
  if (!(error instanceof Oz0Error)) return error;
  let message = error.message.replaceAll(cached, dir);
  if ((error.cause as { code?: unknown } | undefined)?.code === "ERR_MODULE_NOT_FOUND") {
    message +=
      ". The plugin runs from its bundle, which holds only the files inside its folder (and gets @oz0/sdk from oz0): " +
      "put what the code imports inside the folder (a package in its own node_modules), or bundle it into the code; see docs/bundles.md";
  }
  return new Oz0Error(error.code, message.startsWith(dir) ? message : `${dir}: ${message}`, {
    cause: error,
    ...(error.data === undefined ? {} : { data: { ...error.data } }),
  });
}

function requirePlugin(view: TenantView, plugin: string): StoredPlugin {
  const found = view.plugin(plugin);
  if (found !== undefined) return found;
  throw notInstalledError(view.tenant, plugin, [...view.plugins.keys()]);
}

function grantView(grant: TenantGrant): GrantView {
  return {
    version: grant.version,
    by: grant.grantedBy,
    at: grant.grantedAt,
    uses: usesAddresses(grant.uses),
  };
}

/** What `uses` asks that `grant` does not cover, by address. */
function ungrantedUses(uses: StoredPlugin["manifest"]["uses"], grant: TenantGrant | undefined): string[] {
  return Object.entries(uses ?? {}).flatMap(([plugin, entry]) => [
    ...(entry.tools ?? [])
      .filter((tool) => {
        const dot = tool.indexOf(".");
        const target = {
          kind: "function",
          plugin,
          tool: tool.slice(0, dot),
          function: tool.slice(dot + 1),
        } as const;
        return !usesCover(grant?.uses, target);
      })
      .map((tool) => `${plugin}/${tool}`),
    ...(entry.agents ?? [])
      .filter((name) => !usesCover(grant?.uses, { kind: "agent", plugin, name }))
      .map((name) => `${plugin}/${name}`),
    ...(entry.skills ?? [])
      .filter((name) => !usesCover(grant?.uses, { kind: "skill", plugin, name }))
      .map((name) => `${plugin}/${name === "*" ? "* (skills)" : name}`),
  ]);
}

function addresses(parts: readonly StoredPart[]): string[] {
  return [...parts].sort(comparePartRefs).map((part) => refOf(part).address);
}

/** A loaded plugin folder as the catalog stores it; the store sets `installedAt` as it writes. */
function toBeStored(
  loaded: LoadedPlugin,
  from: { dir: string; bundle: string | null },
  parts: readonly StoredPart[],
  forcedReason: string | null,
): StoredPlugin {
  const { manifest } = loaded;
  return {
    name: manifest.name,
    version: manifest.version,
    dir: from.dir,
    bundle: from.bundle,
    manifest,
    installedAt: 0,
    forcedReason,
    parts,
  };
}
