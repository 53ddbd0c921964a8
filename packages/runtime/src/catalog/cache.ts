// What the catalog resolved for a tenant, kept while the tenant's catalog version stands. Every
// change of its plugins, parts or grants moves the version on (migration 25's triggers, in the
// statement that makes the change, from whatever process), and every look-up reads the version
// first: one statement where the look-up itself was two or three, and no answer outlives the
// catalog it came from. A version read before a change and data read after it keeps the newer
// data under the older version, which the next look-up drops; the other way round cannot happen.
import { CompiledQuery, type Kysely } from "kysely";
import type { Database } from "../store/index.js";
import { checkTenantName, requireTenant } from "./tenants.js";

interface Entry {
  readonly version: number;
  readonly answers: Map<string, Promise<unknown>>;
}

/** Tenants whose answers are kept; a process serving more drops the least recently used. */
const TENANTS_KEPT = 256;

export class CatalogCache {
  readonly #db: Kysely<Database>;
  readonly #versionSql: string;
  readonly #tenants = new Map<string, Entry>();

  constructor(db: Kysely<Database>) {
    this.#db = db;
    this.#versionSql = db
      .selectFrom("tenants")
      .select("catalog_version")
      .where("name", "=", "")
      .compile().sql;
  }

  /**
   * `load()`'s answer for `key` in `tenant`, kept until the tenant's catalog changes; a tenant
   * that does not exist is refused as `requireTenant` refuses it. A failed load is not kept.
   */
  async get<T>(tenant: string, key: string, load: () => Promise<T>): Promise<T> {
    const entry = await this.#entry(tenant);
    const kept = entry.answers.get(key) as Promise<T> | undefined;
    if (kept !== undefined) return kept;
    const loading = load();
    entry.answers.set(key, loading);
    loading.catch(() => {
      if (entry.answers.get(key) === loading) entry.answers.delete(key);
    });
    return loading;
  }

  async #entry(tenant: string): Promise<Entry> {
    checkTenantName(tenant);
    const { rows } = await this.#db.executeQuery<{ catalog_version: number }>(
      CompiledQuery.raw(this.#versionSql, [tenant]),
    );
    const row = rows[0];
    if (row === undefined) {
      this.#tenants.delete(tenant);
      // Refused as a missing tenant is, unless it was made since.
      await requireTenant(this.#db, tenant);
      return this.#entry(tenant);
    }
    const version = Number(row.catalog_version);
    const kept = this.#tenants.get(tenant);
    this.#tenants.delete(tenant);
    const entry = kept?.version === version ? kept : { version, answers: new Map() };
    this.#tenants.set(tenant, entry);
    if (this.#tenants.size > TENANTS_KEPT) {
      const oldest = this.#tenants.keys().next().value;
      if (oldest !== undefined) this.#tenants.delete(oldest);
    }
    return entry;
  }
}
