// Migration 26: a tenant's model-call totals are spread over slots within each hour on
// PostgreSQL, so that jobs writing at once do not queue for one row. Every model_call of an
// agent in an hour added itself to the same row (migration 7's trigger), and the row's lock is
// held until its write commits: concurrent jobs took turns, one WAL flush each, where their
// commits could have been flushed together. A job's calls go to the slot its ID falls in, one
// of USAGE_SLOTS; readers sum an hour's slots. SQLite has one writer at a time, so its totals
// keep slot 0 and one row per hour as before.
import { sql } from "kysely";
import type { Migration, MigrationDb } from "./types.js";

const HOUR_MS = 3_600_000;

/** How many rows an agent's model calls of one hour are spread over on PostgreSQL. */
const USAGE_SLOTS = 16;

const ON_CONFLICT = sql.raw(`on conflict (tenant, agent, model, hour, slot) do update set
        input_tokens = usage_totals.input_tokens + excluded.input_tokens,
        output_tokens = usage_totals.output_tokens + excluded.output_tokens,
        model_calls = usage_totals.model_calls + 1,
        cost_usd = usage_totals.cost_usd + excluded.cost_usd`);

export const usageSlots: Migration = {
  version: 26,
  name: "usage-slots",
  async up(db, { engine }) {
    if (engine === "postgres") {
      await sql`alter table usage_totals add column slot integer not null default 0`.execute(db);
      await sql`alter table usage_totals drop constraint usage_totals_pk`.execute(db);
      await sql`alter table usage_totals add constraint usage_totals_pk primary key (tenant, agent, model, hour, slot)`.execute(
        db,
      );
      await postgresUsageFunction(db);
      return;
    }
    // SQLite changes no primary key in place: the table is made again, its rows at slot 0.
    await sql`drop trigger usage_totals_on_model_call`.execute(db);
    await db.schema
      .createTable("usage_totals_slotted")
      .addColumn("tenant", "text", (column) => column.notNull().references("tenants.name"))
      .addColumn("agent", "text", (column) => column.notNull())
      .addColumn("model", "text", (column) => column.notNull())
      .addColumn("hour", "bigint", (column) => column.notNull())
      .addColumn("slot", "integer", (column) => column.notNull().defaultTo(0))
      .addColumn("input_tokens", "bigint", (column) => column.notNull())
      .addColumn("output_tokens", "bigint", (column) => column.notNull())
      .addColumn("model_calls", "bigint", (column) => column.notNull())
      .addColumn("cost_usd", "double precision", (column) => column.notNull())
      .addPrimaryKeyConstraint("usage_totals_pk", ["tenant", "agent", "model", "hour", "slot"])
      .execute();
    await sql`insert into usage_totals_slotted (tenant, agent, model, hour, slot, input_tokens, output_tokens, model_calls, cost_usd)
      select tenant, agent, model, hour, 0, input_tokens, output_tokens, model_calls, cost_usd from usage_totals`.execute(
      db,
    );
    await db.schema.dropTable("usage_totals").execute();
    await sql`alter table usage_totals_slotted rename to usage_totals`.execute(db);
    await db.schema
      .createIndex("usage_totals_by_hour")
      .on("usage_totals")
      .columns(["tenant", "hour"])
      .execute();
    await sql`
      create trigger usage_totals_on_model_call after insert on job_events
      when new.kind = 'model_call' and json_valid(new.data) and json_extract(new.data, '$.model') is not null
      begin
        insert into usage_totals (tenant, agent, model, hour, slot, input_tokens, output_tokens, model_calls, cost_usd)
        select j.tenant, j.plugin || '/' || j.name, json_extract(new.data, '$.model'),
          (new.at / ${sql.lit(HOUR_MS)}) * ${sql.lit(HOUR_MS)}, 0,
          coalesce(json_extract(new.data, '$.usage.input'), 0),
          coalesce(json_extract(new.data, '$.usage.output'), 0),
          1,
          coalesce(json_extract(new.data, '$.cost_usd'), 0)
        from jobs j where j.id = new.job_id
        ${ON_CONFLICT};
      end`.execute(db);
  },
};

/**
 * Migration 7's function (with migration 20's check of an event's JSON on PostgreSQL 16 and
 * later), adding each call to its job's slot.
 */
async function postgresUsageFunction(db: MigrationDb): Promise<void> {
  const { rows } = await sql<{
    version: number;
  }>`select current_setting('server_version_num')::int as version`.execute(db);
  const parse =
    (rows[0]?.version ?? 0) >= 160000
      ? sql.raw(`if not pg_input_is_valid(new.data, 'jsonb') then
        return null;
      end if;
      call := new.data::jsonb;`)
      : sql.raw(`begin
        call := new.data::jsonb;
      exception when others then
        return null;
      end;`);
  await sql`
    create or replace function oz0_usage_on_model_call() returns trigger language plpgsql as $$
    declare
      call jsonb;
    begin
      ${parse}
      if call ->> 'model' is null then
        return null;
      end if;
      insert into usage_totals (tenant, agent, model, hour, slot, input_tokens, output_tokens, model_calls, cost_usd)
      select j.tenant, j.plugin || '/' || j.name, call ->> 'model', (new.at / ${sql.lit(HOUR_MS)}) * ${sql.lit(HOUR_MS)},
        abs(hashtext(new.job_id)) % ${sql.lit(USAGE_SLOTS)},
        coalesce((call -> 'usage' ->> 'input')::bigint, 0),
        coalesce((call -> 'usage' ->> 'output')::bigint, 0),
        1,
        coalesce((call ->> 'cost_usd')::double precision, 0)
      from jobs j where j.id = new.job_id
      ${ON_CONFLICT};
      return null;
    end
    $$`.execute(db);
}
