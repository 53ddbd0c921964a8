// The rate limit: calls per minute in a tenant, on a sliding window of the last 60 seconds,
// checked before each model call (pre_llm_call, the spec's example) and, when configured,
// each function call (pre_tool_call). The window lives in the process that runs the jobs: on
// several nodes each counts its own calls. A call costs the same however many the window
// holds: the window is a queue, oldest first, that drops from its front what is 60 s old.
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
  readonly #calls = new Map<string, Window>();
  readonly #toolCalls = new Map<string, Window>();

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

  #take(windows: Map<string, Window>, tenant: string, max: number, what: string): void {
    const now = this.#now();
    let window = windows.get(tenant);
    if (window === undefined) {
      window = new Window();
      windows.set(tenant, window);
    }
    const count = window.countSince(now - WINDOW_MS);
    if (count >= max) {
      throw new PolicyViolation("rate_limit", `Rate limit exceeded: ${max}/min`, {
        current_count: count,
        calls: what,
      });
    }
    window.add(now);
  }
}

/**
 * The times of a tenant's calls, oldest first. Calls come in the clock's order, so the old ones
 * are at the front: each is dropped once, and a call costs O(1) amortised. (A clock set back
 * keeps a later call behind an earlier one until that one is dropped: counted longer, never
 * shorter.)
 */
class Window {
  #times: number[] = [];
  #head = 0;

  /** How many calls came after `since`, once the older ones are dropped. */
  countSince(since: number): number {
    const times = this.#times;
    while (this.#head < times.length && times[this.#head]! <= since) this.#head += 1;
    // The dropped front is let go once it is most of the array, so memory follows the window.
    if (this.#head > 1024 && this.#head * 2 > times.length) {
      this.#times = times.slice(this.#head);
      this.#head = 0;
    }
    return this.#times.length - this.#head;
  }

  add(at: number): void {
    this.#times.push(at);
  }
}
plugin(RateLimitGovernance);
