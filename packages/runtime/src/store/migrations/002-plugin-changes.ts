// Migration 2: the record of every install, update and remove, with the reason given when one
// was forced, so an operator can see later why a tenant was left the way it is.
import { sql } from "kysely";
import type { Migration } from "./types.js";

export const pluginChanges: Migration = {
  version: 2,
  name: "plugin-changes",
  async up(db) {
    // seq counts per tenant; the catalog writes it under the tenant's lock, so it never repeats.
    await db.schema
      .createTable("plugin_changes")
      .addColumn("tenant", "text", (column) => column.notNull().references("tenants.name"))
      .addColumn("seq", "integer", (column) => column.notNull())
      .addColumn("plugin", "text", (column) => column.notNull())
      .addColumn("action", "text", (column) => column.notNull())
      .addColumn("version", "text", (column) => column.notNull())
      .addColumn("previous_version", "text")
      .addColumn("forced_reason", "text")
      .addColumn("at", "bigint", (column) => column.notNull())
      .addPrimaryKeyConstraint("plugin_changes_pk", ["tenant", "seq"])
      .addCheckConstraint(
        "plugin_changes_action_check",
        sql<boolean>`action in ('install', 'update', 'remove')`,
      )
      .execute();
  },
};
