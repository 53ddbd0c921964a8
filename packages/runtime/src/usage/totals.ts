// Model-call usage: totals per tenant, agent, model and hour, which the store keeps as each
// model_call event is inserted (migrations 7 and 28), read back over any period; and a job's own
// totals, from its history. Budgets read both through the pre_llm_call payload's `usage`.
import type { HookPayload } from "@oz0/sdk";
import { CompiledQuery, sql, type Transaction } from "kysely";
import type { Database, Store } from "../store/index.js";

type UsageView = NonNullable<HookPayload<"pre_llm_call">["usage"]>;
export type UsageTotals = UsageView["job"];
export type UsageQuery = Parameters<UsageView["tenant"]>[0];
type ModelTotals = UsageTotals["byModel"][string];

const HOUR_MS = 3_600_000;

/** The start of the hour `at` falls in, as the totals are kept by. */
export function hourOf(at: number): number {
  return Math.floor(at / HOUR_MS) * HOUR_MS;
}

/** One model call's share of the totals, as a model_call event records it. */
export interface CallUsage {
  readonly model: string;
  readonly input: number;
  readonly output: number;
  readonly costUsd: number;
}

/**
 * What a model_call event adds to its tenant's totals, as the store counts it (migrations 7 and
 * 28): its model, its usage and cost (0 where it says none); undefined for any other event, and
 * for a model_call that names no model.
 */
export function modelCallUsage(entry: {
  readonly kind: string;
  readonly data: unknown;
}): CallUsage | undefined {
  if (entry.kind !== "model_call") return undefined;
  const data = entry.data as {
    model?: unknown;
    usage?: { input?: unknown; output?: unknown };
    cost_usd?: unknown;
  } | null;
  if (typeof data?.model !== "string") return undefined;
  const number = (value: unknown) => (typeof value === "number" ? value : 0);
  return {
    model: data.model,
    input: number(data.usage?.input),
    output: number(data.usage?.output),
    costUsd: number(data.cost_usd),
  };
}

/** The model calls among `events`, or undefined when there are none (most writes). */
export function callsIn(
  events: readonly { readonly kind: string; readonly data: unknown }[],
): CallUsage[] | undefined {
  let calls: CallUsage[] | undefined;
  for (const entry of events) {
    // A server's sampling request during an MCP call is a model call of the job too.
    if (entry.kind !== "model_call" && entry.kind !== "mcp_sampling" && entry.kind !== "memory_summary")
      continue;
    const data = entry.data as {
      model: string;
      usage?: { input: number; output: number; cost_usd?: number };
      cost_usd?: number;
    };
    if (data.usage === undefined) continue;
    calls ??= [];
    calls.push({
      model: data.model,
      input: data.usage.input,
      output: data.usage.output,
      costUsd: data.cost_usd ?? data.usage.cost_usd ?? 0,
    });
  }
  return calls;
}

/**
 * Adds one model call made inside a function call (a server's sampling, a memory provider's
 * summary) to the tenant's totals, in the transaction of the event that records it, as the
 * store's trigger does for a model_call.
 */
export async function countCall(
  trx: Transaction<Database>,
  at: { readonly tenant: string; readonly agent: string; readonly now: number },
  call: CallUsage,
): Promise<void> {
  await trx
    .insertInto("usage_totals")
    .values({
      tenant: at.tenant,
      agent: at.agent,
      model: call.model,
      hour: hourOf(at.now),
      input_tokens: call.input,
      output_tokens: call.output,
      model_calls: 1,
      cost_usd: call.costUsd,
    })
    .onConflict((conflict) =>
      conflict.columns(["tenant", "agent", "model", "hour", "slot"]).doUpdateSet({
        input_tokens: sql`usage_totals.input_tokens + excluded.input_tokens`,
        output_tokens: sql`usage_totals.output_tokens + excluded.output_tokens`,
        model_calls: sql`usage_totals.model_calls + 1`,
        cost_usd: sql`usage_totals.cost_usd + excluded.cost_usd`,
      }),
    )
    .execute();
}

/**
 * SQLite's count of one model_call in its tenant's totals (migration 28), for the transaction
 * that inserts the event: to its agent's and model's row of the hour of the event's own `at`, as
 * migration 7's trigger counted it.
 */
const SQLITE_CALL_COUNT = `insert into usage_totals (tenant, agent, model, hour, slot, input_tokens, output_tokens, model_calls, cost_usd)
  select j.tenant, j.plugin || '/' || j.name, ?, (e.at / ${HOUR_MS}) * ${HOUR_MS}, 0, ?, ?, 1, ?
  from jobs j join job_events e on e.job_id = j.id and e.seq = ? where j.id = ?
  on conflict (tenant, agent, model, hour, slot) do update set
  input_tokens = usage_totals.input_tokens + excluded.input_tokens,
  output_tokens = usage_totals.output_tokens + excluded.output_tokens,
  model_calls = usage_totals.model_calls + 1,
  cost_usd = usage_totals.cost_usd + excluded.cost_usd`;

/** The statement counting `call`, the model_call at `seq` of job `job`, on SQLite. */
export function sqliteCallCount(job: string, seq: number, call: CallUsage): CompiledQuery {
  return CompiledQuery.raw(SQLITE_CALL_COUNT, [call.model, call.input, call.output, call.costUsd, seq, job]);
}

/**
 * The tenant's totals since `query.since` (rounded down to its hour), of one agent when given.
 * What is over (the hours more than CLOSED_AFTER_MS gone, by the database's clock) no longer
 * changes, so the process keeps its sum and reads only the hours since, at most two; the first
 * read of a period sums the days over from their rows in usage_days (made by the first read
 * that finds them missing) and the hours of usage_totals around them. So a read costs the same
 * at the end of a month as at its start, however many hours and agents it holds.
 */
export async function tenantUsage(store: Store, tenant: string, query: UsageQuery): Promise<UsageTotals> {
  const reads = usageReadsOf(store);
  const since = hourOf(query.since);
  const { agent } = query;
  // Known without an await at nearly every read: an await is a turn of the event loop.
  const through = knownDaysSummed(reads, tenant) ?? (await daysSummed(store, reads, tenant));
  const closedUntil = Math.max(since, hourOf(databaseNow(reads) - CLOSED_AFTER_MS));
  const key = `${since} ${agent ?? ""} ${tenant}`;
  let closed = reads.closed.get(key);
  if (closed === undefined || closed.until < closedUntil) {
    const rows =
      closed !== undefined
        ? [
            ...closed.rows,
            ...(await sums(store, reads, "usage_totals", tenant, agent, closed.until, closedUntil)),
          ]
        : await closedSince(store, reads, { tenant, agent, since, through, until: closedUntil });
    closed = { until: closedUntil, rows: byModel(rows) };
    // A process reads few periods of few agents; the bound keeps a long-lived one from holding more.
    if (reads.closed.size >= CLOSED_KEPT) reads.closed.clear();
    reads.closed.set(key, closed);
  }
  const open = await sums(store, reads, "usage_totals", tenant, agent, closed.until);
  return totalsOf(open.length === 0 ? closed.rows : [...closed.rows, ...open]);
}

/** The calls from `since` to `until`, by model, read from `periodRanges`. */
async function closedSince(
  store: Store,
  reads: UsageReads,
  range: {
    readonly tenant: string;
    readonly agent: string | undefined;
    readonly since: number;
    readonly through: number;
    readonly until: number;
  },
): Promise<ModelRow[]> {
  const { tenant, agent, since, through, until } = range;
  // A period that began within the hours still open (an hour's budget) has nothing over yet.
  if (since >= until) return [];
  const rows: ModelRow[] = [];
  for (const part of periodRanges(since, through, until))
    rows.push(...(await sums(store, reads, part.table, tenant, agent, part.from, part.until)));
  return rows;
}

/** Rows of one table over a range of its hours or days: [from, until), or from `from` on. */
interface TableRange {
  readonly table: "usage_totals" | "usage_days";
  readonly from: number;
  readonly until?: number | undefined;
}

/**
 * Where the calls from the hour `since` (to `until`, or on) are read: the days summed within
 * them (every day before `through`) from usage_days, the hours before and after those days
 * from usage_totals, oldest first.
 */
function periodRanges(since: number, through: number, until?: number): TableRange[] {
  const firstDay = Math.ceil(since / DAY_MS) * DAY_MS;
  if (through <= firstDay || (until !== undefined && through > until))
    return [{ table: "usage_totals", from: since, until }];
  return [
    ...(since < firstDay ? [{ table: "usage_totals", from: since, until: firstDay } as const] : []),
    { table: "usage_days", from: firstDay, until: through },
    { table: "usage_totals", from: through, until },
  ];
}

type ModelRow = ModelTotals & { readonly model: string };

/** `rows` with each model's added into one. */
function byModel(rows: readonly ModelRow[]): ModelRow[] {
  const totals = totalsOf(rows);
  return Object.entries(totals.byModel).map(([model, row]) => ({ model, ...row }));
}

interface UsageRow {
  readonly model: string;
  readonly input: number;
  readonly output: number;
  readonly calls: number;
  readonly cost: number;
}

/** A table's rows of the tenant (and agent) from `from` (an hour or a day) on, or until `until`, summed by model. */
async function sums(
  store: Store,
  reads: UsageReads,
  table: "usage_totals" | "usage_days",
  tenant: string,
  agent: string | undefined,
  from: number,
  until?: number,
): Promise<ModelRow[]> {
  const parameters: unknown[] = [tenant, from];
  if (until !== undefined) parameters.push(until);
  if (agent !== undefined) parameters.push(agent);
  const text = usageRead(store, reads, table, until !== undefined, agent !== undefined);
  const { rows } = await store.run<UsageRow>(CompiledQuery.raw(text, parameters));
  return rows.map((row) => ({
    model: row.model,
    inputTokens: Number(row.input),
    outputTokens: Number(row.output),
    modelCalls: Number(row.calls),
    costUsd: Number(row.cost),
  }));
}

const DAY_MS = 24 * HOUR_MS;

/**
 * How long after an hour (or a day) ends it is taken as over. A call counts in the hour its
 * write's statement began, by the database's clock, and is there once that write commits: an
 * hour later its last writes have landed, and a write that took longer goes uncounted by the
 * processes that took its hour as over, and by its day's row.
 */
const CLOSED_AFTER_MS = HOUR_MS;

const CLOSED_KEPT = 4096;

/** The start of the UTC day `at` falls in. */
export function dayOf(at: number): number {
  return Math.floor(at / DAY_MS) * DAY_MS;
}

/** A store's compiled reads of the totals, and what it keeps of each tenant's calls. */
interface UsageReads {
  /** By `usageRead`'s index. */
  readonly texts: (string | undefined)[];
  /** The database's clock less this process's, as the last look at the days found it. */
  offsetMs: number;
  /** Per tenant: every day before `through` is summed, as found when `due` was the last day due. */
  readonly summed: Map<string, { readonly through: number; readonly due: number }>;
  /** Per tenant, the look (and sum) under way, which reads at once share. */
  readonly summing: Map<string, Promise<number>>;
  /** The calls of a period (since, agent, tenant) that are over: all before `until`, by model. */
  readonly closed: Map<string, { readonly until: number; readonly rows: readonly ModelRow[] }>;
}

const usageReads = new WeakMap<Store, UsageReads>();

function usageReadsOf(store: Store): UsageReads {
  let reads = usageReads.get(store);
  if (reads === undefined) {
    reads = { texts: [], offsetMs: 0, summed: new Map(), summing: new Map(), closed: new Map() };
    usageReads.set(store, reads);
  }
  return reads;
}

/** The database's clock by this process's, as last measured. */
function databaseNow(reads: UsageReads): number {
  return Date.now() + reads.offsetMs;
}

/**
 * The statement summing a table's rows by model over a range, of one agent when `agent`,
 * compiled once per store: a budget reads the totals before every model call.
 */
function usageRead(
  store: Store,
  reads: UsageReads,
  table: "usage_totals" | "usage_days",
  until: boolean,
  agent: boolean,
): string {
  const index = (table === "usage_days" ? 4 : 0) + (until ? 2 : 0) + (agent ? 1 : 0);
  const known = reads.texts[index];
  if (known !== undefined) return known;
  const column = table === "usage_days" ? "day" : "hour";
  let query = store.db
    .selectFrom(table)
    .select([
      "model",
      sql<number>`cast(sum(input_tokens) as bigint)`.as("input"),
      sql<number>`cast(sum(output_tokens) as bigint)`.as("output"),
      sql<number>`cast(sum(model_calls) as bigint)`.as("calls"),
      sql<number>`sum(cost_usd)`.as("cost"),
    ])
    .where("tenant", "=", "")
    .where(column, ">=", 0);
  if (until) query = query.where(column, "<", 0);
  if (agent) query = query.where("agent", "=", "");
  const text = query.groupBy("model").orderBy("model").compile().sql;
  reads.texts[index] = text;
  return text;
}

/** The first day of `tenant` not summed, when this process looked since the last day came due. */
function knownDaysSummed(reads: UsageReads, tenant: string): number | undefined {
  const known = reads.summed.get(tenant);
  return known !== undefined && known.due >= dayOf(databaseNow(reads) - CLOSED_AFTER_MS)
    ? known.through
    : undefined;
}

/**
 * The first day of `tenant` not summed in usage_days, looked up (and the days due summed) once
 * per process and day; reads that need it at once wait for one look.
 */
async function daysSummed(store: Store, reads: UsageReads, tenant: string): Promise<number> {
  let summing = reads.summing.get(tenant);
  if (summing === undefined) {
    summing = sumDaysOver(store, reads, tenant).finally(() => reads.summing.delete(tenant));
    reads.summing.set(tenant, summing);
  }
  const through = await summing;
  reads.summed.set(tenant, { through, due: dayOf(databaseNow(reads) - CLOSED_AFTER_MS) });
  return through;
}

/**
 * Sums into usage_days each day of `tenant` that is over by the database's clock and not yet
 * summed, and answers the first day left. A day's row is made once: the tenant's mark is held
 * while its days are summed (SQLite's transaction runs whole within one turn, where another
 * connection of the process waiting for its lock would stop the turn that holds it), and a day
 * over no longer changes.
 */
async function sumDaysOver(store: Store, reads: UsageReads, tenant: string): Promise<number> {
  const now = await store.now();
  reads.offsetMs = now - Date.now();
  const due = dayOf(now - CLOSED_AFTER_MS);
  const statements = rollupStatements(store, tenant, due);
  const [mark] = (await store.run<Mark>(statements.peek)).rows;
  if (mark !== undefined && Number(mark.through) >= due) return Number(mark.through);
  if (store.transactionNow !== undefined) {
    return store.transactionNow((run) => {
      run(statements.mark);
      const from = markOf(run<Mark>(statements.hold).rows, due);
      if (from >= due) return from;
      run(statements.sum(from));
      run(statements.advance);
      return due;
    });
  }
  return store.db.transaction().execute(async (trx) => {
    await trx.executeQuery(statements.mark);
    const from = markOf((await trx.executeQuery<Mark>(statements.hold)).rows, due);
    if (from >= due) return from;
    await trx.executeQuery(statements.sum(from));
    await trx.executeQuery(statements.advance);
    return due;
  });
}

interface Mark {
  readonly through: number;
}

/** Where the tenant's days are summed to; `due` for a tenant that does not exist, which has nothing to sum. */
function markOf(rows: readonly Mark[], due: number): number {
  return rows[0] === undefined ? due : Number(rows[0].through);
}

/** The statements summing `tenant`'s days up to `due`. */
function rollupStatements(store: Store, tenant: string, due: number) {
  const db = store.db;
  const read = db.selectFrom("usage_rollups").select("through").where("tenant", "=", tenant);
  const day = sql.raw(`(hour / ${DAY_MS}) * ${DAY_MS}`);
  return {
    peek: read.compile(),
    /** The tenant's mark, made at 0 (nothing summed) the first time, when the tenant exists. */
    mark: db
      .insertInto("usage_rollups")
      .columns(["tenant", "through"])
      .expression(
        db
          .selectFrom("tenants")
          .select(["name", sql.lit(0).as("through")])
          .where("name", "=", tenant),
      )
      .onConflict((conflict) => conflict.column("tenant").doNothing())
      .compile(),
    hold: (store.engine === "postgres" ? read.forUpdate() : read).compile(),
    sum: (from: number) =>
      sql`insert into usage_days (tenant, day, agent, model, input_tokens, output_tokens, model_calls, cost_usd)
        select tenant, ${day}, agent, model, sum(input_tokens), sum(output_tokens), sum(model_calls), sum(cost_usd)
        from usage_totals where tenant = ${tenant} and hour >= ${from} and hour < ${due}
        group by tenant, ${day}, agent, model
        on conflict (tenant, day, agent, model) do nothing`.compile(db),
    advance: db.updateTable("usage_rollups").set({ through: due }).where("tenant", "=", tenant).compile(),
  };
}

/** Keeps a job's totals by model as its model_call events are replayed and written. */
export class JobUsage {
  readonly #byModel = new Map<string, { input: number; output: number; calls: number; cost: number }>();
  #view: UsageTotals | undefined;

  add(calls: readonly CallUsage[]): void {
    for (const call of calls) {
      const found = this.#byModel.get(call.model);
      if (found === undefined) {
        this.#byModel.set(call.model, {
          input: call.input,
          output: call.output,
          calls: 1,
          cost: call.costUsd,
        });
      } else {
        found.input += call.input;
        found.output += call.output;
        found.calls += 1;
        found.cost += call.costUsd;
      }
    }
    this.#view = undefined;
  }

  /** The totals as the payload shows them, built once per change. */
  totals(): UsageTotals {
    this.#view ??= totalsOf(
      [...this.#byModel].map(([model, t]) => ({
        model,
        inputTokens: t.input,
        outputTokens: t.output,
        modelCalls: t.calls,
        costUsd: t.cost,
      })),
    );
    return this.#view;
  }
}

/** The totals of `rows`, a model's rows added together (a read's ranges give one each). */
function totalsOf(rows: readonly ModelRow[]): UsageTotals {
  const byModel: Record<string, ModelTotals> = {};
  let inputTokens = 0;
  let outputTokens = 0;
  let modelCalls = 0;
  let costUsd = 0;
  for (const { model, ...totals } of rows) {
    const earlier = byModel[model];
    byModel[model] = Object.freeze(
      earlier === undefined
        ? totals
        : {
            inputTokens: earlier.inputTokens + totals.inputTokens,
            outputTokens: earlier.outputTokens + totals.outputTokens,
            modelCalls: earlier.modelCalls + totals.modelCalls,
            costUsd: earlier.costUsd + totals.costUsd,
          },
    );
    inputTokens += totals.inputTokens;
    outputTokens += totals.outputTokens;
    modelCalls += totals.modelCalls;
    costUsd += totals.costUsd;
  }
  return Object.freeze({ inputTokens, outputTokens, modelCalls, costUsd, byModel: Object.freeze(byModel) });
}

/** One agent's calls of one model in one hour, or in one UTC day that is over. */
export interface UsageRecord {
  readonly agent: string;
  readonly model: string;
  /** The hour's or the day's start, epoch milliseconds. */
  readonly start: number;
  readonly span: "hour" | "day";
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly modelCalls: number;
  readonly costUsd: number;
}

/**
 * The tenant's totals per agent, model and hour since `since` (rounded down to its hour), the
 * days over after it per day (their rows in usage_days, made first where missing): a month's
 * report reads a row per agent and model for each day, not each hour. Oldest first.
 */
export async function usageRecords(store: Store, tenant: string, since: number): Promise<UsageRecord[]> {
  const reads = usageReadsOf(store);
  const through = knownDaysSummed(reads, tenant) ?? (await daysSummed(store, reads, tenant));
  const records: UsageRecord[] = [];
  for (const part of periodRanges(hourOf(since), through))
    records.push(...(await recordsOf(store, part.table, tenant, part.from, part.until)));
  return records;
}

/** A table's rows of the tenant from `from` on, or until `until`, summed by agent, model and hour or day. */
async function recordsOf(
  store: Store,
  table: "usage_totals" | "usage_days",
  tenant: string,
  from: number,
  until?: number,
): Promise<UsageRecord[]> {
  // An hour's calls of an agent and model may be spread over several rows (migration 26).
  const span = table === "usage_days" ? "day" : "hour";
  let query = store.db
    .selectFrom(table)
    .select([
      "agent",
      "model",
      sql<number>`${sql.ref(span)}`.as("start"),
      sql<number>`cast(sum(input_tokens) as bigint)`.as("input"),
      sql<number>`cast(sum(output_tokens) as bigint)`.as("output"),
      sql<number>`cast(sum(model_calls) as bigint)`.as("calls"),
      sql<number>`sum(cost_usd)`.as("cost"),
    ])
    .where("tenant", "=", tenant)
    .where(span, ">=", from);
  if (until !== undefined) query = query.where(span, "<", until);
  const rows = await query
    .groupBy(["agent", "model", span])
    .orderBy(span)
    .orderBy("agent")
    .orderBy("model")
    .execute();
  return rows.map((row) => ({
    agent: row.agent,
    model: row.model,
    start: Number(row.start),
    span,
    inputTokens: Number(row.input),
    outputTokens: Number(row.output),
    modelCalls: Number(row.calls),
    costUsd: Number(row.cost),
  }));
}
