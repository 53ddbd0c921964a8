// Migration 4: what tenant governance keeps beside the tables of migration 1. A tenant's
// governance version moves on with every change of its tool policy or kill switches, so a
// worker reads one number per step and compiles the rules again only when it moved. An
// approval is bound to one call of one job (its call, agent and a hash of everything it
// approves), and records when its decision joined the job's history and when it was used.
import type { Migration } from "./types.js";

export const governance: Migration = {
  version: 4,
  name: "governance",
  async up(db) {
    await db.schema
      .alterTable("tenants")
      .addColumn("governance_version", "integer", (column) => column.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable("kill_switches").addColumn("by", "text").execute();
    await db.schema.alterTable("approvals").addColumn("call_id", "text").execute();
    await db.schema.alterTable("approvals").addColumn("agent", "text").execute();
    await db.schema.alterTable("approvals").addColumn("binding", "text").execute();
    await db.schema
      .alterTable("approvals")
      .addColumn("recorded", "integer", (column) => column.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable("approvals").addColumn("used_at", "bigint").execute();
    // One approval per call: a call asks once, however often its step runs again.
    await db.schema
      .createIndex("approvals_by_call")
      .on("approvals")
      .columns(["job_id", "call_id"])
      .unique()
      .execute();
  },
};
