// Migration 22: homes for what hooks record outside a job's own run. `job_notes` holds what the
// post hooks of a person's chat message or a webhook recorded while a worker held the job: a
// running job's history is its worker's to write, in sequence, so the worker moves them into it
// with its next write (`jobs.notes_pending` counts them, and every write of the worker reads it).
// `channel_messages.hook_events` keeps what a message's sensor hooks recorded until the message
// becomes a job or a chat turn, whose history then takes them.
import type { Migration } from "./types.js";

export const hookRecords: Migration = {
  version: 22,
  name: "hook-records",
  async up(db, { engine }) {
    await db.schema
      .createTable("job_notes")
      .addColumn("seq", "integer", (column) =>
        engine === "postgres" ? column.primaryKey().generatedAlwaysAsIdentity() : column.primaryKey(),
      )
      .addColumn("job_id", "text", (column) => column.notNull().references("jobs.id").onDelete("cascade"))
      .addColumn("events", "text", (column) => column.notNull())
      .addColumn("created_at", "bigint", (column) => column.notNull())
      .execute();
    await db.schema.createIndex("job_notes_by_job").on("job_notes").columns(["job_id", "seq"]).execute();
    await db.schema
      .alterTable("jobs")
      .addColumn("notes_pending", "integer", (column) => column.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable("channel_messages").addColumn("hook_events", "text").execute();
  },
};
