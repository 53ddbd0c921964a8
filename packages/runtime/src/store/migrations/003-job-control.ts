// Migration 3: what the job engine keeps on a job row besides its status: whether it is a
// chat, what a waiting job waits for, and who asked to cancel it, so the worker holding the
// job sees the request at its next step.
import { sql } from "kysely";
import type { Migration } from "./types.js";

// Frozen copy of JOB_MODES in schema.ts as it was when this migration shipped.
const JOB_MODES = ["run", "chat"];

export const jobControl: Migration = {
  version: 3,
  name: "job-control",
  async up(db) {
    await db.schema
      .alterTable("jobs")
      .addColumn("mode", "text", (column) =>
        column
          .notNull()
          .defaultTo("run")
          .check(sql<boolean>`mode in (${sql.join(JOB_MODES.map((mode) => sql.lit(mode)))})`),
      )
      .execute();
    await db.schema.alterTable("jobs").addColumn("waiting_for", "text").execute();
    await db.schema.alterTable("jobs").addColumn("cancel_requested_by", "text").execute();
    // Workers look for queued jobs and for running ones whose lease ran out.
    await db.schema.createIndex("jobs_by_lease").on("jobs").columns(["status", "lease_expires_at"]).execute();
  },
};
