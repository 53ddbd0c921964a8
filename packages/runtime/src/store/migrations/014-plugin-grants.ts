// Migration 14: a tenant admin's grants. One row per plugin whose `uses:` (what it reaches of
// other plugins: functions, agents, skills) an admin granted in a tenant: what was granted (that
// `uses:`, as JSON, and the plugin version it came with), by whom and when. A call, delegation or
// skill load of another plugin's part runs only within both the plugin's `uses:` and this grant.
// Every plugin installed before this migration was installed by an admin, so each gets the grant
// of the `uses:` it runs with now, recorded as granted by this migration: nothing that ran before
// stops running. From here on install and update by an admin grant; nothing else does.
import type { Migration } from "./types.js";

/** Who the grants of plugins installed before migration 14 are recorded as given by. */
const MIGRATION_GRANTOR = "migration 14";

export const pluginGrants: Migration = {
  version: 14,
  name: "plugin-grants",
  async up(db, { clockSql }) {
    await db.schema
      .createTable("plugin_grants")
      .addColumn("tenant", "text", (column) => column.notNull().references("tenants.name"))
      .addColumn("plugin", "text", (column) => column.notNull())
      .addColumn("version", "text", (column) => column.notNull())
      .addColumn("uses", "text", (column) => column.notNull())
      .addColumn("granted_by", "text", (column) => column.notNull())
      .addColumn("granted_at", "bigint", (column) => column.notNull())
      .addPrimaryKeyConstraint("plugin_grants_pkey", ["tenant", "plugin"])
      .execute();
    const installed: { tenant: string; name: string; version: string; manifest: string }[] = await db
      .selectFrom("plugins")
      .select(["tenant", "name", "version", "manifest"])
      .execute();
    for (const plugin of installed) {
      const uses = (JSON.parse(plugin.manifest) as { uses?: unknown }).uses ?? {};
      await db
        .insertInto("plugin_grants")
        .values({
          tenant: plugin.tenant,
          plugin: plugin.name,
          version: plugin.version,
          uses: JSON.stringify(uses),
          granted_by: MIGRATION_GRANTOR,
          granted_at: clockSql,
        })
        .execute();
    }
  },
};
