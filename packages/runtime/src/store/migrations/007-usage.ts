// Migration 7: model-call totals per tenant, agent, model and hour, which budgets read over a
// period (a few rows per hour instead of every model call of the period). The database keeps
// them itself: a trigger on job_events adds each model_call to its row in the statement that
// inserts the event, so the totals are exact through crashes and cost a job's write no extra
// round trip or transaction. An event that is not a model call's JSON (no model) counts nowhere.
import { sql } from "kysely";
import type { Migration } from "./types.js";

const HOUR_MS = 3_600_000;

export const usage: Migration = {
  version: 7,
  name: "usage",
  async up(db, { engine }) {
    await db.schema
      .createTable("usage_totals")
      .addColumn("tenant", "text", (column) => column.notNull().references("tenants.name"))
      .addColumn("agent", "text", (column) => column.notNull())
      .addColumn("model", "text", (column) => column.notNull())
      .addColumn("hour", "bigint", (column) => column.notNull())
      .addColumn("input_tokens", "bigint", (column) => column.notNull())
      .addColumn("output_tokens", "bigint", (column) => column.notNull())
      .addColumn("model_calls", "bigint", (column) => column.notNull())
      .addColumn("cost_usd", "double precision", (column) => column.notNull())
      .addPrimaryKeyConstraint("usage_totals_pk", ["tenant", "agent", "model", "hour"])
      .execute();
    await db.schema
      .createIndex("usage_totals_by_hour")
      .on("usage_totals")
      .columns(["tenant", "hour"])
      .execute();
    const onConflict = sql.raw(`on conflict (tenant, agent, model, hour) do update set
        input_tokens = usage_totals.input_tokens + excluded.input_tokens,
        output_tokens = usage_totals.output_tokens + excluded.output_tokens,
        model_calls = usage_totals.model_calls + 1,
        cost_usd = usage_totals.cost_usd + excluded.cost_usd`);
    if (engine === "postgres") {
      await sql`
        create function oz0_usage_on_model_call() returns trigger language plpgsql as $$
        declare
          call jsonb;
        begin
          begin
            call := new.data::jsonb;
          exception when others then
            return null;
          end;
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
          ${onConflict};
          return null;
        end
        $$`.execute(db);
      await sql`
        create trigger usage_totals_on_model_call after insert on job_events
        for each row when (new.kind = 'model_call') execute function oz0_usage_on_model_call()`.execute(db);
      return;
    }
    await sql`
      create trigger usage_totals_on_model_call after insert on job_events
      when new.kind = 'model_call' and json_valid(new.data) and json_extract(new.data, '$.model') is not null
      begin
        insert into usage_totals (tenant, agent, model, hour, input_tokens, output_tokens, model_calls, cost_usd)
        select j.tenant, j.plugin || '/' || j.name, json_extract(new.data, '$.model'),
          (new.at / ${sql.lit(HOUR_MS)}) * ${sql.lit(HOUR_MS)},
          coalesce(json_extract(new.data, '$.usage.input'), 0),
          coalesce(json_extract(new.data, '$.usage.output'), 0),
          1,
          coalesce(json_extract(new.data, '$.cost_usd'), 0)
        from jobs j where j.id = new.job_id
        ${onConflict};
      end`.execute(db);
  },
};
