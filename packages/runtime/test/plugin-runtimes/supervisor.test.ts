// The supervisor of a process's plugin runtimes (spec: RuntimeSpec, "a host-managed long-lived
// runtime ... reconciled from desired plugin state"). Time is a manual clock: the backoff is
// asserted on the waits asked for and the order of starts and stops, never on elapsed time.
import type { PluginConfig, RuntimeContext, RuntimeInstance } from "@oz0/sdk";
import { describe, expect, it } from "vitest";
import {
  RESTART_DEFAULTS,
  type RuntimeClock,
  type RuntimeStatus,
  RuntimeSupervisor,
  restartDelay,
  type WantedRuntime,
} from "../../src/plugin-runtimes/index.js";

class ManualClock implements RuntimeClock {
  time = 1_000_000;
  readonly waits: number[] = [];
  #timers: { at: number; run: () => void }[] = [];

  now(): number {
    return this.time;
  }

  after(ms: number, run: () => void): () => void {
    this.waits.push(ms);
    const timer = { at: this.time + ms, run };
    this.#timers.push(timer);
    return () => {
      this.#timers = this.#timers.filter((one) => one !== timer);
    };
  }

  /** Moves time on by `ms`, running each timer due, then lets the moves they queued finish. */
  async advance(ms: number): Promise<void> {
    this.time += ms;
    const due = this.#timers.filter((timer) => timer.at <= this.time);
    this.#timers = this.#timers.filter((timer) => timer.at > this.time);
    for (const timer of due) timer.run();
    await settle();
  }

  get pending(): number {
    return this.#timers.length;
  }
}

/** The waits asked for before restarts: those besides each start's time limit. */
const restartWaits = (clock: ManualClock) => clock.waits.filter((ms) => ms !== RESTART_DEFAULTS.startMs);

async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
}

type Behaviour = "ok" | "throw" | "fail-after-start";

const starts = (log: readonly string[]) => log.filter((line) => line.startsWith("start"));

/** A runtime whose behaviour each start reads from `plan` (the last entry repeats). */
function wanted(
  log: string[],
  options: {
    key?: string;
    config?: PluginConfig;
    code?: string;
    plan?: Behaviour[];
    reconcile?: boolean;
  } = {},
): WantedRuntime & { contexts: RuntimeContext[] } {
  const config = options.config ?? { v: 1 };
  const plan = options.plan ?? ["ok"];
  const contexts: RuntimeContext[] = [];
  let starts = 0;
  const code = options.code ?? "code-1";
  return {
    key: options.key ?? "t/p/r",
    pluginId: "p",
    config,
    code,
    fingerprint: `${code}:${JSON.stringify(config)}`,
    contexts,
    build(ctx) {
      contexts.push(ctx);
      const label = JSON.stringify(ctx.config);
      const instance: RuntimeInstance = {
        start() {
          const behaviour = plan[Math.min(starts, plan.length - 1)]!;
          starts += 1;
          log.push(`start ${label}`);
          if (behaviour === "throw") throw new Error(`start ${starts} failed`);
          if (behaviour === "fail-after-start") queueMicrotask(() => ctx.fail(new Error("it died")));
        },
        stop() {
          log.push(`stop ${label}`);
        },
      };
      if (options.reconcile === true) {
        return {
          ...instance,
          reconcile(next: PluginConfig) {
            log.push(`reconcile ${JSON.stringify(next)}`);
          },
        };
      }
      return instance;
    },
  };
}

function supervised(clock: ManualClock, restart = {}) {
  const moves: RuntimeStatus[] = [];
  const supervisor = new RuntimeSupervisor({
    clock,
    restart,
    onStatus: (_key, status) => moves.push(status),
  });
  return { supervisor, moves };
}

describe("RuntimeSpec: the host reconciles each runtime from the desired plugin state", () => {
  it("a wanted runtime is built with the plugin's config and started, and its status is running", async () => {
    const clock = new ManualClock();
    const { supervisor, moves } = supervised(clock);
    const log: string[] = [];
    const one = wanted(log, { config: { greeting: "hi" } });
    await supervisor.reconcile([one]);
    expect(log).toEqual(['start {"greeting":"hi"}']);
    expect(one.contexts[0]?.pluginId).toBe("p");
    expect(supervisor.status("t/p/r")).toEqual({
      state: "running",
      restarts: 0,
      lastError: null,
      since: clock.time,
    });
    expect(moves.map((move) => move.state)).toEqual(["starting", "running"]);
  });

  it("a runtime whose start throws is restarted with exponential backoff", async () => {
    const clock = new ManualClock();
    const { supervisor } = supervised(clock, { baseMs: 1000, maxMs: 60_000, maxRestarts: 10 });
    const log: string[] = [];
    await supervisor.reconcile([wanted(log, { plan: ["throw", "throw", "throw", "ok"] })]);
    expect(supervisor.status("t/p/r")).toMatchObject({
      state: "restarting",
      restarts: 1,
      lastError: "start 1 failed",
    });
    // Not restarted before its wait is up.
    await clock.advance(999);
    expect(starts(log)).toHaveLength(1);
    await clock.advance(1);
    expect(starts(log)).toHaveLength(2);
    await clock.advance(2000);
    expect(starts(log)).toHaveLength(3);
    await clock.advance(4000);
    expect(starts(log)).toHaveLength(4);
    // What a failed start left behind is stopped before the next start.
    expect(log.slice(0, 4)).toEqual(['start {"v":1}', 'stop {"v":1}', 'start {"v":1}', 'stop {"v":1}']);
    expect(restartWaits(clock)).toEqual([1000, 2000, 4000]);
    expect(supervisor.status("t/p/r")).toMatchObject({
      state: "running",
      restarts: 3,
      lastError: "start 3 failed",
    });
  });

  it("a runtime that tells the host it died (ctx.fail) is stopped and started again", async () => {
    const clock = new ManualClock();
    const { supervisor, moves } = supervised(clock, { baseMs: 500 });
    const log: string[] = [];
    await supervisor.reconcile([wanted(log, { plan: ["fail-after-start", "ok"] })]);
    await settle();
    expect(log).toEqual(['start {"v":1}', 'stop {"v":1}']);
    expect(supervisor.status("t/p/r")).toMatchObject({
      state: "restarting",
      restarts: 1,
      lastError: "it died",
    });
    await clock.advance(500);
    expect(log).toEqual(['start {"v":1}', 'stop {"v":1}', 'start {"v":1}']);
    expect(moves.map((move) => move.state)).toEqual(["starting", "running", "restarting", "running"]);
  });

  it("restart waits double each time up to the longest wait", () => {
    expect(
      [1, 2, 3, 4, 5, 6].map((attempt) => restartDelay(attempt, { baseMs: 1000, maxMs: 10_000 })),
    ).toEqual([1000, 2000, 4000, 8000, 10_000, 10_000]);
  });

  it("a runtime that keeps dying is failed after its restarts run out, and not started again", async () => {
    const clock = new ManualClock();
    const { supervisor } = supervised(clock, { baseMs: 10, maxMs: 10, maxRestarts: 3 });
    const log: string[] = [];
    await supervisor.reconcile([wanted(log, { plan: ["throw"] })]);
    for (let i = 0; i < 5; i++) await clock.advance(10);
    expect(starts(log)).toHaveLength(4);
    expect(supervisor.status("t/p/r")).toMatchObject({
      state: "failed",
      restarts: 3,
      lastError: "start 4 failed",
    });
    expect(clock.pending).toBe(0);
  });

  it("a run that lasted its stable time starts the backoff over", async () => {
    const clock = new ManualClock();
    const { supervisor } = supervised(clock, { baseMs: 100, maxMs: 100_000, stableMs: 60_000 });
    const log: string[] = [];
    const one = wanted(log, { plan: ["throw", "ok", "throw", "ok"] });
    await supervisor.reconcile([one]);
    await clock.advance(100);
    expect(supervisor.status("t/p/r")?.state).toBe("running");
    await clock.advance(60_000);
    one.contexts.at(-1)?.fail(new Error("late death"));
    await settle();
    expect(restartWaits(clock)).toEqual([100, 100]);
  });

  it("a runtime no longer wanted (its plugin removed) is stopped", async () => {
    const clock = new ManualClock();
    const { supervisor, moves } = supervised(clock);
    const log: string[] = [];
    await supervisor.reconcile([wanted(log)]);
    await supervisor.reconcile([]);
    expect(log).toEqual(['start {"v":1}', 'stop {"v":1}']);
    expect(supervisor.status("t/p/r")).toBeUndefined();
    expect(moves.at(-1)?.state).toBe("stopped");
  });

  it("a runtime waiting to restart when it is no longer wanted is not started again", async () => {
    const clock = new ManualClock();
    const { supervisor } = supervised(clock, { baseMs: 100 });
    const log: string[] = [];
    await supervisor.reconcile([wanted(log, { plan: ["throw"] })]);
    await supervisor.reconcile([]);
    await clock.advance(1000);
    expect(starts(log)).toEqual(['start {"v":1}']);
  });

  it("a changed config replaces the runtime: the old one is stopped before the new one starts", async () => {
    const clock = new ManualClock();
    const { supervisor } = supervised(clock);
    const log: string[] = [];
    await supervisor.reconcile([wanted(log, { config: { v: 1 } })]);
    await supervisor.reconcile([wanted(log, { config: { v: 1 } })]);
    expect(log).toEqual(['start {"v":1}']);
    await supervisor.reconcile([wanted(log, { config: { v: 2 } })]);
    expect(log).toEqual(['start {"v":1}', 'stop {"v":1}', 'start {"v":2}']);
    expect(supervisor.status("t/p/r")).toMatchObject({ state: "running", restarts: 0 });
  });

  it("a changed config goes to the runtime's reconcile() when it has one and its code is the same", async () => {
    const clock = new ManualClock();
    const { supervisor } = supervised(clock);
    const log: string[] = [];
    await supervisor.reconcile([wanted(log, { config: { v: 1 }, reconcile: true })]);
    await supervisor.reconcile([wanted(log, { config: { v: 2 }, reconcile: true })]);
    expect(log).toEqual(['start {"v":1}', 'reconcile {"v":2}']);
    // New code is always a new runtime.
    await supervisor.reconcile([wanted(log, { config: { v: 2 }, reconcile: true, code: "code-2" })]);
    expect(log.slice(2)).toEqual(['stop {"v":1}', 'start {"v":2}']);
  });

  it("a start() that does not finish in its time is a death: it is stopped and restarted", async () => {
    const clock = new ManualClock();
    const { supervisor } = supervised(clock, { startMs: 30_000, baseMs: 1000 });
    const log: string[] = [];
    let hang = true;
    const one: WantedRuntime = {
      key: "t/p/r",
      pluginId: "p",
      config: {},
      code: "c",
      fingerprint: "f",
      build: () => ({
        start: () => {
          log.push("start");
          return hang ? new Promise<void>(() => {}) : undefined;
        },
        stop: () => {
          log.push("stop");
        },
      }),
    };
    const wanting = supervisor.reconcile([one]);
    await settle();
    expect(supervisor.status("t/p/r")?.state).toBe("starting");
    hang = false;
    await clock.advance(30_000);
    await wanting;
    expect(supervisor.status("t/p/r")).toMatchObject({
      state: "restarting",
      lastError: "its build and start() did not finish within 30 s",
    });
    await clock.advance(1000);
    expect(log).toEqual(["start", "stop", "start"]);
    expect(supervisor.status("t/p/r")?.state).toBe("running");
  });

  it("stopping aborts the runtime's signal", async () => {
    const clock = new ManualClock();
    const { supervisor } = supervised(clock);
    const one = wanted([]);
    await supervisor.reconcile([one]);
    expect(one.contexts[0]?.signal.aborted).toBe(false);
    await supervisor.stopAll();
    expect(one.contexts[0]?.signal.aborted).toBe(true);
  });
});
