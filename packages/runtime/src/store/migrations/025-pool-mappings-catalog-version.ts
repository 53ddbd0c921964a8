// Migration 25: a tenant's catalog version moves on with its plugins' pool mappings too, as it
// does with what else a job's start resolves from the store (migration 20), so a process keeps a
// plugin's mapping while the version stands and a start reads no row of its own for it. The
// triggers are migration 20's: PostgreSQL's function, SQLite's statements.
import { sql } from "kysely";
import type { Migration } from "./types.js";

export const poolMappingsCatalogVersion: Migration = {
  version: 25,
  name: "pool-mappings-catalog-version",
  async up(db, { engine }) {
    if (engine === "postgres") {
      await sql`
        create trigger plugin_pools_catalog_version after insert or update or delete on plugin_pools
        for each row execute function oz0_catalog_changed()`.execute(db);
      return;
    }
    const bump = (row: "new" | "old") =>
      sql.raw(`update tenants set catalog_version = catalog_version + 1 where name = ${row}.tenant;`);
    await sql`
      create trigger plugin_pools_catalog_version_insert after insert on plugin_pools
      begin ${bump("new")} end`.execute(db);
    await sql`
      create trigger plugin_pools_catalog_version_update after update on plugin_pools
      begin ${bump("old")} ${bump("new")} end`.execute(db);
    await sql`
      create trigger plugin_pools_catalog_version_delete after delete on plugin_pools
      begin ${bump("old")} end`.execute(db);
  },
};
