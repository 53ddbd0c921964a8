// Which handlers apply to a job: those of every plugin installed in the job's tenant, since
// governance must hold tenant-wide (a budget watches every agent, not only the agents of its
// own plugin). Only plugins whose manifest declares a hook capability are loaded; each gets its
// config in the tenant (`oz0 plugin config`), secrets decrypted, over its admin spec's defaults.

import { effectiveConfig } from "../plugin-config/index.js";
import type { LoadedPlugin } from "../plugin-dir/index.js";
import { type Store, tenantCacheOf } from "../store/index.js";
import type { PartSource } from "../tools/index.js";
import { buildHookTable, HOOK_REGISTRATION_KINDS, type HookPlugin, HookTable } from "./table.js";

/** Where the job engine gets a tenant's hook table. */
export interface HookSource {
  table(tenant: string): Promise<HookTable>;
}

/** What the bus reads of a loaded plugin: its name and what its code registered. */
export type PluginWithCode = Pick<LoadedPlugin, "code"> & { readonly manifest: { readonly name: string } };

/**
 * A hook source over plugins already loaded, each with its config over its admin defaults, the
 * same for every tenant: for tests and embedders.
 */
export function pluginHookSource(
  plugins: readonly (PluginWithCode | { readonly plugin: PluginWithCode; readonly config?: object })[],
): HookSource {
  const list: HookPlugin[] = plugins.map((entry) => {
    const plugin = "plugin" in entry ? entry.plugin : entry;
    const config = "plugin" in entry ? (entry.config as Record<string, unknown> | undefined) : undefined;
    return { name: plugin.manifest.name, code: plugin.code, config: effectiveConfig(plugin, config) };
  });
  const table = buildHookTable(list);
  return { table: () => table };
}

/** The hook source over the tenant's installed plugins in the store, loaded through `source`. */
export function storeHookSource(store: Store, source: PartSource): HookSource {
  // Which plugins declare hooks is kept while the tenant's catalog version stands.
  const cache = tenantCacheOf(store.db);
  return {
    async table(tenant) {
      const names = await cache.get(tenant, "hook plugins", async () => {
        const rows = await store.db
          .selectFrom("plugins")
          .select(["name", "manifest"])
          .where("tenant", "=", tenant)
          .orderBy("name")
          .execute();
        return Object.freeze(rows.filter((row) => declaresHooks(row.manifest)).map((row) => row.name));
      });
      if (names.length === 0) return HookTable.EMPTY;
      const plugins = await Promise.all(
        names.map(async (name): Promise<HookPlugin> => {
          const loaded = await source.loadInstalled(tenant, name);
          return {
            name,
            code: loaded.code,
            config: (await source.config?.(tenant, name)) ?? effectiveConfig(loaded, undefined),
          };
        }),
      );
      return buildHookTable(plugins);
    },
  };
}

function declaresHooks(manifest: string): boolean {
  const capabilities = (JSON.parse(manifest) as { capabilities?: unknown }).capabilities;
  return Array.isArray(capabilities) && capabilities.some((word) => HOOK_REGISTRATION_KINDS.includes(word));
}
