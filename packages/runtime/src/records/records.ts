// Records: the versioned values a plugin's tools keep through the platform (`ctx.records`),
// under the tenant's retention, legal holds and erasure. A plugin sees only its own records;
// the tenant's people see them all (`oz0 records`). Every put keeps a new version. Retention
// removes the versions of a kind older than its days, unless a hold covers them, each time the
// kind is read or written and at `oz0 records sweep`. Erasure by subject removes every version
// about the subject, and what the tenant's jobs' histories hold of those values, unless a hold
// covers any of them.
import { randomBytes } from "node:crypto";
import type { RecordsApi, StoredRecord } from "@oz0/sdk";
import { Oz0Error } from "@oz0/sdk";
import { type Expression, type ExpressionBuilder, type SqlBool, sql } from "kysely";
import { callScope } from "../scope/index.js";
import type { Database, Store } from "../store/index.js";

/** The bounds of what a plugin may keep. */
export const RECORD_LIMITS = {
  /** Characters of a kind's name. */
  kind: 64,
  /** Characters of a key, and of a subject. */
  key: 512,
  /** Bytes of one version's value as JSON. */
  valueBytes: 1_048_576,
  /** Records one list returns at most, and when no limit is given. */
  list: 1000,
  /** Days of retention at most (about 100 years). */
  days: 36_500,
} as const;

const KIND = /^[a-z][a-z0-9_.-]*$/;
const DAY_MS = 86_400_000;
/** Strings shorter than this are not erased from histories: too common to be about anyone. */
const ERASED_MIN_CHARS = 4;
/** What an erased value's text becomes in a job's history. */
export const ERASED = "[erased]";

/** Where a record lives: a plugin's kind and key. */
export interface RecordAddress {
  readonly plugin: string;
  readonly kind: string;
  readonly key: string;
}

/** A record as the tenant's people see it: with its plugin. */
export interface TenantRecord extends StoredRecord {
  readonly plugin: string;
}

export interface Retention {
  readonly plugin: string;
  readonly kind: string;
  readonly days: number;
  readonly setBy: string;
  readonly setAt: number;
}

/** What a hold covers: a plugin's records (of a kind, of a key), a subject's, or both at once. */
export interface HoldScope {
  readonly plugin?: string | undefined;
  readonly kind?: string | undefined;
  readonly key?: string | undefined;
  readonly subject?: string | undefined;
}

export interface RecordHold extends HoldScope {
  readonly id: string;
  readonly reason: string;
  readonly placedBy: string;
  readonly placedAt: number;
  readonly releasedBy?: string;
  readonly releasedAt?: number;
}

/** What an erasure removed. */
export interface Erasure {
  readonly subject: string;
  /** Distinct records (plugin, kind, key) and their versions removed. */
  readonly records: number;
  readonly versions: number;
  /** History events and jobs whose text held an erased value, now `[erased]` there. */
  readonly events: number;
  readonly jobs: number;
}

export class Records {
  readonly #store: Store;
  #listener: RecordChangeListener | undefined;

  constructor(store: Store) {
    this.#store = store;
  }

  /**
   * Tells `listener` of each change made outside a job's call (an operator's erasure, retention's
   * removals there); a change a job's call makes goes to that job's object_model_event handlers.
   */
  onChange(listener: RecordChangeListener): void {
    this.#listener = listener;
  }

  /** A change, to the job's object_model_event handlers when a job's call made it, else to the listener. */
  async #tell(tenant: string, change: RecordChange): Promise<void> {
    const bus = callScope()?.bus;
    if (bus !== undefined) {
      if (bus.has("object_model_event")) await bus.fire("object_model_event", { ...change });
      return;
    }
    await this.#listener?.(tenant, change);
  }

  /** The records API of plugin `plugin` in `tenant`, as a tool's `ctx.records`. */
  forPlugin(tenant: string, plugin: string): RecordsApi {
    return {
      put: (kind, key, value, options) => this.put(tenant, { plugin, kind, key }, value, options?.subject),
      get: (kind, key, options) => this.get(tenant, { plugin, kind, key }, options?.version),
      list: (kind, options) =>
        this.list(tenant, { plugin, kind, subject: options?.subject, limit: options?.limit }),
      history: (kind, key) => this.history(tenant, { plugin, kind, key }),
    };
  }

  async put(tenant: string, at: RecordAddress, value: unknown, subject?: string): Promise<TenantRecord> {
    checkAddress(at);
    if (subject !== undefined) checkText(subject, "subject");
    const json = valueJson(value, at);
    const store = this.#store;
    let expired = 0;
    const stored = await store.transaction(async (trx) => {
      expired = await this.#sweep(trx, tenant, at.plugin, at.kind, false);
      const last = await trx
        .selectFrom("records")
        .select(({ fn }) => fn.max<number | null>("version").as("version"))
        .where("tenant", "=", tenant)
        .where("plugin", "=", at.plugin)
        .where("kind", "=", at.kind)
        .where("key", "=", at.key)
        .executeTakeFirst();
      const version = Number(last?.version ?? 0) + 1;
      const row = await trx
        .insertInto("records")
        .values({ tenant, ...at, version, subject: subject ?? null, value: json, created_at: store.clockSql })
        .returningAll()
        .executeTakeFirstOrThrow();
      return recordOf(row);
    });
    await this.#expired(tenant, at.plugin, at.kind, expired);
    await this.#tell(tenant, {
      action: "put",
      plugin: at.plugin,
      kind: at.kind,
      key: at.key,
      version: stored.version,
      ...(subject === undefined ? {} : { subject }),
    });
    return stored;
  }

  async get(tenant: string, at: RecordAddress, version?: number): Promise<TenantRecord | undefined> {
    checkAddress(at);
    await this.#sweep(this.#store.db, tenant, at.plugin, at.kind);
    let query = this.#store.db
      .selectFrom("records")
      .selectAll()
      .where("tenant", "=", tenant)
      .where("plugin", "=", at.plugin)
      .where("kind", "=", at.kind)
      .where("key", "=", at.key);
    query =
      version === undefined
        ? query.orderBy("version", "desc").limit(1)
        : query.where("version", "=", version);
    const row = await query.executeTakeFirst();
    return row === undefined ? undefined : recordOf(row);
  }

  async history(tenant: string, at: RecordAddress): Promise<TenantRecord[]> {
    checkAddress(at);
    await this.#sweep(this.#store.db, tenant, at.plugin, at.kind);
    const rows = await this.#store.db
      .selectFrom("records")
      .selectAll()
      .where("tenant", "=", tenant)
      .where("plugin", "=", at.plugin)
      .where("kind", "=", at.kind)
      .where("key", "=", at.key)
      .orderBy("version", "asc")
      .execute();
    return rows.map(recordOf);
  }

  /** The latest version of each record that matches, newest first. */
  async list(
    tenant: string,
    filter: {
      readonly plugin?: string | undefined;
      readonly kind?: string | undefined;
      readonly subject?: string | undefined;
      readonly limit?: number | undefined;
    },
  ): Promise<TenantRecord[]> {
    if (filter.kind !== undefined) checkKind(filter.kind);
    const limit = Math.min(Math.max(1, Math.trunc(filter.limit ?? RECORD_LIMITS.list)), RECORD_LIMITS.list);
    if (filter.plugin !== undefined && filter.kind !== undefined) {
      await this.#sweep(this.#store.db, tenant, filter.plugin, filter.kind);
    } else {
      await this.sweep(tenant);
    }
    let query = this.#store.db
      .selectFrom("records as r")
      .selectAll("r")
      .where("r.tenant", "=", tenant)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom("records as newer")
              .select("newer.version")
              .whereRef("newer.tenant", "=", "r.tenant")
              .whereRef("newer.plugin", "=", "r.plugin")
              .whereRef("newer.kind", "=", "r.kind")
              .whereRef("newer.key", "=", "r.key")
              .whereRef("newer.version", ">", "r.version"),
          ),
        ),
      );
    if (filter.plugin !== undefined) query = query.where("r.plugin", "=", filter.plugin);
    if (filter.kind !== undefined) query = query.where("r.kind", "=", filter.kind);
    if (filter.subject !== undefined) query = query.where("r.subject", "=", filter.subject);
    const rows = await query.orderBy("r.created_at", "desc").orderBy("r.key").limit(limit).execute();
    return rows.map(recordOf);
  }

  /** Sets how long the tenant keeps plugin `plugin`'s records of `kind`; `undefined` keeps them for ever. */
  async setRetention(
    tenant: string,
    plugin: string,
    kind: string,
    days: number | undefined,
    by: string,
  ): Promise<void> {
    checkKind(kind);
    const store = this.#store;
    if (days === undefined) {
      await store.db
        .deleteFrom("record_retention")
        .where("tenant", "=", tenant)
        .where("plugin", "=", plugin)
        .where("kind", "=", kind)
        .execute();
      return;
    }
    if (!Number.isInteger(days) || days < 1 || days > RECORD_LIMITS.days) {
      throw invalid(
        `retention of ${plugin}/${kind} is ${days} days; give a whole number of days from 1 to ${RECORD_LIMITS.days}`,
        "days",
      );
    }
    const change = { days, set_by: by, set_at: store.clockSql };
    await store.db
      .insertInto("record_retention")
      .values({ tenant, plugin, kind, ...change })
      .onConflict((conflict) => conflict.columns(["tenant", "plugin", "kind"]).doUpdateSet(change))
      .execute();
    await this.#sweep(store.db, tenant, plugin, kind);
  }

  async retention(tenant: string): Promise<Retention[]> {
    const rows = await this.#store.db
      .selectFrom("record_retention")
      .selectAll()
      .where("tenant", "=", tenant)
      .orderBy("plugin")
      .orderBy("kind")
      .execute();
    return rows.map((row) => ({
      plugin: row.plugin,
      kind: row.kind,
      days: Number(row.days),
      setBy: row.set_by,
      setAt: Number(row.set_at),
    }));
  }

  /** Removes every version past its kind's retention that no hold covers; returns how many. */
  async sweep(tenant: string): Promise<number> {
    const kinds = await this.retention(tenant);
    let removed = 0;
    for (const { plugin, kind } of kinds) removed += await this.#sweep(this.#store.db, tenant, plugin, kind);
    return removed;
  }

  async hold(tenant: string, scope: HoldScope, reason: string, by: string): Promise<RecordHold> {
    if (scope.plugin === undefined && scope.subject === undefined) {
      throw invalid(
        "a hold covers a plugin's records or a subject's; give the plugin, the subject, or both",
        "scope",
      );
    }
    if ((scope.kind !== undefined || scope.key !== undefined) && scope.plugin === undefined) {
      throw invalid("a hold of a kind or a key names the plugin whose kind it is", "plugin");
    }
    if (scope.key !== undefined && scope.kind === undefined) {
      throw invalid("a hold of a key names the kind the key is of", "kind");
    }
    if (scope.kind !== undefined) checkKind(scope.kind);
    if (scope.key !== undefined) checkText(scope.key, "key");
    if (scope.subject !== undefined) checkText(scope.subject, "subject");
    if (reason.trim() === "") throw invalid("a hold needs a reason a person can read later", "reason");
    const id = `hold-${randomText(10)}`;
    const row = await this.#store.db
      .insertInto("record_holds")
      .values({
        id,
        tenant,
        plugin: scope.plugin ?? null,
        kind: scope.kind ?? null,
        key: scope.key ?? null,
        subject: scope.subject ?? null,
        reason,
        placed_by: by,
        placed_at: this.#store.clockSql,
        released_by: null,
        released_at: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return holdOf(row);
  }

  async release(tenant: string, id: string, by: string): Promise<RecordHold> {
    const row = await this.#store.db
      .updateTable("record_holds")
      .set({ released_by: by, released_at: this.#store.clockSql })
      .where("tenant", "=", tenant)
      .where("id", "=", id)
      .where("released_at", "is", null)
      .returningAll()
      .executeTakeFirst();
    if (row !== undefined) return holdOf(row);
    const held = await this.#holdRow(tenant, id);
    if (held === undefined) {
      throw new Oz0Error("NOT_FOUND", `there is no hold ${id}; oz0 records holds lists the tenant's holds`, {
        data: { kind: "hold", name: id },
      });
    }
    throw new Oz0Error(
      "CONFLICT",
      `hold ${id} was released already, by ${held.released_by} at ${new Date(Number(held.released_at)).toISOString()}`,
      { data: { hold: id } },
    );
  }

  /** The tenant's holds: unreleased ones, or all with `all`. */
  async holds(tenant: string, options: { readonly all?: boolean } = {}): Promise<RecordHold[]> {
    let query = this.#store.db.selectFrom("record_holds").selectAll().where("tenant", "=", tenant);
    if (options.all !== true) query = query.where("released_at", "is", null);
    return (await query.orderBy("placed_at", "desc").orderBy("id").execute()).map(holdOf);
  }

  /**
   * Erases everything the tenant keeps about `subject`: every version of every record about it,
   * and each text those versions hold wherever a job's history, input or output repeats it.
   * Refused, erasing nothing, when a hold covers any of them.
   */
  async erase(tenant: string, subject: string): Promise<Erasure> {
    checkText(subject, "subject");
    const erasure = await this.#store.transaction(async (trx): Promise<Erasure> => {
      const held = await trx
        .selectFrom("records as r")
        .innerJoin("record_holds as h", (join) =>
          join
            .onRef("h.tenant", "=", "r.tenant")
            .on("h.released_at", "is", null)
            .on((eb) => covers(eb)),
        )
        .select(["h.id", "h.reason"])
        .where("r.tenant", "=", tenant)
        .where("r.subject", "=", subject)
        .groupBy(["h.id", "h.reason"])
        .execute();
      const subjectHold = await trx
        .selectFrom("record_holds")
        .select(["id", "reason"])
        .where("tenant", "=", tenant)
        .where("subject", "=", subject)
        .where("plugin", "is", null)
        .where("released_at", "is", null)
        .execute();
      const holds = [...new Map([...held, ...subjectHold].map((hold) => [hold.id, hold])).values()];
      if (holds.length > 0) {
        throw new Oz0Error(
          "CONFLICT",
          `the records about ${subject} are under legal hold (${holds.map((hold) => `${hold.id}: ${hold.reason}`).join("; ")}); nothing was erased. Release the hold first (oz0 records release ID), if the law allows`,
          { data: { subject, holds: holds.map((hold) => hold.id) } },
        );
      }
      const rows = await trx
        .selectFrom("records")
        .select(["plugin", "kind", "key", "value"])
        .where("tenant", "=", tenant)
        .where("subject", "=", subject)
        .execute();
      const texts = new Set<string>([subject]);
      for (const row of rows) collectTexts(JSON.parse(row.value), texts);
      await trx.deleteFrom("records").where("tenant", "=", tenant).where("subject", "=", subject).execute();
      const scrubbed = await scrubHistories(trx, tenant, [...texts]);
      return {
        subject,
        records: new Set(rows.map((row) => `${row.plugin}\0${row.kind}\0${row.key}`)).size,
        versions: rows.length,
        ...scrubbed,
      };
    });
    await this.#tell(tenant, { action: "erase", subject, removed: erasure.versions });
    return erasure;
  }

  async #holdRow(tenant: string, id: string) {
    return this.#store.db
      .selectFrom("record_holds")
      .selectAll()
      .where("tenant", "=", tenant)
      .where("id", "=", id)
      .executeTakeFirst();
  }

  /** Removes plugin's versions of `kind` older than its retention, but those a hold covers. */
  async #sweep(db: Store["db"], tenant: string, plugin: string, kind: string, tell = true): Promise<number> {
    const retention = await db
      .selectFrom("record_retention")
      .select("days")
      .where("tenant", "=", tenant)
      .where("plugin", "=", plugin)
      .where("kind", "=", kind)
      .executeTakeFirst();
    if (retention === undefined) return 0;
    const result = await db
      .deleteFrom("records as r")
      .where("r.tenant", "=", tenant)
      .where("r.plugin", "=", plugin)
      .where("r.kind", "=", kind)
      .where("r.created_at", "<", sql<number>`${this.#store.clockSql} - ${Number(retention.days) * DAY_MS}`)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom("record_holds as h")
              .select("h.id")
              .whereRef("h.tenant", "=", "r.tenant")
              .where("h.released_at", "is", null)
              .where((eb) => covers(eb)),
          ),
        ),
      )
      .executeTakeFirst();
    const removed = Number(result.numDeletedRows);
    if (tell) await this.#expired(tenant, plugin, kind, removed);
    return removed;
  }

  async #expired(tenant: string, plugin: string, kind: string, removed: number): Promise<void> {
    if (removed > 0) await this.#tell(tenant, { action: "expire", plugin, kind, removed });
  }
}

/** A change to a tenant's records, as object_model_event carries it. */
export interface RecordChange {
  readonly action: "put" | "erase" | "expire";
  readonly plugin?: string;
  readonly kind?: string;
  readonly key?: string;
  readonly version?: number;
  readonly subject?: string;
  readonly removed?: number;
}

/** Hears of the changes to a tenant's records made outside a job's call. */
export type RecordChangeListener = (tenant: string, change: RecordChange) => Promise<void>;

/** Whether hold `h` covers record `r`: each field it names matches. */
function covers(
  eb: ExpressionBuilder<{ r: Database["records"]; h: Database["record_holds"] }, "r" | "h">,
): Expression<SqlBool> {
  const field = (name: "plugin" | "kind" | "key" | "subject") =>
    eb.or([eb(`h.${name}`, "is", null), eb(`h.${name}`, "=", eb.ref(`r.${name}`))]);
  return eb.and([field("plugin"), field("kind"), field("key"), field("subject")]);
}

/**
 * Puts `[erased]` in place of each text in every job event, job input and output of the tenant
 * that holds it. The texts are matched as JSON writes them, inside strings, so what is left
 * stays JSON.
 */
async function scrubHistories(
  trx: Parameters<Parameters<Store["transaction"]>[0]>[0],
  tenant: string,
  texts: readonly string[],
): Promise<{ events: number; jobs: number }> {
  const needles = texts
    .filter((text) => text.length >= ERASED_MIN_CHARS)
    .map((text) => JSON.stringify(text).slice(1, -1));
  if (needles.length === 0) return { events: 0, jobs: 0 };
  const scrub = (text: string) => needles.reduce((out, needle) => out.replaceAll(needle, ERASED), text);
  const jobs = new Set<string>();
  const events = await trx
    .selectFrom("job_events as e")
    .innerJoin("jobs as j", "j.id", "e.job_id")
    .select(["e.job_id", "e.seq", "e.data"])
    .where("j.tenant", "=", tenant)
    .where((eb) =>
      eb.or(needles.map((needle) => sql<SqlBool>`e.data like ${`%${escapeLike(needle)}%`} escape '\\'`)),
    )
    .execute();
  for (const row of events) {
    await trx
      .updateTable("job_events")
      .set({ data: scrub(row.data) })
      .where("job_id", "=", row.job_id)
      .where("seq", "=", row.seq)
      .execute();
    jobs.add(row.job_id);
  }
  const rows = await trx
    .selectFrom("jobs")
    .select(["id", "input", "output"])
    .where("tenant", "=", tenant)
    .where((eb) =>
      eb.or(
        needles.flatMap((needle) => [
          sql<SqlBool>`input like ${`%${escapeLike(needle)}%`} escape '\\'`,
          sql<SqlBool>`output like ${`%${escapeLike(needle)}%`} escape '\\'`,
        ]),
      ),
    )
    .execute();
  for (const row of rows) {
    await trx
      .updateTable("jobs")
      .set({ input: scrub(row.input), output: row.output === null ? null : scrub(row.output) })
      .where("id", "=", row.id)
      .execute();
    jobs.add(row.id);
  }
  return { events: events.length, jobs: jobs.size };
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/** Every string in a value, keys included. */
function collectTexts(value: unknown, into: Set<string>): void {
  if (typeof value === "string") into.add(value);
  else if (Array.isArray(value)) for (const item of value) collectTexts(item, into);
  else if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      into.add(key);
      collectTexts(item, into);
    }
  }
}

function recordOf(
  row: Database["records"] extends infer T ? { [K in keyof T]: unknown } : never,
): TenantRecord {
  const subject = row.subject as string | null;
  return {
    plugin: row.plugin as string,
    kind: row.kind as string,
    key: row.key as string,
    version: Number(row.version),
    ...(subject === null ? {} : { subject }),
    value: JSON.parse(row.value as string),
    createdAt: Number(row.created_at),
  };
}

function holdOf(
  row: Database["record_holds"] extends infer T ? { [K in keyof T]: unknown } : never,
): RecordHold {
  const optional = (name: string, value: unknown) => (value === null ? {} : { [name]: value });
  return {
    id: row.id as string,
    ...optional("plugin", row.plugin),
    ...optional("kind", row.kind),
    ...optional("key", row.key),
    ...optional("subject", row.subject),
    reason: row.reason as string,
    placedBy: row.placed_by as string,
    placedAt: Number(row.placed_at),
    ...optional("releasedBy", row.released_by),
    ...(row.released_at === null ? {} : { releasedAt: Number(row.released_at) }),
  };
}

function checkAddress(at: RecordAddress): void {
  checkKind(at.kind);
  checkText(at.key, "key");
}

function checkKind(kind: string): void {
  if (typeof kind !== "string" || kind.length > RECORD_LIMITS.kind || !KIND.test(kind)) {
    throw invalid(
      `record kind ${JSON.stringify(kind)} is not a kind's name: lowercase letters, digits, ., _ and -, starting with a letter, at most ${RECORD_LIMITS.kind} characters`,
      "kind",
    );
  }
}

function checkText(text: string, what: "key" | "subject"): void {
  if (typeof text !== "string" || text === "" || text.length > RECORD_LIMITS.key) {
    throw invalid(`a record's ${what} is 1 to ${RECORD_LIMITS.key} characters of text`, what);
  }
}

function valueJson(value: unknown, at: RecordAddress): string {
  const json = value === undefined ? undefined : JSON.stringify(value);
  if (json === undefined)
    throw invalid(`record ${at.kind}/${at.key} has no value; give a JSON value`, "value");
  if (Buffer.byteLength(json) > RECORD_LIMITS.valueBytes) {
    throw invalid(
      `record ${at.kind}/${at.key} is ${Buffer.byteLength(json)} bytes as JSON, over the ${RECORD_LIMITS.valueBytes} a version may hold`,
      "value",
    );
  }
  return json;
}

function invalid(message: string, path: string): Oz0Error {
  return new Oz0Error("INVALID_INPUT", message, { data: { issues: [{ path, message }] } });
}

const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";

function randomText(length: number): string {
  let text = "";
  for (const byte of randomBytes(length)) text += ALPHABET[byte % ALPHABET.length];
  return text;
}
