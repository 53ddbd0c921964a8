// Migration 11: who may do what. Users (a name and an argon2id hash of the password, never the
// password), their memberships of tenants (a role and the agents in scope), API keys (a public
// id for lookup and a SHA-256 hash of the secret, never the secret), the audit log of every
// change, and the counters that rate-limit failed sign-ins, kept in the store so every process
// sharing it sees the same counts.
import { sql } from "kysely";
import type { Migration } from "./types.js";

export const identity: Migration = {
  version: 11,
  name: "identity",
  async up(db, { engine }) {
    await db.schema
      .createTable("users")
      .addColumn("id", "text", (column) => column.primaryKey())
      .addColumn("name", "text", (column) => column.notNull().unique())
      .addColumn("password_hash", "text", (column) => column.notNull())
      .addColumn("created_at", "bigint", (column) => column.notNull())
      .addColumn("created_by", "text", (column) => column.notNull())
      .execute();
    await db.schema
      .createTable("memberships")
      .addColumn("tenant", "text", (column) => column.notNull())
      .addColumn("user_id", "text", (column) => column.notNull())
      .addColumn("role", "text", (column) => column.notNull())
      .addColumn("agents", "text", (column) => column.notNull())
      .addColumn("created_at", "bigint", (column) => column.notNull())
      .addColumn("updated_at", "bigint", (column) => column.notNull())
      .addColumn("updated_by", "text", (column) => column.notNull())
      .addPrimaryKeyConstraint("memberships_pk", ["tenant", "user_id"])
      .execute();
    await db.schema.createIndex("memberships_by_user").on("memberships").column("user_id").execute();
    await db.schema
      .createTable("api_keys")
      .addColumn("id", "text", (column) => column.primaryKey())
      .addColumn("tenant", "text", (column) => column.notNull())
      .addColumn("name", "text", (column) => column.notNull())
      .addColumn("role", "text", (column) => column.notNull())
      .addColumn("agents", "text", (column) => column.notNull())
      .addColumn("secret_hash", "text", (column) => column.notNull())
      .addColumn("created_at", "bigint", (column) => column.notNull())
      .addColumn("created_by", "text", (column) => column.notNull())
      .addColumn("expires_at", "bigint")
      .addColumn("revoked_at", "bigint")
      .addColumn("revoked_by", "text")
      .execute();
    // A name picks out one live key of a tenant; a revoked key's name may be used again.
    await db.schema
      .createIndex("api_keys_live_name")
      .on("api_keys")
      .columns(["tenant", "name"])
      .unique()
      .where(sql.ref("revoked_at"), "is", null)
      .execute();
    await db.schema
      .createTable("audit_log")
      .addColumn("seq", "integer", (column) =>
        engine === "postgres" ? column.primaryKey().generatedAlwaysAsIdentity() : column.primaryKey(),
      )
      // Null for a failed sign-in that named no tenant oz0 knows (an unknown key).
      .addColumn("tenant", "text")
      .addColumn("at", "bigint", (column) => column.notNull())
      .addColumn("actor", "text", (column) => column.notNull())
      .addColumn("role", "text")
      .addColumn("action", "text", (column) => column.notNull())
      .addColumn("target", "text", (column) => column.notNull())
      .addColumn("detail", "text", (column) => column.notNull())
      .execute();
    await db.schema.createIndex("audit_log_by_tenant").on("audit_log").columns(["tenant", "seq"]).execute();
    await db.schema
      .createTable("auth_throttle")
      .addColumn("bucket", "text", (column) => column.primaryKey())
      .addColumn("window_start", "bigint", (column) => column.notNull())
      .addColumn("failures", "integer", (column) => column.notNull())
      .execute();
    await db.schema
      .createIndex("auth_throttle_by_window")
      .on("auth_throttle")
      .column("window_start")
      .execute();
  },
};
