// The rate limit: calls per minute in a tenant, on a sliding window of the last 60 seconds,
// checked before each model call (pre_llm_call, the spec's example) and, when configured,
// each function call (pre_tool_call). The window lives in the process that runs the jobs: on
// several nodes each counts its own calls.
import { GovernanceContract, type HookPayload, PolicyViolation, plugin } from "@oz0/sdk";

const WINDOW_MS = 60_000;

export interface RateLimitOptions {
  /** Model calls per minute; the spec's `max_calls_per_minute`, 60 when left out. */
  readonly maxCallsPerMinute?: number;
  /** Function calls per minute; unlimited when left out. */
  readonly maxToolCallsPerMinute?: number;
  readonly now?: () => number;
}

/**
 * Refuses a call past the tenant's rate with
 * PolicyViolation("rate_limit", "Rate limit exceeded: 60/min", { current_count }).
 * @example host.addContract(new RateLimitGovernance({ maxCallsPerMinute: 60 }));
 */
export class RateLimitGovernance extends GovernanceContract {
  static readonly contractId: string = "rate_limit";
  readonly #max: number;
  readonly #maxTools: number | undefined;
  readonly #now: () => number;
  readonly #calls = new Map<string, number[]>();
  readonly #toolCalls = new Map<string, number[]>();

  constructor(options: RateLimitOptions = {}) {
    super();
    this.#max = options.maxCallsPerMinute ?? 60;
    this.#maxTools = options.maxToolCallsPerMinute;
    this.#now = options.now ?? Date.now;
  }

  on_pre_llm_call(payload: HookPayload<"pre_llm_call">): void {
    this.#take(this.#calls, payload.tenant, this.#max, "model calls");
  }

  on_pre_tool_call(payload: HookPayload<"pre_tool_call">): void {
    if (this.#maxTools !== undefined)
      this.#take(this.#toolCalls, payload.tenant, this.#maxTools, "function calls");
  }

  #take(windows: Map<string, number[]>, tenant: string, max: number, what: string): void {
    const now = this.#now();
    const recent = (windows.get(tenant) ?? []).filter((at) => now - at < WINDOW_MS);
    windows.set(tenant, recent);
    if (recent.length >= max) {
      throw new PolicyViolation("rate_limit", `Rate limit exceeded: ${max}/min`, {
        current_count: recent.length,
        calls: what,
      });
    }
    recent.push(now);
  }
}
plugin(RateLimitGovernance);
