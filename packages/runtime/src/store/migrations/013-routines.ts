// Migration 13: routines. `routines` holds a tenant's own routines (`oz0 routine add`); a
// plugin's come from its manifest. `routine_state` keeps, per routine, whether it is paused and
// how far its scheduler has looked (its cursor: the last tick time, or the last ended job seen).
// `routine_fires` is one row per firing, unique per (tenant, routine, key): a schedule tick's
// key is its time, an ended job's its id, a webhook's its signature. The row is inserted in the
// transaction that queues the job, so a tick fires exactly once however many schedulers see it,
// and a webhook's signature fires once however often it is replayed.
import { sql } from "kysely";
import type { Migration } from "./types.js";

export const routines: Migration = {
  version: 13,
  name: "routines",
  async up(db) {
    await db.schema
      .createTable("routines")
      .addColumn("tenant", "text", (column) => column.notNull().references("tenants.name"))
      .addColumn("name", "text", (column) => column.notNull())
      .addColumn("definition", "text", (column) => column.notNull())
      .addColumn("created_by", "text", (column) => column.notNull())
      .addColumn("created_at", "bigint", (column) => column.notNull())
      .addPrimaryKeyConstraint("routines_pkey", ["tenant", "name"])
      .execute();
    await db.schema
      .createTable("routine_state")
      .addColumn("tenant", "text", (column) => column.notNull().references("tenants.name"))
      .addColumn("routine", "text", (column) => column.notNull())
      .addColumn("paused", "integer", (column) => column.notNull().defaultTo(0))
      .addColumn("paused_by", "text")
      .addColumn("cursor", "bigint")
      .addColumn("updated_at", "bigint", (column) => column.notNull())
      .addPrimaryKeyConstraint("routine_state_pkey", ["tenant", "routine"])
      .execute();
    await db.schema
      .createTable("routine_fires")
      .addColumn("id", "text", (column) => column.primaryKey())
      .addColumn("tenant", "text", (column) => column.notNull().references("tenants.name"))
      .addColumn("routine", "text", (column) => column.notNull())
      .addColumn("key", "text", (column) => column.notNull())
      .addColumn("cause", "text", (column) => column.notNull())
      .addColumn("outcome", "text", (column) => column.notNull())
      .addColumn("tick_at", "bigint")
      .addColumn("job_id", "text")
      .addColumn("input", "text")
      .addColumn("detail", "text")
      .addColumn("created_at", "bigint", (column) => column.notNull())
      .addColumn("updated_at", "bigint", (column) => column.notNull())
      .addUniqueConstraint("routine_fires_once", ["tenant", "routine", "key"])
      .addCheckConstraint(
        "routine_fires_cause_check",
        sql<boolean>`cause in ('schedule', 'catch_up', 'job_ended', 'webhook', 'manual')`,
      )
      .addCheckConstraint(
        "routine_fires_outcome_check",
        sql<boolean>`outcome in ('started', 'queued', 'skipped', 'missed', 'failed')`,
      )
      .execute();
    await db.schema
      .createIndex("routine_fires_by_routine")
      .on("routine_fires")
      .columns(["tenant", "routine", "created_at"])
      .execute();
    await db.schema
      .createIndex("routine_fires_queued")
      .on("routine_fires")
      .columns(["tenant", "routine", "outcome"])
      .execute();
  },
};
