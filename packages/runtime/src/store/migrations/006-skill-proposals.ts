// Migration 6: skill proposals. An agent with skills.propose records a proposed skill with
// oz.propose_skill; a person reviews it (`oz0 skill proposals`), and approving it opens the
// pull request through the agent's apply function. The row keeps the propose settings the
// agent had when it proposed, so a later change of the agent does not change the proposal.
import { sql } from "kysely";
import type { Migration } from "./types.js";

export const skillProposals: Migration = {
  version: 6,
  name: "skill-proposals",
  async up(db) {
    await db.schema
      .createTable("skill_proposals")
      .addColumn("id", "text", (column) => column.primaryKey())
      .addColumn("tenant", "text", (column) => column.notNull().references("tenants.name"))
      .addColumn("job_id", "text", (column) => column.notNull())
      .addColumn("agent", "text", (column) => column.notNull())
      .addColumn("plugin", "text", (column) => column.notNull())
      .addColumn("into_plugin", "text", (column) => column.notNull())
      .addColumn("skill", "text", (column) => column.notNull())
      .addColumn("description", "text", (column) => column.notNull())
      .addColumn("body", "text", (column) => column.notNull())
      .addColumn("title", "text", (column) => column.notNull())
      .addColumn("why", "text")
      .addColumn("settings", "text", (column) => column.notNull())
      .addColumn("status", "text", (column) => column.notNull().defaultTo("pending"))
      .addColumn("decided_by", "text")
      .addColumn("reason", "text")
      .addColumn("result", "text")
      .addColumn("created_at", "bigint", (column) => column.notNull())
      .addColumn("decided_at", "bigint")
      .addCheckConstraint(
        "skill_proposals_status_check",
        sql<boolean>`status in ('pending', 'approved', 'rejected')`,
      )
      .execute();
    await db.schema
      .createIndex("skill_proposals_by_status")
      .on("skill_proposals")
      .columns(["tenant", "status", "created_at"])
      .execute();
  },
};
