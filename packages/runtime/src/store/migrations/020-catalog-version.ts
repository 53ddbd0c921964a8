// Migration 20: a tenant's catalog version, which moves on with every change of what a job's
// set-up resolves from the store (its installed plugins, their parts, the admin's grants, its
// settings: model aliases, providers, prices, secrets), so a
// process may keep what it resolved for as long as the version stands. The database moves it
// itself, by triggers on those tables in the statement that makes the change: no writer, in this
// process or another, can change the catalog and leave the version where it was.
// On PostgreSQL 16 and later the usage trigger of migration 7 checks an event's JSON with
// pg_input_is_valid instead of an exception block, which opened a subtransaction at every model
// call; older servers keep the block, the only way they have.
import { sql } from "kysely";
import type { Migration, MigrationDb } from "./types.js";

const HOUR_MS = 3_600_000;

/** The tables whose rows a job's set-up reads (catalog and settings); each row has its tenant. */
const CATALOG_TABLES = ["plugins", "parts", "plugin_grants", "settings"] as const;

export const catalogVersion: Migration = {
  version: 20,
  name: "catalog-version",
  async up(db, { engine }) {
    await db.schema
      .alterTable("tenants")
      .addColumn("catalog_version", "integer", (column) => column.notNull().defaultTo(0))
      .execute();
    if (engine === "postgres") {
      await sql`
        create function oz0_catalog_changed() returns trigger language plpgsql as $$
        begin
          if tg_op <> 'INSERT' then
            update tenants set catalog_version = catalog_version + 1 where name = old.tenant;
          end if;
          if tg_op <> 'DELETE' and (tg_op = 'INSERT' or new.tenant <> old.tenant) then
            update tenants set catalog_version = catalog_version + 1 where name = new.tenant;
          end if;
          return null;
        end
        $$`.execute(db);
      for (const table of CATALOG_TABLES) {
        await sql`
          create trigger ${sql.raw(`${table}_catalog_version`)} after insert or update or delete on ${sql.table(table)}
          for each row execute function oz0_catalog_changed()`.execute(db);
      }
      const { rows } = await sql<{
        version: number;
      }>`select current_setting('server_version_num')::int as version`.execute(db);
      if ((rows[0]?.version ?? 0) >= 160000) await usageWithoutSubtransaction(db);
      return;
    }
    for (const table of CATALOG_TABLES) {
      const bump = (row: "new" | "old") =>
        sql.raw(`update tenants set catalog_version = catalog_version + 1 where name = ${row}.tenant;`);
      await sql`
        create trigger ${sql.raw(`${table}_catalog_version_insert`)} after insert on ${sql.table(table)}
        begin ${bump("new")} end`.execute(db);
      await sql`
        create trigger ${sql.raw(`${table}_catalog_version_update`)} after update on ${sql.table(table)}
        begin ${bump("old")} ${bump("new")} end`.execute(db);
      await sql`
        create trigger ${sql.raw(`${table}_catalog_version_delete`)} after delete on ${sql.table(table)}
        begin ${bump("old")} end`.execute(db);
    }
  },
};

/** Migration 7's usage function, the same but for how it tells that an event's data is JSON. */
async function usageWithoutSubtransaction(db: MigrationDb): Promise<void> {
  await sql`
    create or replace function oz0_usage_on_model_call() returns trigger language plpgsql as $$
    declare
      call jsonb;
    begin
      if not pg_input_is_valid(new.data, 'jsonb') then
        return null;
      end if;
      call := new.data::jsonb;
      if call ->> 'model' is null then
        return null;
      end if;
      insert into usage_totals (tenant, agent, model, hour, input_tokens, output_tokens, model_calls, cost_usd)
      select j.tenant, j.plugin || '/' || j.name, call ->> 'model', (new.at / ${sql.lit(HOUR_MS)}) * ${sql.lit(HOUR_MS)},
        coalesce((call -> 'usage' ->> 'input')::bigint, 0),
        coalesce((call -> 'usage' ->> 'output')::bigint, 0),
        1,
        coalesce((call ->> 'cost_usd')::double precision, 0)
      from jobs j where j.id = new.job_id
      on conflict (tenant, agent, model, hour) do update set
        input_tokens = usage_totals.input_tokens + excluded.input_tokens,
        output_tokens = usage_totals.output_tokens + excluded.output_tokens,
        model_calls = usage_totals.model_calls + 1,
        cost_usd = usage_totals.cost_usd + excluded.cost_usd;
      return null;
    end
    $$`.execute(db);
}
