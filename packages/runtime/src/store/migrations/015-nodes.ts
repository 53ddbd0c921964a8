// Migration 15: nodes and task queues. A job now records where it may run: `pool` (null for its
// plugin's own pool, else the shared pool its tenant mapped the plugin to), `labels` (the node
// labels it requires, sorted and comma-joined, '' for none) and `needs_format` (the oldest job
// format a node must understand to run it). `progress_seq` is the last event of the job's
// history at its latest claim: the next claim counts an attempt only when nothing but claims
// was recorded after it, so only crashes with the same step in flight lead to the dead letter.
// `workers` becomes the node registry: each node's oz0 version, job format, labels and pool, and
// when it stopped (a drained node's row stays, marked gone, as a killed node's does by its
// lapsed heartbeat). `plugin_pools` maps a tenant's plugin to a shared pool with a node selector.
import type { Migration } from "./types.js";

export const nodes: Migration = {
  version: 15,
  name: "nodes",
  async up(db) {
    await db.schema.alterTable("jobs").addColumn("pool", "text").execute();
    await db.schema
      .alterTable("jobs")
      .addColumn("labels", "text", (column) => column.notNull().defaultTo(""))
      .execute();
    await db.schema
      .alterTable("jobs")
      .addColumn("needs_format", "integer", (column) => column.notNull().defaultTo(1))
      .execute();
    await db.schema
      .alterTable("jobs")
      .addColumn("progress_seq", "integer", (column) => column.notNull().defaultTo(0))
      .execute();
    await db.schema
      .createIndex("jobs_runnable_by_pool")
      .on("jobs")
      .columns(["status", "pool", "labels", "created_at"])
      .execute();
    await db.schema
      .alterTable("workers")
      .addColumn("version", "text", (column) => column.notNull().defaultTo(""))
      .execute();
    await db.schema
      .alterTable("workers")
      .addColumn("format", "integer", (column) => column.notNull().defaultTo(1))
      .execute();
    await db.schema
      .alterTable("workers")
      .addColumn("labels", "text", (column) => column.notNull().defaultTo(""))
      .execute();
    await db.schema.alterTable("workers").addColumn("pool", "text").execute();
    await db.schema.alterTable("workers").addColumn("tenant", "text").execute();
    await db.schema.alterTable("workers").addColumn("stopped_at", "bigint").execute();
    await db.schema
      .createTable("plugin_pools")
      .addColumn("tenant", "text", (column) => column.notNull().references("tenants.name"))
      .addColumn("plugin", "text", (column) => column.notNull())
      .addColumn("pool", "text", (column) => column.notNull())
      .addColumn("labels", "text", (column) => column.notNull().defaultTo(""))
      .addColumn("created_by", "text", (column) => column.notNull())
      .addColumn("created_at", "bigint", (column) => column.notNull())
      .addPrimaryKeyConstraint("plugin_pools_pkey", ["tenant", "plugin"])
      .execute();
  },
};
