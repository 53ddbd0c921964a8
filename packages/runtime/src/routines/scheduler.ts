// The routine scheduler every worker runs: on each pass it looks at every tenant's routines and
// fires what is due. Schedules fire each tick once across all processes (the fire row is
// unique per tick, fire.ts); a tick no process reached within the grace period is missed and
// follows the routine's `missed:` policy. `job.ended:` routines fire for each job of their agent
// that ended since the last pass; queued fires start once the previous job has ended. Time is
// the database's clock, so every node agrees on which ticks are due.
import { sql } from "kysely";
import { TERMINAL_STATUSES } from "../jobs/index.js";
import { eventOf, type RoutineDef, tenantRoutines } from "./definitions.js";
import {
  type FireDeps,
  type FireResult,
  fireRoutine,
  recordMissed,
  resolveTarget,
  startQueued,
} from "./fire.js";
import { nextTick, ticksBetween } from "./schedule.js";

/** Scheduler settings when the options leave them out. */
export const SCHEDULER_DEFAULTS = {
  /** How late a tick may be reached and still fire on time; later, it is missed. */
  graceMs: 30_000,
  /** How often the scheduler looks for ended jobs and queued fires between ticks. */
  pollMs: 1_000,
  /** Ticks fired on time in one pass at most, the latest ones. */
  maxTicks: 100,
  /** How far back a pass looks past its cursor for ended jobs, for a job whose end committed late. */
  endedSlackMs: 5_000,
  /** How long fires stay in a routine's history (a queued one, or one whose job runs, stays). */
  keepFiresMs: 30 * 86_400_000,
  /** How often a scheduler prunes fires older than that. */
  pruneEveryMs: 3_600_000,
} as const;

export interface SchedulerOptions extends FireDeps {
  /** The time now in epoch ms; the database's clock when left out (tests pass their own). */
  readonly clock?: () => Promise<number>;
  readonly graceMs?: number;
  readonly pollMs?: number;
  /** Only this tenant's routines; every tenant's when left out. */
  readonly tenant?: string;
  /** Told of each fire that did something (started, queued, skipped, missed, failed). */
  readonly onFired?: (fired: { tenant: string; routine: string; result: FireResult }) => void;
  /** Told of a fault the loop went on after. */
  readonly onError?: (error: unknown) => void;
}

export class RoutineScheduler {
  readonly #deps: FireDeps;
  readonly #options: SchedulerOptions;
  readonly #clock: () => Promise<number>;
  readonly #graceMs: number;
  readonly #pollMs: number;
  #stopped = false;
  #wake: (() => void) | undefined;
  #loop: Promise<void> | undefined;
  #nextTick: number | undefined;
  #prunedAt = Number.NEGATIVE_INFINITY;
  /** The last fault told of each routine, so one that keeps failing is told of once, not every pass. */
  readonly #faults = new Map<string, string>();

  constructor(options: SchedulerOptions) {
    this.#deps = { store: options.store, jobs: options.jobs, source: options.source };
    this.#options = options;
    this.#clock = options.clock ?? (() => options.store.now());
    this.#graceMs = options.graceMs ?? SCHEDULER_DEFAULTS.graceMs;
    this.#pollMs = options.pollMs ?? SCHEDULER_DEFAULTS.pollMs;
  }

  /** Starts passing on a timer: at each routine's next tick, and every poll in between. */
  start(): void {
    if (this.#loop !== undefined) throw new Error("this scheduler has started already");
    this.#loop = this.#run();
  }

  /** Stops the timer; resolves once the pass in progress has ended. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#wake?.();
    await this.#loop;
  }

  /** One pass over every tenant's routines at the clock's time now; what it fired. */
  async pass(): Promise<{ tenant: string; routine: string; result: FireResult }[]> {
    const now = await this.#clock();
    const tenants =
      this.#options.tenant === undefined
        ? (await this.#deps.store.db.selectFrom("tenants").select("name").execute()).map((row) => row.name)
        : [this.#options.tenant];
    const results: { tenant: string; routine: string; result: FireResult }[] = [];
    let soonest: number | undefined;
    for (const tenant of tenants) {
      for (const def of await tenantRoutines(this.#deps.store, tenant)) {
        const key = `${tenant}\0${def.address}`;
        try {
          for (const result of await this.#passRoutine(tenant, def, now)) {
            const fired = { tenant, routine: def.address, result };
            results.push(fired);
            if (result.outcome !== "duplicate" && result.outcome !== "paused")
              this.#tell(() => this.#options.onFired?.(fired));
          }
          if (def.routine.schedule !== undefined) {
            const next = nextTick(def.routine, now);
            if (next !== undefined && (soonest === undefined || next < soonest)) soonest = next;
          }
          this.#faults.delete(key);
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          if (this.#faults.get(key) !== message) this.#tell(() => this.#options.onError?.(error));
          this.#faults.set(key, message);
        }
      }
    }
    this.#nextTick = soonest;
    if (now - this.#prunedAt >= SCHEDULER_DEFAULTS.pruneEveryMs) {
      this.#prunedAt = now;
      await this.#prune().catch((error) => this.#tell(() => this.#options.onError?.(error)));
    }
    return results;
  }

  /**
   * Drops fires past their keeping time, so an every-second routine's history does not grow
   * without end. A queued fire, and a started one whose job has not ended (overlap reads it),
   * stay; a webhook's replay record is needed only within its timestamp window, far shorter.
   */
  async #prune(): Promise<void> {
    const { store } = this.#deps;
    let query = store.db
      .deleteFrom("routine_fires")
      .where("created_at", "<", sql<number>`${store.clockSql} - ${SCHEDULER_DEFAULTS.keepFiresMs}`)
      .where("outcome", "!=", "queued")
      .where((eb) =>
        eb.or([
          eb("job_id", "is", null),
          eb.not(
            eb.exists(
              eb
                .selectFrom("jobs")
                .select("jobs.id")
                .whereRef("jobs.id", "=", "routine_fires.job_id")
                .where("jobs.status", "not in", [...TERMINAL_STATUSES]),
            ),
          ),
        ]),
      );
    if (this.#options.tenant !== undefined) query = query.where("tenant", "=", this.#options.tenant);
    await query.execute();
  }

  async #passRoutine(tenant: string, def: RoutineDef, now: number): Promise<FireResult[]> {
    const results: FireResult[] = [];
    // Queued fires go first: they wait for the previous job, and a new tick queues behind them.
    // Each round starts one, or settles one that cannot start; a started one makes the next wait.
    for (let round = 0; round < 100 && (await startQueued(this.#deps, tenant, def)); round++) {}
    const state = await this.#cursor(tenant, def, now);
    if (state === undefined) return results;
    if (state.paused) {
      await this.#advance(tenant, def, now);
      return results;
    }
    if (def.routine.schedule !== undefined) {
      results.push(...(await this.#ticks(tenant, def, state.cursor, now)));
      await this.#advance(tenant, def, now);
      return results;
    }
    const event = eventOf(def);
    if (event !== undefined && "kind" in event && event.kind === "job.ended") {
      const { results: fired, cursor } = await this.#ended(tenant, def, event.run, state.cursor);
      results.push(...fired);
      if (cursor !== undefined) await this.#advance(tenant, def, cursor);
    }
    return results;
  }

  /** Due ticks in (cursor, now]: on time ones fire; of late ones, `missed:` decides the last's fate. */
  async #ticks(tenant: string, def: RoutineDef, cursor: number, now: number): Promise<FireResult[]> {
    const due = ticksBetween(def.routine, cursor, now, SCHEDULER_DEFAULTS.maxTicks);
    const onTime = due.filter((tick) => now - tick <= this.#graceMs);
    const late = due.filter((tick) => now - tick > this.#graceMs);
    const results: FireResult[] = [];
    const lastLate = late.at(-1);
    if (lastLate !== undefined && onTime.length === 0) {
      const trigger = { key: `tick:${lastLate}`, tickAt: lastLate, input: def.routine.input ?? "" };
      results.push(
        def.routine.missed === "catch_up_last"
          ? await fireRoutine(this.#deps, tenant, def, { ...trigger, cause: "catch_up" })
          : await recordMissed(
              this.#deps,
              tenant,
              def,
              { ...trigger, cause: "schedule" },
              `no scheduler was running within ${Math.round(this.#graceMs / 1000)} s of the tick (missed: skip)`,
            ),
      );
    }
    for (const tick of onTime) {
      results.push(
        await fireRoutine(this.#deps, tenant, def, {
          key: `tick:${tick}`,
          cause: "schedule",
          tickAt: tick,
          input: def.routine.input ?? "",
        }),
      );
    }
    return results;
  }

  /** Fires for each job of `watched` that ended since the cursor; the new cursor. */
  async #ended(
    tenant: string,
    def: RoutineDef,
    watched: string,
    cursor: number,
  ): Promise<{ results: FireResult[]; cursor: number | undefined }> {
    const target = await resolveTarget(this.#deps.source, tenant, watched, def.plugin);
    const ended = await this.#deps.store.db
      .selectFrom("jobs")
      .select(["id", "status", "output", "updated_at"])
      .where("tenant", "=", tenant)
      .where("plugin", "=", target.plugin)
      .where("name", "=", target.name)
      .where("status", "in", [...TERMINAL_STATUSES])
      .where("updated_at", ">", cursor - SCHEDULER_DEFAULTS.endedSlackMs)
      .orderBy("updated_at")
      .limit(200)
      .execute();
    const results: FireResult[] = [];
    let last: number | undefined;
    for (const job of ended) {
      const output =
        job.status === "succeeded" && job.output !== null ? (JSON.parse(job.output) as unknown) : null;
      results.push(
        await fireRoutine(this.#deps, tenant, def, {
          key: `job:${job.id}`,
          cause: "job_ended",
          input: output ?? def.routine.input ?? "",
        }),
      );
      last = Math.max(last ?? 0, Number(job.updated_at));
    }
    return { results, cursor: last };
  }

  /** The routine's cursor and pause; undefined the first time it is seen, when its cursor is set to now. */
  async #cursor(
    tenant: string,
    def: RoutineDef,
    now: number,
  ): Promise<{ cursor: number; paused: boolean } | undefined> {
    const { store } = this.#deps;
    const row = await store.db
      .selectFrom("routine_state")
      .select(["cursor", "paused"])
      .where("tenant", "=", tenant)
      .where("routine", "=", def.address)
      .executeTakeFirst();
    if (row?.cursor === null || row === undefined) {
      // A routine is due from the moment a scheduler first sees it, not from the epoch.
      await store.db
        .insertInto("routine_state")
        .values({ tenant, routine: def.address, cursor: now, updated_at: store.clockSql })
        .onConflict((conflict) =>
          conflict
            .columns(["tenant", "routine"])
            .doUpdateSet({ cursor: now })
            .where("routine_state.cursor", "is", null),
        )
        .execute();
      return undefined;
    }
    return { cursor: Number(row.cursor), paused: row.paused !== 0 };
  }

  /** Moves the cursor forward to `to`, never back (another scheduler may be ahead). */
  async #advance(tenant: string, def: RoutineDef, to: number): Promise<void> {
    const { store } = this.#deps;
    await store.db
      .updateTable("routine_state")
      .set({ cursor: to, updated_at: store.clockSql })
      .where("tenant", "=", tenant)
      .where("routine", "=", def.address)
      .where("cursor", "<", to)
      .execute();
  }

  async #run(): Promise<void> {
    while (!this.#stopped) {
      try {
        await this.pass();
      } catch (error) {
        this.#tell(() => this.#options.onError?.(error));
      }
      if (this.#stopped) break;
      const now = Date.now();
      const untilTick =
        this.#nextTick === undefined
          ? this.#pollMs
          : Math.max(0, this.#nextTick - (await this.#clock().catch(() => now)));
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(this.#pollMs, untilTick));
        timer.unref();
        this.#wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.#wake = undefined;
    }
  }

  #tell(listener: () => void): void {
    try {
      listener();
    } catch {
      // A listener's fault is its own; the scheduler goes on.
    }
  }
}
