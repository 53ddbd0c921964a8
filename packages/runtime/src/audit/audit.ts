// The audit log: who changed what in a tenant, and when. Identity changes record themselves here
// in the transaction that makes them; any other service passes its change events to `onChange`.
// A secret never reaches a row: fields whose names say they hold one are masked before writing.
import { Oz0Error } from "@oz0/sdk";
import type { Kysely, Transaction } from "kysely";
import { type Caller, requireRole } from "../callers/index.js";
import { requireTenant } from "../catalog/index.js";
import type { Database, Store } from "../store/index.js";

/** What one audited change says: who (the caller), what (action and target), and its details. */
export interface AuditRecord {
  readonly caller: Caller;
  /** `<noun>.<verb>`, such as `key.create`, `member.add`, `policy.set`. */
  readonly action: string;
  /** What it was done to: `user:alice`, `key:<id>`, an address, a pattern. */
  readonly target: string;
  readonly detail?: Readonly<Record<string, unknown>> | undefined;
}

/**
 * A change made by anyone's service, in the shape `Audit.onChange` takes: a services layer's
 * typed change event passes as it is when it has these fields.
 */
export type AuditableChange = AuditRecord;

/** A failed sign-in, recorded before any caller exists. */
export interface AuthFailureRecord {
  /** The tenant the credentials named, when oz0 knows it. */
  readonly tenant: string | null;
  /** `key:<id>` or `user:<name>`; `key:unreadable` for text that is no oz0 key. */
  readonly target: string;
  readonly detail: Readonly<Record<string, unknown>>;
}

export interface AuditEntry {
  readonly seq: number;
  readonly tenant: string | null;
  /** Epoch milliseconds, by the database's clock. */
  readonly at: number;
  readonly actor: string;
  readonly role: string | null;
  readonly action: string;
  readonly target: string;
  readonly detail: Readonly<Record<string, unknown>>;
}

export interface AuditFilter {
  /** Entries at or after this time, epoch milliseconds. */
  readonly since?: number | undefined;
  readonly actor?: string | undefined;
  /** An action (`key.create`), or every action of a noun (`key`, `key.*`). */
  readonly action?: string | undefined;
  /** At most this many, the newest; default 100. */
  readonly limit?: number | undefined;
}

/**
 * What hooks recorded where no job's history takes it: a channel message or a webhook that
 * became no job, a change to records made outside any job.
 */
export interface HookRecordsEntry {
  readonly tenant: string;
  /** What the hooks fired for, as the entry's actor: `channel:<plugin>/<channel>`, `routine:<plugin>/<routine>`, `records`. */
  readonly source: string;
  /** What it was: a channel message's id, a routine, a record's kind. */
  readonly subject: string;
  /** What became of it: `refused`, `duplicate`, `command`, … */
  readonly outcome: string;
  /** The governance events the hooks recorded (`governance_checked`, `governance_denied`, `hook_error`). */
  readonly events: readonly { readonly kind: string; readonly data: unknown }[];
}

/** The action of an entry of hook records. */
export const HOOK_RECORDS_ACTION = "hooks.record";

/** The actor of a failed sign-in: nobody was authenticated. */
export const UNAUTHENTICATED_ACTOR = "unauthenticated";

const DEFAULT_LIMIT = 100;
const MASKED = "[secret]";
/** Field names that hold a credential, whatever the service that sent them meant to do. */
const SECRET_FIELD = /password|passphrase|secret|token|credential|^key$|api_?key|hash/i;

type Executor = Kysely<Database> | Transaction<Database>;

export class Audit {
  readonly #store: Store;

  constructor(store: Store) {
    this.#store = store;
  }

  /** Records one change; give `db` to record it inside the transaction that makes the change. */
  async record(record: AuditRecord, db: Executor = this.#store.db): Promise<void> {
    await db
      .insertInto("audit_log")
      .values({
        tenant: record.caller.tenant,
        at: this.#store.clockSql,
        actor: record.caller.actor,
        role: record.caller.role,
        action: record.action,
        target: record.target,
        detail: JSON.stringify(mask(record.detail ?? {})),
      })
      .execute();
  }

  /** Records a failed sign-in with its reason, which the one presenting the credentials is never told. */
  async recordAuthFailure(failure: AuthFailureRecord, db: Executor = this.#store.db): Promise<void> {
    await db
      .insertInto("audit_log")
      .values({
        tenant: failure.tenant,
        at: this.#store.clockSql,
        actor: UNAUTHENTICATED_ACTOR,
        role: null,
        action: "auth.fail",
        target: failure.target,
        detail: JSON.stringify(mask(failure.detail)),
      })
      .execute();
  }

  /**
   * Records what hooks recorded where no job's history takes it (`hooks.record`, the source as
   * actor, no role); nothing when they recorded nothing.
   */
  async recordHooks(entry: HookRecordsEntry): Promise<void> {
    if (entry.events.length === 0) return;
    await this.#store.db
      .insertInto("audit_log")
      .values({
        tenant: entry.tenant,
        at: this.#store.clockSql,
        actor: entry.source,
        role: null,
        action: HOOK_RECORDS_ACTION,
        target: entry.subject,
        detail: JSON.stringify(
          mask({ outcome: entry.outcome, events: entry.events.map(({ kind, data }) => ({ kind, data })) }),
        ),
      })
      .execute();
  }

  /**
   * Takes a service's change event and records it: hand it to the services layer's change
   * wrapper, `services.onChange(runtime.audit.onChange)`.
   */
  readonly onChange = (change: AuditableChange): Promise<void> => this.record(change);

  /** The caller's tenant's entries, newest first; reading the log is an admin's. */
  async list(caller: Caller, filter: AuditFilter = {}): Promise<AuditEntry[]> {
    requireRole(caller, "admin", "read the audit log");
    await requireTenant(this.#store.db, caller.tenant);
    const limit = filter.limit ?? DEFAULT_LIMIT;
    if (!Number.isSafeInteger(limit) || limit < 1) {
      throw new Oz0Error("INVALID_INPUT", `limit ${limit}: it takes a whole number of 1 or more.`, {
        data: { issues: [{ path: "limit", message: "a whole number of 1 or more" }] },
      });
    }
    let query = this.#store.db
      .selectFrom("audit_log")
      .selectAll()
      .where("tenant", "=", caller.tenant)
      .orderBy("seq", "desc")
      .limit(limit);
    if (filter.since !== undefined) query = query.where("at", ">=", filter.since);
    if (filter.actor !== undefined) query = query.where("actor", "=", filter.actor);
    if (filter.action !== undefined) {
      const noun = filter.action.replace(/\.\*$/, "");
      // "key" or "key.*": every action from "key." up to, not including, "key/" ('/' follows '.').
      query =
        filter.action.includes(".") && !filter.action.endsWith(".*")
          ? query.where("action", "=", filter.action)
          : query.where("action", ">", `${noun}.`).where("action", "<", `${noun}/`);
    }
    const rows = await query.execute();
    return rows.map((row) => ({
      seq: Number(row.seq),
      tenant: row.tenant,
      at: Number(row.at),
      actor: row.actor,
      role: row.role,
      action: row.action,
      target: row.target,
      detail: JSON.parse(row.detail) as Record<string, unknown>,
    }));
  }
}

/** A copy of `value` with every field whose name says it holds a credential masked, at any depth. */
export function mask(value: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(value)) {
    out[name] = SECRET_FIELD.test(name) ? MASKED : maskValue(field);
  }
  return out;
}

function maskValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskValue);
  if (value !== null && typeof value === "object") return mask(value as Record<string, unknown>);
  return value;
}
