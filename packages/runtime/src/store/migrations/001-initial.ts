// Migration 1: the tables the catalog, the job engine and tenant governance start from.
// Portable DDL only (text, integer, bigint; JSON as text), so both engines get one schema.
import { type Expression, sql } from "kysely";
import type { Migration } from "./types.js";

// Frozen copies of the lists in schema.ts as they were when this migration shipped: a later
// change to those lists needs a migration of its own, and a test checks the two agree.
const PART_KINDS = ["agent", "flow", "tool", "function", "skill"];
const JOB_KINDS = ["agent", "flow"];
const JOB_STATUSES = ["queued", "running", "waiting", "succeeded", "failed", "cancelled", "dead"];
const APPROVAL_STATUSES = ["pending", "approved", "denied"];
const POLICY_ACTIONS = ["allow", "ask", "deny"];
const SWITCH_KINDS = ["agent", "tool"];

export const initial: Migration = {
  version: 1,
  name: "initial",
  async up(db, { clockSql }) {
    await db.schema
      .createTable("tenants")
      .addColumn("name", "text", (column) => column.primaryKey())
      .addColumn("created_at", "bigint", (column) => column.notNull())
      .execute();
    await db.insertInto("tenants").values({ name: "default", created_at: clockSql }).execute();

    await db.schema
      .createTable("plugins")
      .addColumn("tenant", "text", (column) => column.notNull().references("tenants.name"))
      .addColumn("name", "text", (column) => column.notNull())
      .addColumn("version", "text", (column) => column.notNull())
      .addColumn("dir", "text", (column) => column.notNull())
      .addColumn("manifest", "text", (column) => column.notNull())
      .addColumn("installed_at", "bigint", (column) => column.notNull())
      .addColumn("forced_reason", "text")
      .addPrimaryKeyConstraint("plugins_pk", ["tenant", "name"])
      .execute();

    // Unique per plugin only: the runtime must be able to see a clash within a tenant.
    await db.schema
      .createTable("parts")
      .addColumn("tenant", "text", (column) => column.notNull())
      .addColumn("kind", "text", (column) => column.notNull())
      .addColumn("name", "text", (column) => column.notNull())
      .addColumn("plugin", "text", (column) => column.notNull())
      .addColumn("definition", "text", (column) => column.notNull())
      .addPrimaryKeyConstraint("parts_pk", ["tenant", "plugin", "kind", "name"])
      .addForeignKeyConstraint("parts_plugin_fk", ["tenant", "plugin"], "plugins", ["tenant", "name"], (fk) =>
        fk.onDelete("cascade"),
      )
      .addCheckConstraint("parts_kind_check", oneOf("kind", PART_KINDS))
      .execute();
    await db.schema.createIndex("parts_by_name").on("parts").columns(["tenant", "kind", "name"]).execute();

    // parent_id has no foreign key so retention can remove a job tree in any order.
    await db.schema
      .createTable("jobs")
      .addColumn("id", "text", (column) => column.primaryKey())
      .addColumn("tenant", "text", (column) => column.notNull().references("tenants.name"))
      .addColumn("name", "text", (column) => column.notNull())
      .addColumn("plugin", "text", (column) => column.notNull())
      .addColumn("kind", "text", (column) => column.notNull())
      .addColumn("queue", "text", (column) => column.notNull())
      .addColumn("status", "text", (column) => column.notNull())
      .addColumn("input", "text", (column) => column.notNull())
      .addColumn("output", "text")
      .addColumn("failure", "text")
      .addColumn("parent_id", "text")
      .addColumn("depth", "integer", (column) => column.notNull().defaultTo(0))
      .addColumn("created_at", "bigint", (column) => column.notNull())
      .addColumn("updated_at", "bigint", (column) => column.notNull())
      .addColumn("lease_owner", "text")
      .addColumn("lease_expires_at", "bigint")
      .addColumn("attempts", "integer", (column) => column.notNull().defaultTo(0))
      .addColumn("tags", "text", (column) => column.notNull().defaultTo("[]"))
      .addCheckConstraint("jobs_kind_check", oneOf("kind", JOB_KINDS))
      .addCheckConstraint("jobs_status_check", oneOf("status", JOB_STATUSES))
      .execute();
    await db.schema
      .createIndex("jobs_by_status")
      .on("jobs")
      .columns(["tenant", "status", "created_at"])
      .execute();
    await db.schema.createIndex("jobs_by_name").on("jobs").columns(["tenant", "name", "status"]).execute();
    await db.schema.createIndex("jobs_by_queue").on("jobs").columns(["queue", "status"]).execute();
    await db.schema.createIndex("jobs_by_parent").on("jobs").column("parent_id").execute();

    await db.schema
      .createTable("job_events")
      .addColumn("job_id", "text", (column) => column.notNull().references("jobs.id").onDelete("cascade"))
      .addColumn("seq", "integer", (column) => column.notNull())
      .addColumn("kind", "text", (column) => column.notNull())
      .addColumn("data", "text", (column) => column.notNull())
      .addColumn("at", "bigint", (column) => column.notNull())
      .addPrimaryKeyConstraint("job_events_pk", ["job_id", "seq"])
      .execute();

    await db.schema
      .createTable("approvals")
      .addColumn("id", "text", (column) => column.primaryKey())
      .addColumn("tenant", "text", (column) => column.notNull().references("tenants.name"))
      .addColumn("job_id", "text", (column) => column.notNull().references("jobs.id").onDelete("cascade"))
      .addColumn("address", "text", (column) => column.notNull())
      .addColumn("request", "text", (column) => column.notNull())
      .addColumn("status", "text", (column) => column.notNull())
      .addColumn("reason", "text")
      .addColumn("decided_by", "text")
      .addColumn("requested_at", "bigint", (column) => column.notNull())
      .addColumn("decided_at", "bigint")
      .addCheckConstraint("approvals_status_check", oneOf("status", APPROVAL_STATUSES))
      .execute();
    await db.schema
      .createIndex("approvals_by_status")
      .on("approvals")
      .columns(["tenant", "status", "requested_at"])
      .execute();
    await db.schema.createIndex("approvals_by_job").on("approvals").column("job_id").execute();

    await db.schema
      .createTable("policies")
      .addColumn("tenant", "text", (column) => column.notNull().references("tenants.name"))
      .addColumn("pattern", "text", (column) => column.notNull())
      .addColumn("action", "text", (column) => column.notNull())
      .addColumn("created_at", "bigint", (column) => column.notNull())
      .addPrimaryKeyConstraint("policies_pk", ["tenant", "pattern"])
      .addCheckConstraint("policies_action_check", oneOf("action", POLICY_ACTIONS))
      .execute();

    await db.schema
      .createTable("kill_switches")
      .addColumn("tenant", "text", (column) => column.notNull().references("tenants.name"))
      .addColumn("kind", "text", (column) => column.notNull())
      .addColumn("address", "text", (column) => column.notNull())
      .addColumn("created_at", "bigint", (column) => column.notNull())
      .addPrimaryKeyConstraint("kill_switches_pk", ["tenant", "kind", "address"])
      .addCheckConstraint("kill_switches_kind_check", oneOf("kind", SWITCH_KINDS))
      .execute();

    await db.schema
      .createTable("inventory")
      .addColumn("tenant", "text", (column) => column.notNull().references("tenants.name"))
      .addColumn("kind", "text", (column) => column.notNull())
      .addColumn("address", "text", (column) => column.notNull())
      .addColumn("purpose", "text", (column) => column.notNull())
      .addColumn("owner", "text")
      .addColumn("updated_at", "bigint", (column) => column.notNull())
      .addPrimaryKeyConstraint("inventory_pk", ["tenant", "kind", "address"])
      .addCheckConstraint("inventory_kind_check", oneOf("kind", SWITCH_KINDS))
      .execute();

    await db.schema
      .createTable("settings")
      .addColumn("tenant", "text", (column) => column.notNull().references("tenants.name"))
      .addColumn("key", "text", (column) => column.notNull())
      .addColumn("value", "text", (column) => column.notNull())
      .addColumn("updated_at", "bigint", (column) => column.notNull())
      .addPrimaryKeyConstraint("settings_pk", ["tenant", "key"])
      .execute();
  },
};

/** A check that a text column holds one of a fixed list; DDL takes no parameters, so literals. */
function oneOf(column: string, values: readonly string[]): Expression<boolean> {
  return sql<boolean>`${sql.ref(column)} in (${sql.join(values.map((value) => sql.lit(value)))})`;
}
