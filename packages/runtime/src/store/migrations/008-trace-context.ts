// Migration 8: the trace context a job's spans continue (a W3C traceparent), kept with the job
// so a run in any process, a resume after a crash, and a child job belong to one trace.
import type { Migration } from "./types.js";

export const traceContext: Migration = {
  version: 8,
  name: "trace-context",
  async up(db) {
    await db.schema.alterTable("jobs").addColumn("traceparent", "text").execute();
  },
};
