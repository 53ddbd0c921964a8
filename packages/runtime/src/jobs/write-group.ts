// The step writes of a process's jobs on PostgreSQL, grouped: while GROUP_FLYING writes are on
// their way to the server, the writes other jobs ask for meanwhile wait, and go next as one
// statement, one round trip and one commit for all of them. Each job's write in it is the statement it would
// be alone (its owner check holding the job's row, then the insert of its events from that
// row); a writer whose lease is gone gets no row back, and only its write is refused. A job's
// write resolves only once the statement that holds it committed: what is acknowledged is
// durable, and a crash in the middle commits none of the group. When the group's statement
// fails as a whole (a fault, or a deadlock with another group over the usage totals that the
// model calls of several agents update), each write in it is run again alone and gets its own
// answer.
import { CompiledQuery, type Kysely } from "kysely";
import type { Database } from "../store/index.js";

/** One job's events, under its lease, to append as one write of a group. */
export interface GroupedWrite {
  readonly job: string;
  readonly token: string;
  readonly firstSeq: number;
  readonly events: readonly { readonly kind: string; readonly data: string }[];
  /** Messages on the store's broadcast channel, a JSON list, sent by the write's own statement (at its commit). */
  readonly notice?: string | undefined;
}

/** What the write's owner check found: undefined when the lease is no longer the writer's. */
export interface GroupedRow {
  readonly cancel_requested_by: string | null;
  /** Hooks' records waiting for this job's worker (job_notes), which its next write moves in. */
  readonly notes_pending: number | null;
  readonly now: number;
  readonly governance_version: number | null;
}

/** The most writes one statement carries; more wait for the next. */
export const GROUP_MOST = 32;

/**
 * How many statements may be on their way at once before writes wait to go together. PostgreSQL
 * already flushes the commits of several connections in one go, so a few jobs writing at once
 * are quickest each on a connection of its own; past this many (of the pool's ten, leaving room
 * for reads), a write waits for the next free turn together with the others waiting.
 */
export const GROUP_FLYING = 8;

interface Waiting {
  readonly write: GroupedWrite;
  resolve(row: GroupedRow | undefined): void;
  reject(error: unknown): void;
}

export class WriteGroup {
  readonly #db: Kysely<Database>;
  readonly #clock: string;
  readonly #texts = new Map<string, string>();
  #waiting: Waiting[] = [];
  /** Statements on their way now. */
  #flying = 0;
  /** Statements sent, and the writes they carried: what the tests and the bench count. */
  readonly sent = { statements: 0, writes: 0 };

  readonly #notify: string;

  /** `clock` is the engine's clock in epoch milliseconds, as SQL; `channel` the broadcast's NOTIFY channel. */
  constructor(db: Kysely<Database>, clock: string, channel: string | undefined) {
    this.#db = db;
    this.#clock = clock;
    this.#notify = notifyColumn(channel);
  }

  /** Appends `write`'s events under its owner check, alone or with the writes of other jobs. */
  write(write: GroupedWrite): Promise<GroupedRow | undefined> {
    return new Promise((resolve, reject) => {
      this.#waiting.push({ write, resolve, reject });
      if (this.#flying < GROUP_FLYING) void this.#drain();
    });
  }

  async #drain(): Promise<void> {
    this.#flying++;
    try {
      while (this.#waiting.length > 0) {
        const group = this.#waiting.splice(0, GROUP_MOST);
        await this.#send(group);
      }
    } finally {
      this.#flying--;
    }
  }

  async #send(group: readonly Waiting[]): Promise<void> {
    let rows: readonly (GroupedRow & { slot: number })[];
    try {
      rows = await this.#run(group.map((waiting) => waiting.write));
    } catch (error) {
      if (group.length === 1) {
        group[0]!.reject(error);
        return;
      }
      // Nothing of the group committed: each write goes again alone, and answers for itself.
      await Promise.all(
        group.map(async (waiting) => {
          try {
            const [row] = await this.#run([waiting.write]);
            waiting.resolve(row);
          } catch (alone) {
            waiting.reject(alone);
          }
        }),
      );
      return;
    }
    const bySlot = new Map(rows.map((row) => [Number(row.slot), row]));
    group.forEach((waiting, index) => {
      waiting.resolve(bySlot.get(index));
    });
  }

  async #run(writes: readonly GroupedWrite[]): Promise<(GroupedRow & { slot: number })[]> {
    const parameters: unknown[] = [];
    for (const write of writes) {
      parameters.push(write.job, write.token, write.notice ?? null);
      write.events.forEach((entry, index) => {
        parameters.push(write.firstSeq + index, entry.kind, entry.data);
      });
    }
    this.sent.statements++;
    this.sent.writes += writes.length;
    const { rows } = await this.#db.executeQuery<GroupedRow & { slot: number }>(
      CompiledQuery.raw(this.#text(writes.map((write) => write.events.length)), parameters),
    );
    return rows;
  }

  /**
   * The statement of writes of `counts` events each, made once per shape. Slot `i`'s owner
   * check locks its job's row only while the lease is the writer's (as a claim's update would
   * wait for it), and its events are inserted from the row it returned, so a lost lease
   * inserts nothing; each slot answers with one row, or none.
   */
  #text(counts: readonly number[]): string {
    const key = counts.join(",");
    let text = this.#texts.get(key);
    if (text !== undefined) return text;
    let next = 1;
    const parameter = () => `$${next++}`;
    const ctes: string[] = [];
    const answers: string[] = [];
    counts.forEach((count, slot) => {
      const job = parameter();
      const token = parameter();
      const notice = parameter();
      ctes.push(
        `o${slot} as (select "id", "tenant", "cancel_requested_by", "notes_pending" from "jobs" where "id" = ${job} and "lease_owner" = ${token} and "status" = 'running' for no key update)`,
      );
      const values = Array.from(
        { length: count },
        () => `(cast(${parameter()} as integer), cast(${parameter()} as text), cast(${parameter()} as text))`,
      );
      ctes.push(
        `i${slot} as (insert into "job_events" ("job_id", "seq", "kind", "data", "at") select o${slot}."id", v."seq", v."kind", v."data", ${this.#clock} from o${slot}, (values ${values.join(", ")}) as v("seq", "kind", "data") returning "seq")`,
      );
      // Each slot's insert is referenced, so that its failure is the statement's.
      answers.push(
        `select ${slot} as "slot", o${slot}."cancel_requested_by", o${slot}."notes_pending", ${this.#clock} as "now", (select "governance_version" from "tenants" where "name" = o${slot}."tenant") as "governance_version", (select count(*) from i${slot}) as "inserted", ${this.#notify.replaceAll("$notice", () => notice).replaceAll("$job", () => `o${slot}."id"`)} as "noticed" from o${slot}`,
      );
    });
    text = `with ${ctes.join(", ")} ${answers.join(" union all ")}`;
    this.#texts.set(key, text);
    if (this.#texts.size > SHAPES_KEPT) {
      const oldest = this.#texts.keys().next().value;
      if (oldest !== undefined) this.#texts.delete(oldest);
    }
    return text;
  }
}

/** Group shapes whose statement is kept; jobs of a process write a few shapes over and over. */
const SHAPES_KEPT = 128;

/**
 * A write's column that sends its notice (`$notice`: a JSON list of messages, in order; null for
 * none) on `channel` when the write's owner check found the lease the writer's, and a process
 * follows the job (`$job`, the SQL of its ID; migration 27): a writer that lost it tells no one,
 * and a notice nobody follows is not sent, so the commit takes no part in those PostgreSQL
 * flushes one at a time. The messages are heard once the statement commits, and not at all
 * when it fails.
 */
export function notifyColumn(channel: string | undefined): string {
  if (channel === undefined) return "case when cast($notice as text) is null then null end";
  const literal = `'${channel.replaceAll("'", "''")}'`;
  return `case when cast($notice as text) is null or not exists (select 1 from "job_followers" where "job_followers"."job_id" = $job) then null else (select cast(count(pg_notify(${literal}, m.message)) as text) from json_array_elements_text(cast(cast($notice as text) as json)) as m(message)) end`;
}
