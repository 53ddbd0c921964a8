// Migration 9: workers. A running `oz0 worker` keeps a row here with a heartbeat, so a CLI can
// tell whether a live worker will take the job it queues or it must run the job itself. On
// PostgreSQL a trigger also sends a NOTIFY on `oz0_jobs` whenever a job becomes queued (started,
// woken, released), so idle workers on any node wake at once instead of polling.
import { sql } from "kysely";
import type { Migration } from "./types.js";

export const workers: Migration = {
  version: 9,
  name: "workers",
  async up(db, { engine }) {
    await db.schema
      .createTable("workers")
      .addColumn("id", "text", (column) => column.primaryKey())
      .addColumn("host", "text", (column) => column.notNull())
      .addColumn("pid", "integer", (column) => column.notNull())
      .addColumn("concurrency", "integer", (column) => column.notNull())
      .addColumn("started_at", "bigint", (column) => column.notNull())
      .addColumn("expires_at", "bigint", (column) => column.notNull())
      .execute();
    if (engine !== "postgres") return;
    await sql`
      create function oz0_notify_job_queued() returns trigger language plpgsql as $$
      begin
        perform pg_notify('oz0_jobs', new.queue);
        return null;
      end
      $$`.execute(db);
    await sql`
      create trigger jobs_notify_queued after insert or update of status on jobs
      for each row when (new.status = 'queued') execute function oz0_notify_job_queued()`.execute(db);
  },
};
