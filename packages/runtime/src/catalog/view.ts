// A tenant's installed plugins and their parts, read once and queried in memory. Installs check
// a change by comparing the view before it with the view after it, both built here.
import type { PluginManifest } from "@oz0/sdk";
import type { Kysely } from "kysely";
import type { Database, PartKind } from "../store/index.js";
import { partFromRow, type StoredPart } from "./parts.js";

export interface StoredPlugin {
  readonly name: string;
  readonly version: string;
  /** Where it was installed from: the plugin folder's real path, or what an archive install named. */
  readonly dir: string;
  /** The digest of the bundle it runs from; `null` for a plugin installed before bundles, until its first load. */
  readonly bundle: string | null;
  readonly manifest: PluginManifest;
  readonly installedAt: number;
  readonly forcedReason: string | null;
  readonly parts: readonly StoredPart[];
}

export class TenantView {
  readonly tenant: string;
  readonly plugins: ReadonlyMap<string, StoredPlugin>;
  private byName: Map<string, StoredPart[]> | undefined;

  constructor(tenant: string, plugins: Iterable<StoredPlugin>) {
    this.tenant = tenant;
    this.plugins = new Map([...plugins].map((plugin) => [plugin.name, plugin]));
  }

  /** Reads every plugin of `tenant` with its parts, in two queries. */
  static async load(db: Kysely<Database>, tenant: string): Promise<TenantView> {
    const [plugins, parts] = await Promise.all([
      db.selectFrom("plugins").selectAll().where("tenant", "=", tenant).execute(),
      db
        .selectFrom("parts")
        .select(["kind", "plugin", "name", "definition"])
        .where("tenant", "=", tenant)
        .execute(),
    ]);
    const byPlugin = new Map<string, StoredPart[]>();
    for (const row of parts) {
      const list = byPlugin.get(row.plugin) ?? [];
      list.push(partFromRow(row));
      byPlugin.set(row.plugin, list);
    }
    return new TenantView(
      tenant,
      plugins.map((row) => ({
        name: row.name,
        version: row.version,
        dir: row.dir,
        bundle: row.bundle,
        manifest: JSON.parse(row.manifest) as PluginManifest,
        installedAt: row.installed_at,
        forcedReason: row.forced_reason,
        parts: byPlugin.get(row.name) ?? [],
      })),
    );
  }

  plugin(name: string): StoredPlugin | undefined {
    return this.plugins.get(name);
  }

  /** This view with `plugin` added, or put in place of the one of its name. */
  with(plugin: StoredPlugin): TenantView {
    return new TenantView(this.tenant, [...this.without(plugin.name).plugins.values(), plugin]);
  }

  without(name: string): TenantView {
    return new TenantView(
      this.tenant,
      [...this.plugins.values()].filter((plugin) => plugin.name !== name),
    );
  }

  /** Every plugin's part of `kind` named `name`; more than one plugin means a clash. */
  parts(kind: PartKind, name: string): readonly StoredPart[] {
    this.byName ??= this.index();
    return this.byName.get(`${kind}\0${name}`) ?? [];
  }

  /** Agents and flows share one set of names: every agent or flow named `name`. */
  runnables(name: string): readonly StoredPart[] {
    return [...this.parts("agent", name), ...this.parts("flow", name)];
  }

  /** `plugin`'s part of `kind` named `name`. */
  find(plugin: string, kind: PartKind, name: string): StoredPart | undefined {
    return this.parts(kind, name).find((part) => part.plugin === plugin);
  }

  private index(): Map<string, StoredPart[]> {
    const index = new Map<string, StoredPart[]>();
    for (const plugin of this.plugins.values()) {
      for (const part of plugin.parts) {
        const key = `${part.kind}\0${part.name}`;
        const list = index.get(key) ?? [];
        list.push(part);
        index.set(key, list);
      }
    }
    return index;
  }
}
