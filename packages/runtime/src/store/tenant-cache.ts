// What was read of a tenant's catalog and settings, kept while the tenant's catalog version
// stands. Every change of its plugins, parts, grants or settings moves the version on (migration
// 20's triggers, in the statement that makes the change, from whatever process), and every
// look-up reads the version first: one statement where the look-up itself was one to three, and
// no answer outlives the rows it came from. A version read before a change and data read after it keeps the newer
// data under the older version, which the next look-up drops; the other way round cannot happen.
import { CompiledQuery, type Kysely } from "kysely";
import type { Database } from "./schema.js";

interface Entry {
  readonly version: number;
  readonly answers: Map<string, Promise<unknown>>;
}

/** Tenants whose answers are kept; a process serving more drops the least recently used. */
const TENANTS_KEPT = 256;

export class TenantCache {
  readonly #db: Kysely<Database>;
  readonly #missing: (tenant: string) => Promise<void>;
  readonly #versionSql: string;
  readonly #tenants = new Map<string, Entry>();

  /**
   * `missing` is heard of a tenant with no row: it throws the caller's refusal, or returns, and
   * the look-up then runs without being kept.
   */
  constructor(db: Kysely<Database>, missing: (tenant: string) => Promise<void> = async () => {}) {
    this.#db = db;
    this.#missing = missing;
    this.#versionSql = db
      .selectFrom("tenants")
      .select("catalog_version")
      .where("name", "=", "")
      .compile().sql;
  }

  /**
   * `load()`'s answer for `key` in `tenant`, kept until the tenant's version moves. A failed load
   * is not kept. `missing` overrides the constructor's for this look-up.
   */
  async get<T>(
    tenant: string,
    key: string,
    load: () => Promise<T>,
    missing: (tenant: string) => Promise<void> = this.#missing,
  ): Promise<T> {
    const entry = await this.#entry(tenant);
    if (entry === undefined) {
      await missing(tenant);
      return load();
    }
    const kept = entry.answers.get(key) as Promise<T> | undefined;
    if (kept !== undefined) return kept;
    const loading = load();
    entry.answers.set(key, loading);
    loading.catch(() => {
      if (entry.answers.get(key) === loading) entry.answers.delete(key);
    });
    return loading;
  }

  async #entry(tenant: string): Promise<Entry | undefined> {
    const { rows } = await this.#db.executeQuery<{ catalog_version: number }>(
      CompiledQuery.raw(this.#versionSql, [tenant]),
    );
    const row = rows[0];
    if (row === undefined) {
      this.#tenants.delete(tenant);
      return undefined;
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
