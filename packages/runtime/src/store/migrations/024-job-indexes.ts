// Migration 24: the jobs table keeps only indexes a query reads. Every index on a job's status
// is written again at each claim and each end (a delete and an insert in its b-tree, and its
// pages in that commit), so one no query reads costs every job. `jobs_by_queue` has served no
// query since claims go by pool (migration 15's `jobs_runnable_by_pool`); `jobs_by_parent`
// now holds child jobs only, since the one query it serves asks for a parent's children
// (`parent_id = ?`, which both engines know rules out null) and most jobs have no parent.
import type { Migration } from "./types.js";

export const jobIndexes: Migration = {
  version: 24,
  name: "job-indexes",
  async up(db) {
    await db.schema.dropIndex("jobs_by_queue").execute();
    await db.schema.dropIndex("jobs_by_parent").execute();
    await db.schema
      .createIndex("jobs_by_parent")
      .on("jobs")
      .column("parent_id")
      .where("parent_id", "is not", null)
      .execute();
  },
};
