// Tenants as the catalog sees them. `default` exists from the first migration; any other
// tenant comes into being with its first install, and every other command refuses a tenant
// that does not exist, so a mistyped --tenant never shows an empty catalog as if it were real.

import { nameProblem, Oz0Error } from "@oz0/sdk";
import { closestWord } from "@oz0/sdk/internal";
import { type Kysely, type RawBuilder, sql } from "kysely";
import type { Database, StoreEngine } from "../store/index.js";

/** Tenant names follow the plugin-name rule: they go into URLs (`/t/<tenant>/…`) and queue names. */
export function checkTenantName(tenant: string): void {
  const problem = nameProblem("plugin", tenant);
  if (problem === undefined) return;
  throw new Oz0Error("INVALID_NAME", `${problem.replace("plugin name", "tenant name")}.`, {
    data: { kind: "tenant", name: tenant },
  });
}

/** Creates `tenant` unless it exists; another process creating it at the same time is fine. */
export async function ensureTenant(
  db: Kysely<Database>,
  tenant: string,
  clockSql: RawBuilder<number>,
): Promise<void> {
  await db
    .insertInto("tenants")
    .values({ name: tenant, created_at: clockSql })
    .onConflict((conflict) => conflict.column("name").doNothing())
    .execute();
}

/** Refuses a tenant that does not exist, suggesting the closest one that does. */
export async function requireTenant(db: Kysely<Database>, tenant: string): Promise<void> {
  checkTenantName(tenant);
  const found = await db.selectFrom("tenants").select("name").where("name", "=", tenant).executeTakeFirst();
  if (found !== undefined) return;
  const names = await db.selectFrom("tenants").select("name").execute();
  const guess = closestWord(
    tenant,
    names.map((row) => row.name),
  );
  const hint = guess === undefined ? "" : ` Did you mean ${guess}?`;
  throw new Oz0Error(
    "NOT_FOUND",
    `tenant ${tenant} does not exist.${hint} Installing a plugin into a tenant creates it: oz0 plugin install <dir> --tenant ${tenant}.`,
    { data: { kind: "tenant", name: tenant } },
  );
}

/**
 * Serialises changes to one tenant's plugins. SQLite's write transactions already exclude each
 * other; on PostgreSQL the tenant's row is locked, so two installs checking the same names
 * cannot both pass.
 */
export async function lockTenant(db: Kysely<Database>, engine: StoreEngine, tenant: string): Promise<void> {
  if (engine !== "postgres") return;
  await sql`select name from tenants where name = ${tenant} for update`.execute(db);
}
