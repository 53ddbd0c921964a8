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

/** The tenant's totals since `query.since` (rounded down to its hour), of one agent when given. */
export async function tenantUsage(store: Store, tenant: string, query: UsageQuery): Promise<UsageTotals> {
  const queries = usageQueriesOf(store);
  const { rows } = await store.run<UsageRow>(
    query.agent === undefined
      ? CompiledQuery.raw(queries.tenant, [tenant, hourOf(query.since)])
      : CompiledQuery.raw(queries.agent, [tenant, hourOf(query.since), query.agent]),
  );
  return totalsOf(
    rows.map((row) => ({
      model: row.model,
      inputTokens: Number(row.input),
      outputTokens: Number(row.output),
      modelCalls: Number(row.calls),
      costUsd: Number(row.cost),
    })),
  );
}

interface UsageRow {
  readonly model: string;
  readonly input: number;
  readonly output: number;
  readonly calls: number;
  readonly cost: number;
}

/** The totals' queries, compiled once per store: a budget reads them before every model call. */
const usageQueries = new WeakMap<Store, { readonly tenant: string; readonly agent: string }>();

function usageQueriesOf(store: Store): { readonly tenant: string; readonly agent: string } {
  let queries = usageQueries.get(store);
  if (queries === undefined) {
    const select = (agent: boolean) => {
      let query = store.db
        .selectFrom("usage_totals")
        .select([
          "model",
          sql<number>`cast(sum(input_tokens) as bigint)`.as("input"),
          sql<number>`cast(sum(output_tokens) as bigint)`.as("output"),
          sql<number>`cast(sum(model_calls) as bigint)`.as("calls"),
          sql<number>`sum(cost_usd)`.as("cost"),
        ])
        .where("tenant", "=", "")
        .where("hour", ">=", 0);
      if (agent) query = query.where("agent", "=", "");
      return query.groupBy("model").orderBy("model").compile().sql;
    };
    queries = { tenant: select(false), agent: select(true) };
    usageQueries.set(store, queries);
  }
  return queries;
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

function totalsOf(rows: readonly (ModelTotals & { readonly model: string })[]): UsageTotals {
  const byModel: Record<string, ModelTotals> = {};
  let inputTokens = 0;
  let outputTokens = 0;
  let modelCalls = 0;
  let costUsd = 0;
  for (const { model, ...totals } of rows) {
    byModel[model] = Object.freeze(totals);
    inputTokens += totals.inputTokens;
    outputTokens += totals.outputTokens;
    modelCalls += totals.modelCalls;
    costUsd += totals.costUsd;
  }
  return Object.freeze({ inputTokens, outputTokens, modelCalls, costUsd, byModel: Object.freeze(byModel) });
}

/** One agent's calls of one model in one hour, as the totals keep them. */
export interface UsageRecord {
  readonly agent: string;
  readonly model: string;
  /** The hour's start, epoch milliseconds. */
  readonly hour: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly modelCalls: number;
  readonly costUsd: number;
}

/** The tenant's totals per agent, model and hour since `since` (rounded down to its hour). */
export async function usageRecords(store: Store, tenant: string, since: number): Promise<UsageRecord[]> {
  // An hour's calls of an agent and model may be spread over several rows (migration 26).
  const rows = await store.db
    .selectFrom("usage_totals")
    .select([
      "agent",
      "model",
      "hour",
      sql<number>`cast(sum(input_tokens) as bigint)`.as("input"),
      sql<number>`cast(sum(output_tokens) as bigint)`.as("output"),
      sql<number>`cast(sum(model_calls) as bigint)`.as("calls"),
      sql<number>`sum(cost_usd)`.as("cost"),
    ])
    .where("tenant", "=", tenant)
    .where("hour", ">=", hourOf(since))
    .groupBy(["agent", "model", "hour"])
    .orderBy("hour")
    .orderBy("agent")
    .orderBy("model")
    .execute();
  return rows.map((row) => ({
    agent: row.agent,
    model: row.model,
    hour: Number(row.hour),
    inputTokens: Number(row.input),
    outputTokens: Number(row.output),
    modelCalls: Number(row.calls),
    costUsd: Number(row.cost),
  }));
}
