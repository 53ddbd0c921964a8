// Migration 19: plugin runtimes. One row per runtime a plugin registers (`host.addRuntime`) in a
// tenant: the node that holds its lease and runs it (`node`, until `lease_until` on the
// database's clock; another live node takes it over once that lapses), and its status as that
// node last wrote it, which `oz0 plugin status` and the API read from any process.
import type { Migration } from "./types.js";

export const pluginRuntimes: Migration = {
  version: 19,
  name: "plugin-runtimes",
  async up(db) {
    await db.schema
      .createTable("plugin_runtimes")
      .addColumn("tenant", "text", (column) => column.notNull().references("tenants.name"))
      .addColumn("plugin", "text", (column) => column.notNull())
      .addColumn("runtime", "text", (column) => column.notNull())
      .addColumn("node", "text", (column) => column.notNull())
      .addColumn("lease_until", "bigint", (column) => column.notNull())
      .addColumn("state", "text", (column) => column.notNull())
      .addColumn("restarts", "integer", (column) => column.notNull().defaultTo(0))
      .addColumn("last_error", "text")
      .addColumn("since", "bigint", (column) => column.notNull())
      .addColumn("updated_at", "bigint", (column) => column.notNull())
      .addPrimaryKeyConstraint("plugin_runtimes_pkey", ["tenant", "plugin", "runtime"])
      .execute();
  },
};
