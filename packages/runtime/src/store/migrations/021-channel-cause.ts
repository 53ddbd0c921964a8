// Migration 21: a routine's fire may have cause `channel`, a message a channel received (before,
// the check of migration 13 allowed no such cause, and a channel's fire was recorded as a
// webhook's). PostgreSQL swaps the check; SQLite cannot alter a check, so the table is built
// again with the new one, its rows and indexes as they were.
import { sql } from "kysely";
import type { Migration } from "./types.js";

// Frozen copies of the lists in schema.ts as this migration ships them.
const FIRE_CAUSES = ["schedule", "catch_up", "job_ended", "webhook", "manual", "channel"];
const FIRE_OUTCOMES = ["started", "queued", "skipped", "missed", "failed"];

export const channelCause: Migration = {
  version: 21,
  name: "channel-cause",
  async up(db, { engine }) {
    const causes = sql.join(FIRE_CAUSES.map((value) => sql.lit(value)));
    if (engine === "postgres") {
      await sql`alter table routine_fires drop constraint routine_fires_cause_check`.execute(db);
      await sql`alter table routine_fires add constraint routine_fires_cause_check check (cause in (${causes}))`.execute(
        db,
      );
      return;
    }
    const outcomes = sql.join(FIRE_OUTCOMES.map((value) => sql.lit(value)));
    const columns = sql.raw(
      "id, tenant, routine, key, cause, outcome, tick_at, job_id, input, detail, created_at, updated_at",
    );
    await sql`create table routine_fires_next (
      id text primary key,
      tenant text not null references tenants (name),
      routine text not null,
      key text not null,
      cause text not null,
      outcome text not null,
      tick_at bigint,
      job_id text,
      input text,
      detail text,
      created_at bigint not null,
      updated_at bigint not null,
      constraint routine_fires_once unique (tenant, routine, key),
      constraint routine_fires_cause_check check (cause in (${causes})),
      constraint routine_fires_outcome_check check (outcome in (${outcomes}))
    )`.execute(db);
    await sql`insert into routine_fires_next (${columns}) select ${columns} from routine_fires`.execute(db);
    await sql`drop table routine_fires`.execute(db);
    await sql`alter table routine_fires_next rename to routine_fires`.execute(db);
    await sql`create index routine_fires_by_routine on routine_fires (tenant, routine, created_at)`.execute(
      db,
    );
    await sql`create index routine_fires_queued on routine_fires (tenant, routine, outcome)`.execute(db);
  },
};
