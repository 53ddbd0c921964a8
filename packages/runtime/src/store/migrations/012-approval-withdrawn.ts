// Migration 12: an approval can be withdrawn. A call held for a person's approval that nobody
// waits for any more (an `oz0 mcp serve` client stopped waiting) is stored as withdrawn,
// instead of staying pending with only its job's end to tell it apart. PostgreSQL swaps the
// status check; SQLite cannot alter a check, so the table is built again with the new one,
// its rows and indexes as they were.
import { sql } from "kysely";
import type { Migration } from "./types.js";

// A frozen copy of the list in schema.ts as this migration ships it.
const APPROVAL_STATUSES = ["pending", "approved", "denied", "withdrawn"];

export const approvalWithdrawn: Migration = {
  version: 12,
  name: "approval-withdrawn",
  async up(db, { engine }) {
    const allowed = sql.join(APPROVAL_STATUSES.map((value) => sql.lit(value)));
    if (engine === "postgres") {
      await sql`alter table approvals drop constraint approvals_status_check`.execute(db);
      await sql`alter table approvals add constraint approvals_status_check check (status in (${allowed}))`.execute(
        db,
      );
      return;
    }
    const columns = sql.raw(
      "id, tenant, job_id, address, request, status, reason, decided_by, requested_at, decided_at, call_id, agent, binding, recorded, used_at",
    );
    await sql`create table approvals_next (
      id text primary key,
      tenant text not null references tenants (name),
      job_id text not null references jobs (id) on delete cascade,
      address text not null,
      request text not null,
      status text not null,
      reason text,
      decided_by text,
      requested_at bigint not null,
      decided_at bigint,
      call_id text,
      agent text,
      binding text,
      recorded integer default 0 not null,
      used_at bigint,
      constraint approvals_status_check check (status in (${allowed}))
    )`.execute(db);
    await sql`insert into approvals_next (${columns}) select ${columns} from approvals`.execute(db);
    await sql`drop table approvals`.execute(db);
    await sql`alter table approvals_next rename to approvals`.execute(db);
    await sql`create index approvals_by_status on approvals (tenant, status, requested_at)`.execute(db);
    await sql`create index approvals_by_job on approvals (job_id)`.execute(db);
    await sql`create unique index approvals_by_call on approvals (job_id, call_id)`.execute(db);
  },
};
