// Migration 23: what each bundle declares (its manifest, agents and skills, read and checked),
// kept by the build of oz0 that read it, so that a process loading a plugin reads one row where
// it parsed the bundle's YAML (bundles/declarations.ts).
import type { Migration } from "./types.js";

export const bundleDeclarations: Migration = {
  version: 23,
  name: "bundle-declarations",
  async up(db) {
    await db.schema
      .createTable("bundle_declarations")
      .addColumn("digest", "text", (column) =>
        column.notNull().references("bundles.digest").onDelete("cascade"),
      )
      .addColumn("reader", "text", (column) => column.notNull())
      .addColumn("declarations", "text", (column) => column.notNull())
      .addColumn("created_at", "bigint", (column) => column.notNull())
      .addPrimaryKeyConstraint("bundle_declarations_pk", ["digest", "reader"])
      .execute();
  },
};
