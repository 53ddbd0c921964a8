// The catalog: which plugins each tenant has installed and the parts they define. Installs,
// updates and removes are all or nothing, each in one store transaction under the tenant's
// lock; every later use of a part's name goes through the owner check in resolve.ts.
import { isOz0Error, Oz0Error } from "@oz0/sdk";
import type { Kysely } from "kysely";
import { type LoadedPlugin, loadPluginDir } from "../plugin-dir/index.js";
import type { Database, Store } from "../store/index.js";
import {
  type ReferenceProblem,
  refuseBrokenDependents,
  refuseTakenNames,
  refuseUnmetUses,
} from "./checks.js";
import { alreadyInstalled, forcedReason, notInstalledError } from "./errors.js";
import { InstalledPlugins } from "./installed.js";
import { comparePartRefs, partFromRow, partRow, partsOf, type StoredPart } from "./parts.js";
import {
  type CatalogEntry,
  detailOf,
  entriesOf,
  entryOf,
  type PluginChange,
  type PluginDetail,
  type PluginSummary,
  summaryOf,
} from "./reports.js";
import { type ResolvedPart, type ResolveKind, type ResolveOptions, refOf, resolvePart } from "./resolve.js";
import { checkTenantName, ensureTenant, lockTenant, requireTenant } from "./tenants.js";
import { type StoredPlugin, TenantView } from "./view.js";

/** `--force --reason TEXT`: go past what an install, update or remove would break for other plugins. */
export interface ChangeOptions {
  readonly force?: boolean | undefined;
  readonly reason?: string | undefined;
}

/** What an install, update or remove did. */
export interface ChangeReport {
  readonly action: "install" | "update" | "remove";
  readonly tenant: string;
  readonly plugin: string;
  /** The version installed, updated to, or removed. */
  readonly version: string;
  /** An update's version before it; `null` otherwise. */
  readonly previousVersion: string | null;
  readonly dir: string;
  readonly forcedReason: string | null;
  /** Parts by address that the change added, and that it removed. */
  readonly added: readonly string[];
  readonly removed: readonly string[];
  /** What other plugins lost that `--force` went past. */
  readonly overridden: readonly ReferenceProblem[];
}

type Action = ChangeReport["action"];

/**
 * The tenants' installed plugins. Every method runs its own queries or transaction on the
 * store, so call none of them from inside a store transaction (on SQLite, one connection
 * serves both, and the inner call would wait for the outer one forever).
 */
export class Catalog {
  readonly store: Store;
  readonly home: string;
  private readonly installed = new InstalledPlugins();

  constructor(store: Store, home: string) {
    this.store = store;
    this.home = home;
  }

  /**
   * Installs the plugin folder `dir` into `tenant`, creating the tenant if it does not exist.
   * Refused, leaving the tenant as it was, when the folder does not load, when it would add an
   * agent or flow name or tool ID another plugin has, when what it uses is missing, or (unless
   * forced) when another installed plugin names what this version lacks.
   */
  install(tenant: string, dir: string, options: ChangeOptions = {}): Promise<ChangeReport> {
    return this.put("install", tenant, dir, options);
  }

  /** Replaces an installed plugin with the version in `dir`, under the rules of install. */
  update(tenant: string, dir: string, options: ChangeOptions = {}): Promise<ChangeReport> {
    return this.put("update", tenant, dir, options);
  }

  /** Removes `plugin` from `tenant`; refused, unless forced, while another plugin names its parts. */
  async remove(tenant: string, plugin: string, options: ChangeOptions = {}): Promise<ChangeReport> {
    const reason = forcedReason(options);
    return this.store.transaction(async (trx) => {
      await this.lock(trx, tenant);
      const before = await TenantView.load(trx, tenant);
      const current = requirePlugin(before, plugin);
      const after = before.without(plugin);
      const attempt = `cannot remove ${plugin} ${current.version} from tenant ${tenant}`;
      const overridden = refuseBrokenDependents(before, after, plugin, "remove", reason, attempt);
      await trx.deleteFrom("parts").where("tenant", "=", tenant).where("plugin", "=", plugin).execute();
      await trx.deleteFrom("plugins").where("tenant", "=", tenant).where("name", "=", plugin).execute();
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
        forcedReason: reason,
        added: [],
        removed: addresses(current.parts),
        overridden,
      };
    });
  }

  /** The tenant's plugins, by name. */
  async list(tenant: string): Promise<PluginSummary[]> {
    const view = await this.view(tenant);
    return [...view.plugins.values()].sort((a, b) => (a.name < b.name ? -1 : 1)).map(summaryOf);
  }

  /** One installed plugin with its parts by address, what it uses, and its history in the tenant. */
  async inspect(tenant: string, plugin: string): Promise<PluginDetail> {
    const view = await this.view(tenant);
    const found = requirePlugin(view, plugin);
    return detailOf(view, found, await this.changes(tenant, { plugin }));
  }

  /** Every agent, flow, tool, function and skill of the tenant by address; `tag` keeps agents tagged so. */
  async entries(tenant: string, options: { tag?: string | undefined } = {}): Promise<CatalogEntry[]> {
    return entriesOf(await this.view(tenant), options.tag);
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
      // A function of an MCP tool has no row: its server lists it when a job starts.
      const listedLater: StoredPart = {
        ...found,
        kind: "function",
        description: "",
        inputSchema: { type: "object" },
      };
      return { ...entryOf(listedLater, false), description: null, bare: found.bare };
    }
    throw new Oz0Error("NOT_FOUND", `no agent, flow, tool or skill ${text} in tenant ${tenant}`, {
      data: { kind: "part", name: text, tenant },
    });
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
  resolvePart(
    tenant: string,
    kind: ResolveKind,
    text: string,
    options: ResolveOptions = {},
  ): Promise<ResolvedPart> {
    return resolvePart(this.store.db, tenant, kind, text, options);
  }

  /** The installed plugin loaded from its folder, for building its tools and reading its agents. */
  async loadInstalled(tenant: string, plugin: string): Promise<LoadedPlugin> {
    await requireTenant(this.store.db, tenant);
    const row = await this.store.db
      .selectFrom("plugins")
      .select(["name", "version", "dir"])
      .where("tenant", "=", tenant)
      .where("name", "=", plugin)
      .executeTakeFirst();
    if (row === undefined) throw await this.notInstalled(tenant, plugin);
    return this.installed.load({ tenant, ...row });
  }

  /** The plugins of `tenant` that define tool `toolId`: more than one is a clash, and none runs. */
  async toolOwners(tenant: string, toolId: string): Promise<string[]> {
    const rows = await this.store.db
      .selectFrom("parts")
      .select("plugin")
      .where("tenant", "=", tenant)
      .where("kind", "=", "tool")
      .where("name", "=", toolId)
      .orderBy("plugin")
      .execute();
    return rows.map((row) => row.plugin);
  }

  private async put(action: "install" | "update", tenant: string, dir: string, options: ChangeOptions) {
    checkTenantName(tenant);
    const reason = forcedReason(options);
    const loaded = await loadForInstall(dir);
    const parts = await partsOf(loaded, { tenant, home: this.home });
    const { name, version } = loaded.manifest;
    return this.store.transaction(async (trx): Promise<ChangeReport> => {
      if (action === "install") await ensureTenant(trx, tenant, this.store.clockSql);
      await this.lock(trx, tenant);
      const before = await TenantView.load(trx, tenant);
      const current = before.plugin(name);
      if (action === "install" && current !== undefined)
        throw alreadyInstalled(tenant, current, { version, dir: loaded.dir });
      if (action === "update" && current === undefined) {
        throw notInstalledError(tenant, name, [...before.plugins.keys()], dir);
      }
      const attempt =
        current === undefined
          ? `cannot install ${name} ${version} in tenant ${tenant}`
          : `cannot update ${name} from ${current.version} to ${version} in tenant ${tenant}`;
      const plugin: StoredPlugin = {
        name,
        version,
        dir: loaded.dir,
        manifest: loaded.manifest,
        installedAt: 0,
        forcedReason: reason,
        parts,
      };
      const after = before.with(plugin);
      refuseTakenNames(before, plugin, attempt);
      refuseUnmetUses(after, plugin, attempt);
      const overridden = refuseBrokenDependents(before, after, name, action, reason, attempt);
      await this.write(trx, tenant, plugin, current !== undefined);
      await this.record(trx, {
        tenant,
        plugin: name,
        action,
        version,
        previous: current?.version ?? null,
        reason,
      });
      const had = new Set(addresses(current?.parts ?? []));
      const has = new Set(addresses(parts));
      return {
        action,
        tenant,
        plugin: name,
        version,
        previousVersion: current?.version ?? null,
        dir: loaded.dir,
        forcedReason: reason,
        added: [...has].filter((address) => !had.has(address)),
        removed: [...had].filter((address) => !has.has(address)),
        overridden,
      };
    });
  }

  private async write(trx: Kysely<Database>, tenant: string, plugin: StoredPlugin, replace: boolean) {
    const row = {
      version: plugin.version,
      dir: plugin.dir,
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

/** Loads a folder to install, saying which folder a problem is in; the problems keep file:line:col. */
async function loadForInstall(dir: string): Promise<LoadedPlugin> {
  try {
    return await loadPluginDir(dir);
  } catch (error) {
    if (!(error instanceof Oz0Error) || error.message.startsWith(dir)) throw error;
    throw new Oz0Error(error.code, `${dir}: ${error.message}`, {
      cause: error,
      ...(error.data === undefined ? {} : { data: { ...error.data } }),
    });
  }
}

function requirePlugin(view: TenantView, plugin: string): StoredPlugin {
  const found = view.plugin(plugin);
  if (found !== undefined) return found;
  throw notInstalledError(view.tenant, plugin, [...view.plugins.keys()]);
}

function addresses(parts: readonly StoredPart[]): string[] {
  return [...parts].sort(comparePartRefs).map((part) => refOf(part).address);
}
