// The runtimes this process runs: each built from its spec and config, started, restarted with
// exponential backoff when it dies (start() throws, or it tells the host through ctx.fail), stopped
// when it is no longer wanted, and replaced (the old one stopped, then a new one built and
// started) when its config or code changes. Its status goes to `onStatus` at every move.
// Time comes from a `RuntimeClock`, so tests drive the backoff without waiting.
import type { PluginConfig, RuntimeContext, RuntimeInstance } from "@oz0/sdk";

/** The states a runtime is in, as `oz0 plugin status` shows them. */
export const RUNTIME_STATES = Object.freeze([
  "starting",
  "running",
  "restarting",
  "stopped",
  "failed",
] as const);
export type RuntimeState = (typeof RUNTIME_STATES)[number];

export const RESTART_DEFAULTS = Object.freeze({
  /** The wait before the first restart; each further one waits twice the one before. */
  baseMs: 1_000,
  /** The longest wait between restarts. */
  maxMs: 5 * 60_000,
  /** After this many restarts in a row without a stable run, it is `failed` and left stopped. */
  maxRestarts: 10,
  /** A run this long counts as stable: the next death starts the backoff from `baseMs` again. */
  stableMs: 60_000,
  /** A build and start() that take longer than this are a death. */
  startMs: 60_000,
});

export type RestartOptions = { readonly [K in keyof typeof RESTART_DEFAULTS]?: number };

/** The wait before restart number `attempt` (1 for the first). */
export function restartDelay(attempt: number, options: RestartOptions = {}): number {
  const base = options.baseMs ?? RESTART_DEFAULTS.baseMs;
  const max = options.maxMs ?? RESTART_DEFAULTS.maxMs;
  return Math.min(max, base * 2 ** Math.max(0, attempt - 1));
}

/** What the supervisor needs of time: the time now, and a callback after a wait it can cancel. */
export interface RuntimeClock {
  now(): number;
  after(ms: number, run: () => void): () => void;
}

export const systemClock: RuntimeClock = {
  now: () => Date.now(),
  after(ms, run) {
    const timer = setTimeout(run, ms);
    timer.unref?.();
    return () => clearTimeout(timer);
  },
};

/** One runtime as it is wanted: what builds it, and the config and code it is built from. */
export interface WantedRuntime {
  /** Unique in the process: `<tenant>/<plugin>/<runtime>`. */
  readonly key: string;
  readonly pluginId: string;
  readonly config: PluginConfig;
  /** Changes when the config or the plugin's code does: a new one replaces the running one. */
  readonly fingerprint: string;
  /** Changes only with the plugin's code: the same code may apply a new config with reconcile(). */
  readonly code: string;
  build(ctx: RuntimeContext): RuntimeInstance | Promise<RuntimeInstance>;
}

export interface RuntimeStatus {
  readonly state: RuntimeState;
  /** Restarts after a death since it was started on this config. */
  readonly restarts: number;
  readonly lastError: string | null;
  /** When it entered `state`, epoch milliseconds. */
  readonly since: number;
}

export interface SupervisorOptions {
  readonly clock?: RuntimeClock;
  readonly restart?: RestartOptions;
  /** Told of every status move, in order. */
  readonly onStatus?: (key: string, status: RuntimeStatus) => void;
}

interface Entry {
  wanted: WantedRuntime;
  status: RuntimeStatus;
  instance: RuntimeInstance | undefined;
  abort: AbortController;
  /** Restarts in a row without a stable run. */
  streak: number;
  runningSince: number | undefined;
  cancelTimer: (() => void) | undefined;
  /** Counts runs: a death told by an older run than the current one is ignored. */
  run: number;
  /** The start, stop or replacement in progress; the next waits for it. */
  busy: Promise<void>;
  gone: boolean;
}

export class RuntimeSupervisor {
  readonly #entries = new Map<string, Entry>();
  readonly #clock: RuntimeClock;
  readonly #restart: RestartOptions;
  readonly #onStatus: SupervisorOptions["onStatus"];

  constructor(options: SupervisorOptions = {}) {
    this.#clock = options.clock ?? systemClock;
    this.#restart = options.restart ?? {};
    this.#onStatus = options.onStatus;
  }

  /** The status of each runtime this process runs, by key. */
  statuses(): Map<string, RuntimeStatus> {
    return new Map([...this.#entries].map(([key, entry]) => [key, entry.status]));
  }

  status(key: string): RuntimeStatus | undefined {
    return this.#entries.get(key)?.status;
  }

  keys(): string[] {
    return [...this.#entries.keys()];
  }

  /**
   * Makes the runtimes this process runs exactly `wanted`: starts the new ones, stops those left
   * out, and replaces those whose fingerprint changed. Resolves once each move has been made (a
   * start that fails has been scheduled for a restart).
   */
  async reconcile(wanted: readonly WantedRuntime[]): Promise<void> {
    const byKey = new Map(wanted.map((one) => [one.key, one]));
    const moves: Promise<void>[] = [];
    for (const key of this.#entries.keys()) if (!byKey.has(key)) moves.push(this.stop(key));
    for (const one of wanted) moves.push(this.want(one));
    await Promise.all(moves);
  }

  /** Starts `wanted`, or replaces the one running under its key when its fingerprint differs. */
  async want(wanted: WantedRuntime): Promise<void> {
    const entry = this.#entries.get(wanted.key);
    if (entry === undefined) {
      const created: Entry = {
        wanted,
        status: { state: "starting", restarts: 0, lastError: null, since: this.#clock.now() },
        instance: undefined,
        abort: new AbortController(),
        streak: 0,
        runningSince: undefined,
        cancelTimer: undefined,
        run: 0,
        busy: Promise.resolve(),
        gone: false,
      };
      this.#entries.set(wanted.key, created);
      this.#tell(wanted.key, created.status);
      await this.#queue(created, () => this.#start(created));
      return;
    }
    if (entry.wanted.fingerprint === wanted.fingerprint) return;
    const previous = entry.wanted;
    entry.wanted = wanted;
    await this.#queue(entry, async () => {
      const instance = entry.instance;
      if (
        previous.code === wanted.code &&
        instance?.reconcile !== undefined &&
        entry.status.state === "running"
      ) {
        try {
          await instance.reconcile(wanted.config);
          return;
        } catch (error) {
          await this.#died(entry, entry.run, error);
          return;
        }
      }
      await this.#halt(entry);
      entry.streak = 0;
      this.#set(entry, { state: "starting", restarts: 0, lastError: null });
      await this.#start(entry);
    });
  }

  /** Stops the runtime under `key` and forgets it; nothing when none runs. */
  async stop(key: string): Promise<void> {
    const entry = this.#entries.get(key);
    if (entry === undefined) return;
    entry.gone = true;
    this.#entries.delete(key);
    await this.#queue(entry, async () => {
      await this.#halt(entry);
      this.#set(entry, { state: "stopped" });
    });
  }

  /** Stops every runtime this process runs. */
  async stopAll(): Promise<void> {
    await Promise.all(this.keys().map((key) => this.stop(key)));
  }

  #queue(entry: Entry, move: () => Promise<void>): Promise<void> {
    const next = entry.busy.then(move, move);
    entry.busy = next.catch(() => {});
    return entry.busy;
  }

  async #start(entry: Entry): Promise<void> {
    if (entry.gone) return;
    entry.cancelTimer = undefined;
    const run = ++entry.run;
    entry.abort = new AbortController();
    const { wanted } = entry;
    const ctx: RuntimeContext = {
      pluginId: wanted.pluginId,
      config: wanted.config,
      signal: entry.abort.signal,
      fail: (error?: unknown) => {
        void this.#queue(entry, () => this.#died(entry, run, error ?? new Error("the runtime said it died")));
      },
    };
    const startMs = this.#restart.startMs ?? RESTART_DEFAULTS.startMs;
    let cancel: (() => void) | undefined;
    const late = new Promise<never>((_resolve, reject) => {
      cancel = this.#clock.after(startMs, () =>
        reject(new Error(`its build and start() did not finish within ${startMs / 1000} s`)),
      );
    });
    try {
      await Promise.race([
        (async () => {
          const instance = await wanted.build(ctx);
          entry.instance = instance;
          await instance.start();
        })(),
        late,
      ]);
    } catch (error) {
      await this.#died(entry, run, error);
      return;
    } finally {
      cancel?.();
    }
    if (entry.run !== run || entry.gone) return;
    entry.runningSince = this.#clock.now();
    this.#set(entry, { state: "running" });
  }

  /** A run died: it is stopped, and started again after the backoff, or marked failed. */
  async #died(entry: Entry, run: number, error: unknown): Promise<void> {
    if (entry.run !== run || entry.gone || entry.status.state === "failed") return;
    const now = this.#clock.now();
    const stable = this.#restart.stableMs ?? RESTART_DEFAULTS.stableMs;
    if (entry.runningSince !== undefined && now - entry.runningSince >= stable) entry.streak = 0;
    await this.#halt(entry);
    const lastError = messageOf(error);
    const max = this.#restart.maxRestarts ?? RESTART_DEFAULTS.maxRestarts;
    if (entry.streak >= max) {
      this.#set(entry, { state: "failed", lastError });
      return;
    }
    entry.streak += 1;
    this.#set(entry, { state: "restarting", restarts: entry.status.restarts + 1, lastError });
    entry.cancelTimer = this.#clock.after(restartDelay(entry.streak, this.#restart), () => {
      void this.#queue(entry, () => this.#start(entry));
    });
  }

  /** Stops the current run, if any: its signal aborted, its stop() awaited (a throw is its last error). */
  async #halt(entry: Entry): Promise<void> {
    entry.cancelTimer?.();
    entry.cancelTimer = undefined;
    entry.run += 1;
    entry.runningSince = undefined;
    entry.abort.abort();
    const instance = entry.instance;
    entry.instance = undefined;
    if (instance === undefined) return;
    try {
      await instance.stop();
    } catch (error) {
      entry.status = { ...entry.status, lastError: messageOf(error) };
    }
  }

  #set(entry: Entry, change: Partial<Omit<RuntimeStatus, "since">>): void {
    const state = change.state ?? entry.status.state;
    entry.status = {
      ...entry.status,
      ...change,
      state,
      since: state === entry.status.state ? entry.status.since : this.#clock.now(),
    };
    this.#tell(entry.wanted.key, entry.status);
  }

  #tell(key: string, status: RuntimeStatus): void {
    try {
      this.#onStatus?.(key, status);
    } catch {
      // A listener's fault is its own; the runtimes go on.
    }
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
