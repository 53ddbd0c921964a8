// Migration 16: console sessions. A person signed in to the web console with a password (or an
// API key) holds a session: a public id for lookup and a SHA-256 hash of its secret, never the
// secret, the tenant and the user or key it stands for, and when it ends. Its caller is worked
// out afresh on every request from the membership or key, so a changed role or a revoked key
// takes effect at once.
import type { Migration } from "./types.js";

export const sessions: Migration = {
  version: 16,
  name: "sessions",
  async up(db) {
    await db.schema
      .createTable("sessions")
      .addColumn("id", "text", (column) => column.primaryKey())
      .addColumn("tenant", "text", (column) => column.notNull())
      // `user:<user id>` or `key:<key id>`: what the session signs in as.
      .addColumn("subject", "text", (column) => column.notNull())
      .addColumn("secret_hash", "text", (column) => column.notNull())
      .addColumn("created_at", "bigint", (column) => column.notNull())
      .addColumn("expires_at", "bigint", (column) => column.notNull())
      .addColumn("ended_at", "bigint")
      .execute();
    await db.schema.createIndex("sessions_by_expiry").on("sessions").column("expires_at").execute();
  },
};
