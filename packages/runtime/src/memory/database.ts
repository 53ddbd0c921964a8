// MemoryContext.db on oz0's store: a plugin's JSON values by collection and key, kept per
// tenant and plugin in `memory_items`, with full-text search run by the database (FTS5 on
// SQLite, tsvector on PostgreSQL). Memory providers build on it; nothing else writes the table.

import type { MemoryDatabase } from "@oz0/sdk";
import { Oz0Error } from "@oz0/sdk";
import { sql } from "kysely";
import type { Store } from "../store/index.js";
import { queryWords, searchableText } from "./text.js";

/** The bounds of what a memory provider may keep and ask for. */
export const MEMORY_LIMITS = {
  /** Characters of a collection name. */
  collection: 64,
  /** Characters of a key. */
  key: 512,
  /** Bytes of one value as JSON. */
  valueBytes: 1_048_576,
  /** Entries one list returns at most, and when no limit is given. */
  list: 1000,
  /** Hits one search returns at most; 10 when no limit is given. */
  search: 100,
} as const;

const DEFAULT_SEARCH_LIMIT = 10;
const COLLECTION = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

export interface MemoryScope {
  readonly tenant: string;
  readonly plugin: string;
}

export class StoreMemoryDatabase implements MemoryDatabase {
  readonly #store: Store;
  readonly #scope: MemoryScope;

  constructor(store: Store, scope: MemoryScope) {
    this.#store = store;
    this.#scope = scope;
  }

  async get(collection: string, key: string): Promise<unknown> {
    const row = await this.#rows(collection)
      .select("value")
      .where("key", "=", checkKey(key))
      .executeTakeFirst();
    return row === undefined ? undefined : JSON.parse(row.value);
  }

  async put(collection: string, key: string, value: unknown): Promise<void> {
    checkCollection(collection);
    checkKey(key);
    const json = valueJson(value, collection, key);
    const store = this.#store;
    const change = { value: json, text: searchableText(value), updated_at: store.clockSql };
    await store.db
      .insertInto("memory_items")
      .values({ ...this.#scope, collection, key, ...change })
      .onConflict((conflict) =>
        conflict.columns(["tenant", "plugin", "collection", "key"]).doUpdateSet(change),
      )
      .execute();
  }

  async delete(collection: string, key: string): Promise<boolean> {
    checkCollection(collection);
    const result = await this.#store.db
      .deleteFrom("memory_items")
      .where("tenant", "=", this.#scope.tenant)
      .where("plugin", "=", this.#scope.plugin)
      .where("collection", "=", collection)
      .where("key", "=", checkKey(key))
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async list(
    collection: string,
    options: { readonly prefix?: string; readonly limit?: number } = {},
  ): Promise<{ key: string; value: unknown }[]> {
    const limit = checkLimit(options.limit, MEMORY_LIMITS.list, MEMORY_LIMITS.list);
    let query = this.#rows(collection).select(["key", "value"]);
    const prefix = options.prefix ?? "";
    // substr, not LIKE, so '%' and '_' in a prefix mean themselves on both engines.
    if (prefix !== "") query = query.where(sql<string>`substr(key, 1, ${prefix.length})`, "=", prefix);
    const rows = await query.orderBy(this.#byKey()).limit(limit).execute();
    return rows.map((row) => ({ key: row.key, value: JSON.parse(row.value) }));
  }

  async search(
    collection: string,
    query: string,
    options: { readonly limit?: number } = {},
  ): Promise<{ key: string; value: unknown; score: number }[]> {
    checkCollection(collection);
    const limit = checkLimit(options.limit, DEFAULT_SEARCH_LIMIT, MEMORY_LIMITS.search);
    const words = queryWords(query);
    if (words.length === 0) return [];
    const { tenant, plugin } = this.#scope;
    const { rows } =
      this.#store.engine === "postgres"
        ? await sql<Hit>`
            select key, value, ts_rank(search, query) as score
            from memory_items, to_tsquery('english', ${words.join(" | ")}) as query
            where tenant = ${tenant} and plugin = ${plugin} and collection = ${collection}
              and search @@ query
            order by score desc, key collate "C"
            limit ${limit}`.execute(this.#store.db)
        : await sql<Hit>`
            select item.key as key, item.value as value, -found.rank as score
            from memory_items_fts as found join memory_items as item on item.id = found.rowid
            where found.memory_items_fts match ${words.map((word) => `"${word}"`).join(" OR ")}
              and item.tenant = ${tenant} and item.plugin = ${plugin} and item.collection = ${collection}
            order by found.rank, item.key
            limit ${limit}`.execute(this.#store.db);
    return rows.map((row) => ({ key: row.key, value: JSON.parse(row.value), score: Number(row.score) }));
  }

  #rows(collection: string) {
    checkCollection(collection);
    return this.#store.db
      .selectFrom("memory_items")
      .where("tenant", "=", this.#scope.tenant)
      .where("plugin", "=", this.#scope.plugin)
      .where("collection", "=", collection);
  }

  /** Keys in byte order on both engines: PostgreSQL would otherwise sort by its locale. */
  #byKey() {
    return this.#store.engine === "postgres" ? sql`key collate "C"` : sql`key`;
  }
}

interface Hit {
  readonly key: string;
  readonly value: string;
  readonly score: number | string;
}

function invalid(message: string, path: string): Oz0Error {
  return new Oz0Error("INVALID_INPUT", message, { data: { issues: [{ path, message }] } });
}

function checkCollection(collection: string): string {
  if (
    typeof collection === "string" &&
    collection.length <= MEMORY_LIMITS.collection &&
    COLLECTION.test(collection)
  )
    return collection;
  throw invalid(
    `memory collection ${JSON.stringify(collection)} is not a collection name: use letters, digits, '_', '.' and '-', starting with a letter or digit, at most ${MEMORY_LIMITS.collection} characters`,
    "collection",
  );
}

function checkKey(key: string): string {
  if (typeof key === "string" && key !== "" && key.length <= MEMORY_LIMITS.key && !hasControl(key))
    return key;
  throw invalid(
    `memory key ${JSON.stringify(key)} is not a key: use 1 to ${MEMORY_LIMITS.key} characters, no control characters`,
    "key",
  );
}

/** Keys are shown to people, so control characters are refused. */
function hasControl(text: string): boolean {
  for (const char of text) if (char.charCodeAt(0) < 0x20) return true;
  return false;
}

function checkLimit(limit: number | undefined, fallback: number, max: number): number {
  if (limit === undefined) return fallback;
  if (Number.isInteger(limit) && limit >= 1 && limit <= max) return limit;
  throw invalid(`limit ${String(limit)} is not a whole number from 1 to ${max}`, "limit");
}

function valueJson(value: unknown, collection: string, key: string): string {
  const json = value === undefined ? undefined : JSON.stringify(value);
  if (json === undefined) {
    throw invalid(
      `memory ${collection}/${key}: the value must be JSON (a string, number, object, list …), not undefined`,
      "value",
    );
  }
  const bytes = Buffer.byteLength(json);
  if (bytes > MEMORY_LIMITS.valueBytes) {
    throw new Oz0Error(
      "LIMIT_EXCEEDED",
      `memory ${collection}/${key}: the value is ${bytes} bytes as JSON; a memory value may be at most ${MEMORY_LIMITS.valueBytes} bytes`,
      { data: { limit: "memory value size", max: MEMORY_LIMITS.valueBytes, unit: "bytes" } },
    );
  }
  return json;
}
