// The budget: token and cost ceilings per job, per agent and per tenant over a period,
// checked on pre_llm_call BEFORE each model call. A call counts its estimated prompt tokens
// plus a reserve for its reply, so a run stops at its ceiling instead of going past it.
import { BudgetContract, type HookPayload, PolicyViolation, plugin } from "@oz0/sdk";
import { type BudgetConfig, DEFAULT_OUTPUT_RESERVE, type Period } from "./config.js";
import { periodStart } from "./periods.js";

type PreLlmCall = HookPayload<"pre_llm_call">;
type UsageView = NonNullable<PreLlmCall["usage"]>;
type UsageTotals = UsageView["job"];
type Ceiling = { readonly tokens?: number | undefined; readonly usd?: number | undefined };
type Price = { readonly input: number; readonly output: number };

const NO_USAGE: UsageTotals = { inputTokens: 0, outputTokens: 0, modelCalls: 0, costUsd: 0, byModel: {} };
const PER_MILLION = 1_000_000;

/** One ceiling a call is checked against: which scope, over which calls. */
interface Scope {
  readonly scope: "job" | "agent" | "tenant";
  readonly ceiling: Ceiling;
  readonly period?: Period;
  readonly used: () => Promise<UsageTotals>;
}

export interface BudgetOptions {
  /** The clock periods are read from; `Date.now` when left out. */
  readonly now?: () => number;
}

/**
 * Refuses a model call that would take a job, an agent or the tenant past a ceiling, with
 * PolicyViolation("budget", "Token ceiling exceeded" | "Cost ceiling exceeded", details).
 * @example host.addContract(new BudgetGovernance({ job: { tokens: 20_000 }, tenant: { usd: 50 } }));
 */
export class BudgetGovernance extends BudgetContract {
  readonly #config: BudgetConfig;
  readonly #now: () => number;

  constructor(config: BudgetConfig = {}, options: BudgetOptions = {}) {
    super();
    this.#config = config;
    this.#now = options.now ?? Date.now;
  }

  /** Whether any ceiling is set; a budget without one has nothing to check. */
  get active(): boolean {
    const { job, agent, agents, tenant } = this.#config;
    return [job, agent, tenant, ...Object.values(agents ?? {})].some(
      (ceiling) => ceiling?.tokens !== undefined || ceiling?.usd !== undefined,
    );
  }

  async on_pre_llm_call(payload: PreLlmCall): Promise<void> {
    const reserve = this.#config.output_reserve ?? DEFAULT_OUTPUT_RESERVE;
    const prompt = payload.estimatedInputTokens ?? 0;
    // A remote agent's task says what it may cost; a model call is priced by its tokens.
    const requested = {
      tokens: prompt + reserve,
      usd: payload.estimatedCostUsd ?? this.#callCost(payload.model, prompt, reserve),
    };
    for (const scope of this.#scopes(payload)) {
      const { ceiling } = scope;
      if (ceiling.tokens === undefined && ceiling.usd === undefined) continue;
      const used = await scope.used();
      const where = { scope: scope.scope, ...(scope.period === undefined ? {} : { period: scope.period }) };
      if (ceiling.tokens !== undefined) {
        const spent = used.inputTokens + used.outputTokens;
        if (spent + requested.tokens > ceiling.tokens) {
          throw new PolicyViolation("budget", "Token ceiling exceeded", {
            ...where,
            ceiling: ceiling.tokens,
            used: spent,
            requested: requested.tokens,
            remaining: Math.max(0, ceiling.tokens - spent),
          });
        }
      }
      if (ceiling.usd !== undefined) {
        if (requested.usd === undefined) {
          throw new PolicyViolation(
            "budget",
            `Cost ceiling cannot be checked: no price for ${payload.model}`,
            {
              ...where,
              model: payload.model,
            },
          );
        }
        const spent = this.#spent(used);
        if (spent + requested.usd > ceiling.usd) {
          throw new PolicyViolation("budget", "Cost ceiling exceeded", {
            ...where,
            ceiling: ceiling.usd,
            used: round(spent),
            requested: round(requested.usd),
            remaining: round(Math.max(0, ceiling.usd - spent)),
          });
        }
      }
    }
  }

  #scopes(payload: PreLlmCall): Scope[] {
    const usage: UsageView = payload.usage ?? { job: NO_USAGE, tenant: async () => NO_USAGE };
    const now = this.#now();
    const scopes: Scope[] = [];
    const { job, agent, agents, tenant } = this.#config;
    if (job !== undefined) scopes.push({ scope: "job", ceiling: job, used: async () => usage.job });
    const own = payload.agent === undefined ? undefined : (agents?.[payload.agent] ?? agent);
    if (own !== undefined && payload.agent !== undefined) {
      const period = own.period ?? "day";
      const address = payload.agent;
      scopes.push({
        scope: "agent",
        ceiling: own,
        period,
        used: () => usage.tenant({ since: periodStart(period, now), agent: address }),
      });
    }
    if (tenant !== undefined) {
      const period = tenant.period ?? "month";
      scopes.push({
        scope: "tenant",
        ceiling: tenant,
        period,
        used: () => usage.tenant({ since: periodStart(period, now) }),
      });
    }
    return scopes;
  }

  /** What calls cost: by this budget's prices where it has one, else what the provider reported. */
  #spent(used: UsageTotals): number {
    let usd = 0;
    for (const [model, totals] of Object.entries(used.byModel)) {
      const price = this.#price(model);
      usd +=
        price === undefined
          ? totals.costUsd
          : (totals.inputTokens * price.input + totals.outputTokens * price.output) / PER_MILLION;
    }
    return usd;
  }

  #callCost(model: string, prompt: number, reserve: number): number | undefined {
    const price = this.#price(model);
    return price === undefined ? undefined : (prompt * price.input + reserve * price.output) / PER_MILLION;
  }

  #price(model: string): Price | undefined {
    const prices = this.#config.prices ?? {};
    const colon = model.indexOf(":");
    return prices[model] ?? (colon < 0 ? undefined : prices[model.slice(0, colon)]);
  }
}
plugin(BudgetGovernance);

function round(usd: number): number {
  return Math.round(usd * 1e6) / 1e6;
}
