// Migration 29: a tenant's model-call totals per day, besides those per hour, so that a budget's
// read of a month sums a row per agent and model for each day that is over instead of every
// hour's (and, on PostgreSQL, every slot's): the read grew with the hours of the period, tens
// of milliseconds a model call late in a month for a tenant of a few agents. A day's row is made
// once, by the first read that finds the day over (`usage/totals.ts`), from its hours' rows,
// which stay; `usage_rollups` says up to which day a tenant's days are made.
import type { Migration } from "./types.js";

export const usageDays: Migration = {
  version: 29,
  name: "usage-days",
  async up(db) {
    await db.schema
      .createTable("usage_days")
      .addColumn("tenant", "text", (column) => column.notNull().references("tenants.name"))
      .addColumn("day", "bigint", (column) => column.notNull())
      .addColumn("agent", "text", (column) => column.notNull())
      .addColumn("model", "text", (column) => column.notNull())
      .addColumn("input_tokens", "bigint", (column) => column.notNull())
      .addColumn("output_tokens", "bigint", (column) => column.notNull())
      .addColumn("model_calls", "bigint", (column) => column.notNull())
      .addColumn("cost_usd", "double precision", (column) => column.notNull())
      .addPrimaryKeyConstraint("usage_days_pk", ["tenant", "day", "agent", "model"])
      .execute();
    await db.schema
      .createTable("usage_rollups")
      .addColumn("tenant", "text", (column) => column.primaryKey().references("tenants.name"))
      .addColumn("through", "bigint", (column) => column.notNull())
      .execute();
  },
};
