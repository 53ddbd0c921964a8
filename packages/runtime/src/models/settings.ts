// The tenant settings the models read and the operator writes, by key: aliases
// (`model.<alias>` → `"provider:model"`, or `{ model, options }`), providers
// (`provider.<name>` → base URL, where the key comes from, timeout, retries, streaming), prices (`price.<provider>:<model>`) and keys
// (`secret.<name>`, encrypted). One row each in the settings table, JSON in its value.
import type { Kysely, RawBuilder } from "kysely";
import { type Database, type TenantCache, tenantCacheOf } from "../store/index.js";
import type { StructuredOutput } from "./options.js";
import type { ProviderType } from "./providers.js";

/** What the operator set for a provider with `oz0 provider set`. */
export interface ProviderConfig {
  /** A built-in type; left out for a built-in name (its own type) or a plugin's provider. */
  readonly type?: ProviderType;
  readonly baseUrl?: string;
  /** The environment variable the key is read from, in the process that makes the call. */
  readonly apiKeyEnv?: string;
  /** Whether a key is stored (encrypted) in the tenant. */
  readonly apiKeyStored?: boolean;
  readonly timeoutSeconds?: number;
  readonly retries?: number;
  /** False for a server that cannot stream: its calls are made whole. */
  readonly stream?: boolean;
  /** How an openai-compatible server is asked for a structured answer. */
  readonly structuredOutput?: StructuredOutput;
}

/** USD per million tokens; `cached` for prompt tokens read from the provider's cache (the input price when left out). */
export interface Price {
  readonly input: number;
  readonly output: number;
  readonly cached?: number;
}

export const SETTING_PREFIX = {
  alias: "model.",
  provider: "provider.",
  price: "price.",
  secret: "secret.",
} as const;

/** The secret holding a provider's stored key. */
export function providerKeySecret(provider: string): string {
  return `provider.${provider}.api_key`;
}

/** Reads and writes one tenant's settings rows. */
export class TenantSettings {
  readonly #db: Kysely<Database>;
  readonly #clock: RawBuilder<number>;
  readonly #cache: TenantCache;

  constructor(db: Kysely<Database>, clock: RawBuilder<number>) {
    this.#db = db;
    this.#clock = clock;
    // Shared by every TenantSettings over `db` (a job's set-up makes several), and kept as the
    // stored text, so each caller parses a value of its own.
    this.#cache = tenantCacheOf(db);
  }

  async get<T>(tenant: string, key: string): Promise<T | undefined> {
    const value = await this.#cache.get(tenant, `setting\0${key}`, async () => {
      const row = await this.#db
        .selectFrom("settings")
        .select("value")
        .where("tenant", "=", tenant)
        .where("key", "=", key)
        .executeTakeFirst();
      return row?.value;
    });
    return value === undefined ? undefined : (JSON.parse(value) as T);
  }

  async put(tenant: string, key: string, value: unknown): Promise<void> {
    const text = JSON.stringify(value);
    await this.#db
      .insertInto("settings")
      .values({ tenant, key, value: text, updated_at: this.#clock })
      .onConflict((conflict) =>
        conflict.columns(["tenant", "key"]).doUpdateSet({ value: text, updated_at: this.#clock }),
      )
      .execute();
  }

  /** Deletes a setting; whether there was one. */
  async delete(tenant: string, key: string): Promise<boolean> {
    const result = await this.#db
      .deleteFrom("settings")
      .where("tenant", "=", tenant)
      .where("key", "=", key)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Every setting whose key starts with `prefix`, by key without the prefix, in key order. */
  async list<T>(tenant: string, prefix: string): Promise<[string, T][]> {
    const rows = await this.#cache.get(tenant, `settings\0${prefix}`, () =>
      this.#db
        .selectFrom("settings")
        .select(["key", "value"])
        .where("tenant", "=", tenant)
        .where("key", "like", `${prefix}%`)
        .orderBy("key")
        .execute(),
    );
    // `like` treats `_` as a wildcard; the prefix check keeps the match exact.
    return rows
      .filter((row) => row.key.startsWith(prefix))
      .map((row) => [row.key.slice(prefix.length), JSON.parse(row.value) as T]);
  }

  /** The tenant's model aliases and providers (`model.<alias>`, `provider.<name>`), by key: what `routeOf` reads. */
  async routes(tenant: string): Promise<Map<string, unknown>> {
    const found = new Map<string, unknown>();
    for (const prefix of [SETTING_PREFIX.alias, SETTING_PREFIX.provider]) {
      for (const [key, value] of await this.list(tenant, prefix)) found.set(`${prefix}${key}`, value);
    }
    return found;
  }
}
