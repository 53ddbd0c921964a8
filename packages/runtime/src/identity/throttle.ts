// Rate limits on failed sign-ins, per source (the client's address) and per user (or key id).
// The counters live in the store, not in memory: every server process and node sharing the
// database counts the same failures, and a restart does not hand an attacker a fresh budget.
// Each bucket counts failures in a fixed window that starts with its first failure.
import { Oz0Error } from "@oz0/sdk";
import { sql } from "kysely";
import type { Store } from "../store/index.js";

export interface ThrottleOptions {
  /** Failures from one source within a window before its sign-ins are refused. Default 20. */
  readonly perSource?: number;
  /** Failures for one user or key within a window before its sign-ins are refused. Default 5. */
  readonly perUser?: number;
  /** The window, in milliseconds. Default 15 minutes. */
  readonly windowMs?: number;
}

export const THROTTLE_DEFAULTS = { perSource: 20, perUser: 5, windowMs: 15 * 60_000 } as const;

export interface Bucket {
  /** `source:<address>`, `user:<name>` or `key:<id>`. */
  readonly name: string;
  readonly limit: number;
}

export class Throttle {
  readonly #store: Store;
  readonly perSource: number;
  readonly perUser: number;
  readonly windowMs: number;

  constructor(store: Store, options: ThrottleOptions = {}) {
    this.#store = store;
    this.perSource = options.perSource ?? THROTTLE_DEFAULTS.perSource;
    this.perUser = options.perUser ?? THROTTLE_DEFAULTS.perUser;
    this.windowMs = options.windowMs ?? THROTTLE_DEFAULTS.windowMs;
  }

  /** The buckets a sign-in counts in: its source's, when known, and its user's or key's. */
  buckets(source: string | undefined, subject: string | undefined): Bucket[] {
    const buckets: Bucket[] = [];
    if (source !== undefined && source !== "")
      buckets.push({ name: `source:${source}`, limit: this.perSource });
    if (subject !== undefined) buckets.push({ name: subject, limit: this.perUser });
    return buckets;
  }

  /**
   * Refuses with TOO_MANY_REQUESTS, before any credential is checked, when a bucket has had its
   * limit of failures in the current window: even the right password waits until it ends.
   */
  async check(buckets: readonly Bucket[], now: number): Promise<void> {
    if (buckets.length === 0) return;
    const rows = await this.#store.db
      .selectFrom("auth_throttle")
      .selectAll()
      .where(
        "bucket",
        "in",
        buckets.map((bucket) => bucket.name),
      )
      .execute();
    for (const bucket of buckets) {
      const row = rows.find((each) => each.bucket === bucket.name);
      if (row === undefined) continue;
      const ends = Number(row.window_start) + this.windowMs;
      if (ends <= now || row.failures < bucket.limit) continue;
      const retryAfter = Math.max(1, Math.ceil((ends - now) / 1000));
      const which = bucket.name.startsWith("source:") ? "from this address" : "for these credentials";
      throw new Oz0Error(
        "TOO_MANY_REQUESTS",
        `Too many failed sign-ins ${which}; try again in ${retryAfter} seconds.`,
        { data: { limit: bucket.name.startsWith("source:") ? "auth.source" : "auth.user", retryAfter } },
      );
    }
  }

  /**
   * Counts a failure in each bucket, starting a new window where the last one ended. Every
   * name tried gets a bucket, known or not (a limit only known users reach would tell which
   * exist), so buckets whose window has ended are dropped here, keeping the table to what the
   * last window saw.
   */
  async fail(buckets: readonly Bucket[], now: number): Promise<void> {
    const ended = now - this.windowMs;
    await this.#store.db.deleteFrom("auth_throttle").where("window_start", "<=", ended).execute();
    for (const bucket of buckets) {
      await this.#store.db
        .insertInto("auth_throttle")
        .values({ bucket: bucket.name, window_start: now, failures: 1 })
        .onConflict((conflict) =>
          conflict.column("bucket").doUpdateSet({
            failures: sql<number>`case when auth_throttle.window_start <= ${ended} then 1 else auth_throttle.failures + 1 end`,
            window_start: sql<number>`case when auth_throttle.window_start <= ${ended} then ${now} else auth_throttle.window_start end`,
          }),
        )
        .execute();
    }
  }

  /** Forgets a user's or key's failures once it signs in; a source's stay, so one good account does not clear a spray. */
  async succeed(subject: string): Promise<void> {
    await this.#store.db.deleteFrom("auth_throttle").where("bucket", "=", subject).execute();
  }
}
