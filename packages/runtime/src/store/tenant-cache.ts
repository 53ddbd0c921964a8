// What was read of a tenant's catalog and settings, kept while the tenant's catalog version
// stands. Every change of its plugins, parts, grants or settings moves the version on (migration
// 20's triggers, in the statement that makes the change, from whatever process), and every
// look-up reads the version first: one statement where the look-up itself was one to three, and
// no answer outlives the rows it came from. A version read before a change and data read after it keeps the newer
// data under the older version, which the next look-up drops; the other way round cannot happen.
// Inside an operation (`catalogOperation`: a job's start, a claim and its set-up) the version is
// read once, by the operation's first look-up, and every later one of the operation goes by it:
// the operation sees the catalog as it stood when it began, or newer, as a single look-up does.
// That read takes the tenant's governance version too, which the operation's governance checks
// go by (a start's kill switch check), as a read of their own a moment later would.
import { AsyncLocalStorage } from "node:async_hooks";
import { CompiledQuery, type Kysely } from "kysely";
import type { Database } from "./schema.js";

interface Entry {
  readonly version: number;
  readonly answers: Map<string, Promise<unknown>>;
}

/** Tenants whose answers are kept; a process serving more drops the least recently used. */
const TENANTS_KEPT = 256;

/** A tenant's versions as one read of its row gives them. */
export interface TenantVersions {
  readonly catalog: number;
  readonly governance: number;
}

/** The versions an operation asked for, and what the read answered once it did. */
interface VersionRead {
  readonly version: Promise<TenantVersions | undefined>;
  read?: TenantVersions | undefined;
}

/** The versions one operation read, by database and tenant, until it ends. */
class Operation {
  #open = true;
  readonly #versions = new Map<Kysely<Database>, Map<string, VersionRead>>();

  version(db: Kysely<Database>, tenant: string, read: () => Promise<TenantVersions | undefined>) {
    if (!this.#open) return read();
    const tenants = this.#tenants(db);
    let asked = tenants.get(tenant);
    if (asked === undefined) {
      const made: VersionRead = { version: read() };
      tenants.set(tenant, made);
      made.version.then(
        (number) => {
          made.read = number;
        },
        // A failed read is the look-up's own: the next one reads again.
        () => tenants.delete(tenant),
      );
      asked = made;
    }
    return asked.version;
  }

  /** The versions of `tenant` this operation read, once the read answered: a look-up that finds them awaits nothing. */
  known(db: Kysely<Database>, tenant: string): TenantVersions | undefined {
    return this.#versions.get(db)?.get(tenant)?.read;
  }

  /** Takes `versions` as this operation's read of `tenant`, unless it read them already. */
  seed(db: Kysely<Database>, tenant: string, versions: TenantVersions): void {
    const tenants = this.#tenants(db);
    if (!this.#open || tenants.has(tenant)) return;
    tenants.set(tenant, { version: Promise.resolve(versions), read: versions });
  }

  #tenants(db: Kysely<Database>): Map<string, VersionRead> {
    let tenants = this.#versions.get(db);
    if (tenants === undefined) {
      tenants = new Map();
      this.#versions.set(db, tenants);
    }
    return tenants;
  }

  end(): void {
    this.#open = false;
    this.#versions.clear();
  }
}

const operations = new AsyncLocalStorage<Operation>();

const shared = new WeakMap<Kysely<Database>, TenantCache>();

/**
 * The cache every reader of `db` without a refusal of its own shares (settings, the plugins that
 * register hooks or providers): one version read serves them all.
 */
export function tenantCacheOf(db: Kysely<Database>): TenantCache {
  let cache = shared.get(db);
  if (cache === undefined) {
    cache = new TenantCache(db);
    shared.set(db, cache);
  }
  return cache;
}

/**
 * Runs `fn` as one operation of the catalog: its look-ups read each tenant's version once, and
 * go by that until `endCatalogOperation` (or `fn`'s end). What `fn` leaves running after it
 * returns, or after the end, reads the version at each look-up again.
 */
export async function catalogOperation<T>(fn: () => Promise<T>): Promise<T> {
  const operation = new Operation();
  try {
    return await operations.run(operation, fn);
  } finally {
    operation.end();
  }
}

/** Ends the operation `catalogOperation` runs the caller in (a job's set-up is done): later look-ups read the version each. */
export function endCatalogOperation(): void {
  operations.getStore()?.end();
}

/**
 * Gives the operation the caller runs in the versions of `tenant` that one of its statements
 * read with other data (a job's row before its claim): its look-ups go by them as by a read of
 * their own. An operation that read the tenant's versions already keeps those.
 */
export function seedCatalogOperation(db: Kysely<Database>, tenant: string, versions: TenantVersions): void {
  operations.getStore()?.seed(db, tenant, versions);
}

/** The governance version of `tenant` the operation the caller runs in read with its catalog version, once it has. */
export function operationGovernanceVersion(db: Kysely<Database>, tenant: string): number | undefined {
  return operations.getStore()?.known(db, tenant)?.governance;
}

/** The columns of a tenant's row that `TenantVersions` come from, under those names. */
function selectTenantVersions(db: Kysely<Database>) {
  return db
    .selectFrom("tenants")
    .select(["tenants.catalog_version as catalog", "tenants.governance_version as governance"]);
}

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
    this.#versionSql = selectTenantVersions(db).where("name", "=", "").compile().sql;
  }

  /**
   * `load()`'s answer for `key` in `tenant`, kept until the tenant's version moves. A failed load
   * is not kept. `missing` overrides the constructor's for this look-up.
   */
  get<T>(
    tenant: string,
    key: string,
    load: () => Promise<T>,
    missing: (tenant: string) => Promise<void> = this.#missing,
  ): Promise<T> {
    // Inside an operation that has read the version, an answer kept under it is the answer.
    const version = operations.getStore()?.known(this.#db, tenant)?.catalog;
    const kept = this.#tenants.get(tenant);
    const answer = version !== undefined && kept?.version === version ? kept.answers.get(key) : undefined;
    return (answer as Promise<T> | undefined) ?? this.#get(tenant, key, load, missing);
  }

  async #get<T>(
    tenant: string,
    key: string,
    load: () => Promise<T>,
    missing: (tenant: string) => Promise<void>,
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

  async #versions(tenant: string): Promise<TenantVersions | undefined> {
    const { rows } = await this.#db.executeQuery<{ catalog: number; governance: number }>(
      CompiledQuery.raw(this.#versionSql, [tenant]),
    );
    const row = rows[0];
    return row === undefined
      ? undefined
      : { catalog: Number(row.catalog), governance: Number(row.governance) };
  }

  async #entry(tenant: string): Promise<Entry | undefined> {
    const operation = operations.getStore();
    const version = (
      await (operation === undefined
        ? this.#versions(tenant)
        : operation.version(this.#db, tenant, () => this.#versions(tenant)))
    )?.catalog;
    if (version === undefined) {
      this.#tenants.delete(tenant);
      return undefined;
    }
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
