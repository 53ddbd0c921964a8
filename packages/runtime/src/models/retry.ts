// Retries of one model call: a rate limit (429), a server fault (5xx, Anthropic's 529), a
// dropped connection or a timeout is tried again after a backoff, or after the time the
// server's `retry-after` asks for; anything else fails at once. Each attempt has its own
// timeout, which counts from the request and again from every chunk of the answer, so a long
// answer that keeps streaming is never cut off while a stalled one is.

/** How a provider's calls are retried and timed out. */
export interface CallPolicy {
  /** Tries after the first. */
  readonly retries: number;
  /** How long an attempt may go without a byte of answer, in ms. */
  readonly timeoutMs: number;
  /** The first backoff; each retry doubles it, up to `maxDelayMs`. */
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  /** The longest `retry-after` honoured; a server asking for more fails the call at once. */
  readonly maxRetryAfterMs: number;
}

export const CALL_POLICY_DEFAULTS: CallPolicy = {
  retries: 3,
  timeoutMs: 120_000,
  baseDelayMs: 1_000,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 60_000,
};

/** Why an attempt failed, as the retry loop and the final message need it. */
export class AttemptFailure extends Error {
  readonly retryable: boolean;
  /** The HTTP status, when the server answered. */
  readonly status: number | undefined;
  /** What the server asked for in `retry-after` / `retry-after-ms`, in ms. */
  readonly retryAfterMs: number | undefined;

  constructor(
    message: string,
    options: { retryable: boolean; status?: number | undefined; retryAfterMs?: number | undefined },
  ) {
    super(message);
    this.name = "AttemptFailure";
    this.retryable = options.retryable;
    this.status = options.status;
    this.retryAfterMs = options.retryAfterMs;
  }
}

/** A call that failed for good: its last failure, the attempts made, and why no more were. */
export class GaveUp extends Error {
  readonly failure: AttemptFailure;
  readonly attempts: number;
  /** Why no further attempt was made, when it was not the failure being final or retries running out. */
  readonly reason: string | undefined;

  constructor(failure: AttemptFailure, attempts: number, reason?: string) {
    super(failure.message);
    this.name = "GaveUp";
    this.failure = failure;
    this.attempts = attempts;
    this.reason = reason;
  }
}

/** One attempt: its signal (the call's, or its own timeout), and `touch()` for each chunk that arrives. */
export interface Attempt {
  readonly number: number;
  readonly signal: AbortSignal;
  touch(): void;
}

/**
 * Runs `attempt` until it succeeds, retrying the failures that call for it. Resolves with the
 * result, or rejects with `GaveUp`; an abort of `signal` rejects with the signal's reason at once.
 * `classify` turns anything an attempt throws into an AttemptFailure.
 */
export async function withRetries<T>(
  attempt: (current: Attempt) => Promise<T>,
  options: {
    readonly policy: CallPolicy;
    readonly signal: AbortSignal;
    readonly classify: (error: unknown) => AttemptFailure;
  },
): Promise<T> {
  const { policy, signal, classify } = options;
  for (let number = 1; ; number++) {
    signal.throwIfAborted();
    const timer = new IdleTimer(policy.timeoutMs, signal);
    let failure: AttemptFailure;
    try {
      return await attempt({ number, signal: timer.signal, touch: () => timer.touch() });
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      failure = timer.fired
        ? new AttemptFailure(`no answer for ${policy.timeoutMs / 1000} s (the provider's timeout)`, {
            retryable: true,
          })
        : classify(error);
    } finally {
      timer.stop();
    }
    if (!failure.retryable || number > policy.retries) throw new GaveUp(failure, number);
    const wait = delayBefore(number, failure, policy);
    if (wait === undefined) {
      const asked = Math.ceil((failure.retryAfterMs ?? 0) / 1000);
      throw new GaveUp(
        failure,
        number,
        `the server asked to wait ${asked} s before trying again, longer than the ${policy.maxRetryAfterMs / 1000} s oz0 waits`,
      );
    }
    await sleep(wait, signal);
  }
}

/**
 * Keeps an attempt alive: `touch()` on every chunk restarts the count. Its signal aborts when
 * the count runs out or when `outer` aborts, with `outer`'s reason. One timer, refreshed at each
 * chunk, and the attempt's place among those `outer` aborts, taken back at `stop()`, where a new
 * timer per chunk and an `AbortSignal.any` per attempt (whose signal the job's keeps a weak
 * reference to until it is collected) cost a model call about twice as much.
 */
export class IdleTimer {
  readonly #controller = new AbortController();
  readonly #followers: Set<AbortController>;
  readonly #timer: NodeJS.Timeout;
  fired = false;

  constructor(ms: number, outer: AbortSignal) {
    this.#timer = setTimeout(() => {
      this.fired = true;
      this.#controller.abort(new Error(`no answer for ${ms / 1000} s`));
    }, ms);
    this.#timer.unref();
    this.#followers = followersOf(outer);
    if (outer.aborted) this.#controller.abort(outer.reason);
    else this.#followers.add(this.#controller);
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  touch(): void {
    this.#timer.refresh();
  }

  stop(): void {
    clearTimeout(this.#timer);
    this.#followers.delete(this.#controller);
  }
}

const followers = new WeakMap<AbortSignal, Set<AbortController>>();

/**
 * The attempts `outer` aborts, with its reason, when it aborts: one listener for the signal's
 * life (a job's, across all its model calls), where one per attempt, added and taken off, cost
 * a call more than the rest of its timer.
 */
function followersOf(outer: AbortSignal): Set<AbortController> {
  let set = followers.get(outer);
  if (set === undefined) {
    const created = new Set<AbortController>();
    outer.addEventListener(
      "abort",
      () => {
        for (const controller of created) controller.abort(outer.reason);
        created.clear();
      },
      { once: true },
    );
    followers.set(outer, created);
    set = created;
  }
  return set;
}

/** The wait before retry `number` (from 1) when the server said nothing: exponential, with jitter. */
export function backoff(number: number, policy: CallPolicy): number {
  const exponential = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (number - 1));
  // Jitter keeps many workers that failed together from retrying together.
  return Math.round(exponential * (0.8 + Math.random() * 0.4));
}

function delayBefore(number: number, failure: AttemptFailure, policy: CallPolicy): number | undefined {
  if (failure.retryAfterMs === undefined) return backoff(number, policy);
  if (failure.retryAfterMs > policy.maxRetryAfterMs) return undefined;
  return failure.retryAfterMs;
}

/**
 * Reads `retry-after-ms` (OpenAI) or `retry-after` (seconds, or an HTTP date) from response
 * headers, in ms; undefined when neither is there or readable.
 */
export function retryAfterMs(
  headers: Readonly<Record<string, string | undefined>> | undefined,
  now = Date.now(),
): number | undefined {
  if (headers === undefined) return undefined;
  const lower = Object.fromEntries(Object.entries(headers).map(([key, value]) => [key.toLowerCase(), value]));
  const ms = Number.parseFloat(lower["retry-after-ms"] ?? "");
  if (Number.isFinite(ms) && ms >= 0) return Math.round(ms);
  const text = lower["retry-after"]?.trim();
  if (text === undefined || text === "") return undefined;
  const seconds = Number(text);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000);
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", stop);
    };
    const stop = () => {
      done();
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      done();
      resolve();
    }, ms);
    signal.addEventListener("abort", stop, { once: true });
  });
}
