// Usage for the tenant's people: cost and tokens of its model calls per agent, model or day,
// read from the totals the store keeps as each model call is recorded. A caller limited to some
// agents is shown only its agents' calls: the others' count nowhere in what it reads.
import type { Caller } from "../callers/index.js";
import { usageRecords } from "../usage/index.js";
import { inScope, type ServiceCore, scoped } from "./core.js";

export type UsageBy = "agent" | "model" | "day";

export interface UsageReport {
  readonly by: UsageBy;
  /** The start of the first hour counted, epoch milliseconds. */
  readonly since: number;
  /** One row per agent, model or UTC day (YYYY-MM-DD), in that order; days oldest first. */
  readonly rows: readonly UsageRow[];
  readonly total: UsageAmounts;
}

export interface UsageAmounts {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly modelCalls: number;
  readonly costUsd: number;
}

export interface UsageRow extends UsageAmounts {
  readonly key: string;
}

const DAY_MS = 86_400_000;

export class UsageService {
  readonly #core: ServiceCore;

  constructor(core: ServiceCore) {
    this.#core = core;
  }

  /** The tenant's usage since `since` (default: the last 30 days), grouped `by`. */
  async report(
    caller: Caller,
    query: { readonly by: UsageBy; readonly since?: number | undefined },
  ): Promise<UsageReport> {
    const tenant = this.#core.check(caller, "usage.report");
    const since = query.since ?? Date.now() - 30 * DAY_MS;
    let records = await usageRecords(this.#core.deps.store, tenant, since);
    if (scoped(caller)) {
      const tags = new Map(
        (await this.#core.deps.catalog.entries(tenant))
          .filter((entry) => entry.kind === "agent")
          .map((entry) => [entry.address, entry.tags]),
      );
      records = records.filter((record) =>
        inScope(caller, { address: record.agent, tags: tags.get(record.agent) }),
      );
    }
    const keyOf =
      query.by === "agent"
        ? (record: (typeof records)[number]) => record.agent
        : query.by === "model"
          ? (record: (typeof records)[number]) => record.model
          : (record: (typeof records)[number]) => new Date(record.start).toISOString().slice(0, 10);
    const rows = new Map<
      string,
      { inputTokens: number; outputTokens: number; modelCalls: number; costUsd: number }
    >();
    const total = { inputTokens: 0, outputTokens: 0, modelCalls: 0, costUsd: 0 };
    for (const record of records) {
      const key = keyOf(record);
      let row = rows.get(key);
      if (row === undefined) {
        row = { inputTokens: 0, outputTokens: 0, modelCalls: 0, costUsd: 0 };
        rows.set(key, row);
      }
      for (const into of [row, total]) {
        into.inputTokens += record.inputTokens;
        into.outputTokens += record.outputTokens;
        into.modelCalls += record.modelCalls;
        into.costUsd += record.costUsd;
      }
    }
    const keys = [...rows.keys()].sort();
    return {
      by: query.by,
      since: Math.floor(since / 3_600_000) * 3_600_000,
      rows: keys.map((key) => ({ key, ...rows.get(key)! })),
      total,
    };
  }
}
