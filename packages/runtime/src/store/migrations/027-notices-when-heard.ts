// Migration 27: PostgreSQL's notifications go out only when a process is there to hear them.
// PostgreSQL takes one lock for the whole database at the commit of any transaction that sent a
// notification, and holds it until that commit is flushed, so such commits are flushed one after
// another where others are flushed together: a notification nobody listens for costs every job
// at once a turn. A job's live feed (its streamed text, the word that its run wrote) goes to the
// processes that follow it, each of which keeps a row in `job_followers` while it does; the
// word that a job is queued, to the nodes that take jobs, each of which keeps a row in `workers`
// with a heartbeat. A node that starts listens before it registers and claims after it has, so
// a job it did not hear of is one its first claim sees, or one its next poll does.
import { sql } from "kysely";
import type { Migration } from "./types.js";

export const noticesWhenHeard: Migration = {
  version: 27,
  name: "notices-when-heard",
  async up(db, { engine }) {
    await db.schema
      .createTable("job_followers")
      .addColumn("job_id", "text", (column) => column.notNull().references("jobs.id").onDelete("cascade"))
      .addColumn("follower", "text", (column) => column.notNull())
      .addColumn("created_at", "bigint", (column) => column.notNull())
      .addPrimaryKeyConstraint("job_followers_pk", ["job_id", "follower"])
      .execute();
    if (engine !== "postgres") return;
    await sql`
      create or replace function oz0_notify_job_queued() returns trigger language plpgsql as $$
      begin
        if exists (
          select 1 from workers
          where stopped_at is null and expires_at > floor(extract(epoch from statement_timestamp()) * 1000)
        ) then
          perform pg_notify('oz0_jobs', new.queue);
        end if;
        return null;
      end
      $$`.execute(db);
  },
};
