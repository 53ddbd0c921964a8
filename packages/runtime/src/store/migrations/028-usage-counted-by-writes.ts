// Migration 28: on SQLite the job store adds each model_call to its tenant's totals itself, in
// the transaction that inserts the event, and the table of events has no trigger. SQLite runs
// an `insert … select` into a table with a trigger through a table of its own for the selected
// rows (a trigger could change what the select reads), and every step's write is such an
// insert (its owner check is its select): that table and the trigger's reads of the event's
// JSON cost a step's two writes more than their inserts. PostgreSQL keeps migration 26's
// trigger, where neither costs a step anything like it.
import { sql } from "kysely";
import type { Migration } from "./types.js";

export const usageCountedByWrites: Migration = {
  version: 28,
  name: "usage-counted-by-writes",
  async up(db, { engine }) {
    if (engine === "sqlite") await sql`drop trigger usage_totals_on_model_call`.execute(db);
  },
};
