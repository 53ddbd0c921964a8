// Migration 17: records, the versioned values a plugin's tools keep through the platform
// (`ctx.records`). `records` holds every version, by tenant, plugin, kind and key, with the
// subject it is about (a person or a thing erasure finds it by). `record_retention` is a
// tenant's retention of a kind in days; `record_holds` are legal holds, which keep what they
// cover from retention and erasure until released.
import type { Migration } from "./types.js";

export const records: Migration = {
  version: 17,
  name: "records",
  async up(db) {
    await db.schema
      .createTable("records")
      .addColumn("tenant", "text", (column) => column.notNull().references("tenants.name"))
      .addColumn("plugin", "text", (column) => column.notNull())
      .addColumn("kind", "text", (column) => column.notNull())
      .addColumn("key", "text", (column) => column.notNull())
      .addColumn("version", "integer", (column) => column.notNull())
      .addColumn("subject", "text")
      .addColumn("value", "text", (column) => column.notNull())
      .addColumn("created_at", "bigint", (column) => column.notNull())
      .addPrimaryKeyConstraint("records_pkey", ["tenant", "plugin", "kind", "key", "version"])
      .execute();
    await db.schema.createIndex("records_by_subject").on("records").columns(["tenant", "subject"]).execute();
    await db.schema
      .createIndex("records_by_age")
      .on("records")
      .columns(["tenant", "plugin", "kind", "created_at"])
      .execute();
    await db.schema
      .createTable("record_retention")
      .addColumn("tenant", "text", (column) => column.notNull().references("tenants.name"))
      .addColumn("plugin", "text", (column) => column.notNull())
      .addColumn("kind", "text", (column) => column.notNull())
      .addColumn("days", "integer", (column) => column.notNull())
      .addColumn("set_by", "text", (column) => column.notNull())
      .addColumn("set_at", "bigint", (column) => column.notNull())
      .addPrimaryKeyConstraint("record_retention_pkey", ["tenant", "plugin", "kind"])
      .execute();
    await db.schema
      .createTable("record_holds")
      .addColumn("id", "text", (column) => column.primaryKey())
      .addColumn("tenant", "text", (column) => column.notNull().references("tenants.name"))
      .addColumn("plugin", "text")
      .addColumn("kind", "text")
      .addColumn("key", "text")
      .addColumn("subject", "text")
      .addColumn("reason", "text", (column) => column.notNull())
      .addColumn("placed_by", "text", (column) => column.notNull())
      .addColumn("placed_at", "bigint", (column) => column.notNull())
      .addColumn("released_by", "text")
      .addColumn("released_at", "bigint")
      .execute();
    await db.schema.createIndex("record_holds_by_tenant").on("record_holds").columns(["tenant"]).execute();
  },
};
