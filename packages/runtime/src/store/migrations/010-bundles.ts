// Migration 10: plugin bundles. An install or update stores the plugin's files as one immutable,
// content-addressed bundle (a gzipped tar, keyed by the sha256 digest of its files), and the
// installed plugin's row names the bundle it runs from; its `dir` stays only as the folder it
// came from. Identical bundles are one row, whichever tenants and plugins share them.
import type { Migration } from "./types.js";

export const bundles: Migration = {
  version: 10,
  name: "bundles",
  async up(db, { engine }) {
    await db.schema
      .createTable("bundles")
      .addColumn("digest", "text", (column) => column.primaryKey())
      .addColumn("archive", engine === "postgres" ? "bytea" : "blob", (column) => column.notNull())
      .addColumn("files", "integer", (column) => column.notNull())
      .addColumn("bytes", "bigint", (column) => column.notNull())
      .addColumn("created_at", "bigint", (column) => column.notNull())
      .execute();
    // Null for a plugin installed before bundles: its first load bundles its folder once.
    await db.schema
      .alterTable("plugins")
      .addColumn("bundle", "text", (column) => column.references("bundles.digest"))
      .execute();
  },
};
