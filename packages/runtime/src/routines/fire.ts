// Firing a routine: one row in routine_fires per (tenant, routine, key), inserted in the
// transaction that queues the job, so a tick, an ended job or a webhook signature fires once
// however many processes see it. The routine's state row is locked first, so its overlap
// policy (skip, queue, allow) is decided against the jobs of its earlier fires with no race.
// The job runs as the routine's identity, with the routine's tools and limits.
import { randomUUID } from "node:crypto";
import { isOz0Error, Oz0Error } from "@oz0/sdk";
import { identityCovers, qualifyEntry, toolEntryCovered } from "@oz0/sdk/internal";
import type { Transaction } from "kysely";
import { type Caller, requireRole } from "../callers/index.js";
import type { NewEvent, RoutineGrant } from "../events/index.js";
import { type JobEngine, type JobView, TERMINAL_STATUSES } from "../jobs/index.js";
import type { Database, FireCause, FireOutcome, Store } from "../store/index.js";
import type { PartSource } from "../tools/index.js";
import { eventOf, type RoutineDef, routineActor } from "./definitions.js";

type Trx = Transaction<Database>;

export interface FireDeps {
  readonly store: Store;
  readonly jobs: JobEngine;
  readonly source: PartSource;
}

/** What fires a routine: a key unique per routine (a tick's time, an ended job, a signature). */
export interface Trigger {
  readonly key: string;
  readonly cause: FireCause;
  readonly tickAt?: number | undefined;
  readonly input: unknown;
  /** What the hooks recorded of the trigger (a webhook's pre_sensor_event), for the job's history. */
  readonly events?: readonly NewEvent[] | undefined;
}

export type FireResult =
  | { readonly outcome: "started"; readonly fire: string; readonly job: JobView }
  | { readonly outcome: Exclude<FireOutcome, "started">; readonly fire: string; readonly detail: string }
  /** Another process fired this key first (or it was fired before). */
  | { readonly outcome: "duplicate" }
  | { readonly outcome: "paused" };

/** The principal a routine's jobs run as, in `tenant`: its identity, or a runner of its own target. */
export function routineCaller(tenant: string, def: RoutineDef): Caller {
  const identity = def.routine.identity;
  return Object.freeze({
    tenant,
    actor: routineActor(def),
    role: identity?.role ?? "runner",
    agents: Object.freeze([...(identity?.agents ?? [def.routine.run])]),
  });
}

/** Whether `address` (`<plugin>/<name>`) is in the scope `agents`, whose bare names are `plugin`'s. */
export function inScope(agents: readonly string[], address: string, plugin: string | undefined): boolean {
  return identityCovers(agents, address, plugin);
}

/** The routine's target checked against its identity, and what its job may do. */
interface Prepared {
  readonly address: string;
  readonly grant: RoutineGrant;
}

class Decided extends Error {
  readonly why: "paused" | "duplicate" | "overlap";
  constructor(why: "paused" | "duplicate" | "overlap") {
    super(why);
    this.why = why;
  }
}

/** Fires `def` in `tenant` for `trigger`: starts its job, or records why not. */
export async function fireRoutine(
  deps: FireDeps,
  tenant: string,
  def: RoutineDef,
  trigger: Trigger,
): Promise<FireResult> {
  let prepared: Prepared;
  try {
    prepared = await prepareRoutine(deps, tenant, def);
  } catch (error) {
    return record(deps, tenant, def, trigger, "failed", messageOf(error));
  }
  const overlap = def.routine.overlap ?? "skip";
  let fire: string | undefined;
  try {
    const job = await deps.jobs.start({
      tenant,
      agent: prepared.address,
      input: trigger.input,
      by: routineActor(def),
      routine: prepared.grant,
      ...(trigger.events === undefined ? {} : { events: trigger.events }),
      inTransaction: async (trx, id) => {
        const state = await lockState(deps.store, trx, tenant, def.address);
        if (state.paused !== 0) throw new Decided("paused");
        if (await fired(trx, tenant, def.address, trigger.key)) throw new Decided("duplicate");
        if (overlap !== "allow" && (await busy(trx, tenant, def.address, overlap === "queue"))) {
          throw new Decided("overlap");
        }
        fire = await insertFire(deps.store, trx, tenant, def, trigger, "started", { job: id });
        if (fire === undefined) throw new Decided("duplicate");
      },
    });
    return { outcome: "started", fire: fire ?? "", job };
  } catch (error) {
    if (error instanceof Decided) {
      if (error.why === "paused") return { outcome: "paused" };
      if (error.why === "duplicate") return { outcome: "duplicate" };
      return overlap === "queue"
        ? record(
            deps,
            tenant,
            def,
            trigger,
            "queued",
            "the routine's previous job has not ended; queued behind it",
          )
        : record(
            deps,
            tenant,
            def,
            trigger,
            "skipped",
            "the routine's previous job has not ended (overlap: skip)",
          );
    }
    return record(deps, tenant, def, trigger, "failed", messageOf(error));
  }
}

/**
 * Starts the oldest queued fire of `def` once its previous job has ended; true when one started.
 * The fire row changes from queued to started in the job's transaction, so it starts once.
 */
export async function startQueued(deps: FireDeps, tenant: string, def: RoutineDef): Promise<boolean> {
  const next = await deps.store.db
    .selectFrom("routine_fires")
    .select(["id", "input"])
    .where("tenant", "=", tenant)
    .where("routine", "=", def.address)
    .where("outcome", "=", "queued")
    .orderBy("created_at")
    .orderBy("id")
    .executeTakeFirst();
  if (next === undefined) return false;
  let prepared: Prepared;
  try {
    prepared = await prepareRoutine(deps, tenant, def);
  } catch (error) {
    await settleQueued(deps.store, next.id, "failed", messageOf(error));
    return true;
  }
  try {
    await deps.jobs.start({
      tenant,
      agent: prepared.address,
      input: next.input === null ? "" : (JSON.parse(next.input) as unknown),
      by: routineActor(def),
      routine: prepared.grant,
      inTransaction: async (trx, id) => {
        const state = await lockState(deps.store, trx, tenant, def.address);
        if (state.paused !== 0) throw new Decided("paused");
        if (await busy(trx, tenant, def.address, false)) throw new Decided("overlap");
        const taken = await trx
          .updateTable("routine_fires")
          .set({ outcome: "started", job_id: id, input: null, updated_at: deps.store.clockSql })
          .where("id", "=", next.id)
          .where("outcome", "=", "queued")
          .returning("id")
          .executeTakeFirst();
        if (taken === undefined) throw new Decided("duplicate");
      },
    });
    return true;
  } catch (error) {
    if (error instanceof Decided) return error.why === "duplicate";
    await settleQueued(deps.store, next.id, "failed", messageOf(error));
    return true;
  }
}

/** Records a tick no scheduler reached in time, under a `missed: skip` routine. */
export function recordMissed(
  deps: FireDeps,
  tenant: string,
  def: RoutineDef,
  trigger: Trigger,
  detail: string,
): Promise<FireResult> {
  return record(deps, tenant, def, trigger, "missed", detail);
}

/** The routine's target resolved and checked against its identity, tools and kind; throws what a fire would refuse. */
export async function prepareRoutine(deps: FireDeps, tenant: string, def: RoutineDef): Promise<Prepared> {
  const caller = routineCaller(tenant, def);
  requireRole(caller, "runner", `start ${def.routine.run}`);
  const target = await resolveTarget(deps.source, tenant, def.routine.run, def.plugin);
  const address = `${target.plugin}/${target.name}`;
  if (!inScope(caller.agents, address, def.plugin)) {
    throw new Oz0Error(
      "FORBIDDEN",
      `routine ${def.address} runs ${address}, which its identity's agents (${caller.agents.join(", ")}) do not include; add it to identity.agents.`,
      { data: { tenant, action: `start ${address}`, role: caller.role } },
    );
  }
  const event = eventOf(def);
  if (event !== undefined && "kind" in event && event.kind === "job.ended") {
    const watched = await resolveTarget(deps.source, tenant, event.run, def.plugin).catch(() => undefined);
    if (watched !== undefined && `${watched.plugin}/${watched.name}` === address) {
      throw new Oz0Error(
        "INVALID_MANIFEST",
        `routine ${def.address} runs ${address} when a job of ${address} ends, which would fire it again without end; watch another agent.`,
        { data: { issues: [] } },
      );
    }
  }
  const grant: { -readonly [K in keyof RoutineGrant]: RoutineGrant[K] } = { name: def.address };
  const { tools, limits } = def.routine;
  if (target.kind === "flow") {
    if (tools !== undefined || limits !== undefined) {
      throw new Oz0Error(
        "INVALID_MANIFEST",
        `routine ${def.address} sets tools or limits, which apply to an agent's job, and ${address} is a flow; leave them out.`,
        { data: { issues: [] } },
      );
    }
    return { address, grant };
  }
  if (tools !== undefined)
    grant.tools = await checkedTools(deps, tenant, def, target.plugin, target.name, tools);
  if (limits !== undefined) grant.limits = limits;
  return { address, grant };
}

/** The routine's tools, as the agent's own plugin reads them; refused when one is not the agent's. */
async function checkedTools(
  deps: FireDeps,
  tenant: string,
  def: RoutineDef,
  plugin: string,
  agent: string,
  tools: readonly string[],
): Promise<string[]> {
  const loaded = await deps.source.loadInstalled(tenant, plugin);
  const agentTools = loaded.agents.find((entry) => entry.definition.name === agent)?.definition.tools ?? [];
  const own = def.plugin ?? plugin;
  const outside = tools.filter((entry) => !toolEntryCovered(entry, own, agentTools, plugin));
  if (outside.length > 0) {
    throw new Oz0Error(
      "FORBIDDEN",
      `routine ${def.address} lists ${outside.join(", ")} under tools:, which ${plugin}/${agent} may not call; a routine's tools are a subset of its agent's (${agentTools.join(", ") || "none"}).`,
      { data: { tenant, action: `call ${outside.join(", ")}`, role: routineCaller(tenant, def).role } },
    );
  }
  return tools.map((entry) => {
    const full = qualifyEntry(entry, own);
    return full.startsWith(`${plugin}/`) ? full.slice(plugin.length + 1) : full;
  });
}

/** An agent by address, else a flow: agents and flows share one set of names. */
export async function resolveTarget(
  source: PartSource,
  tenant: string,
  run: string,
  plugin: string | undefined,
): Promise<{ plugin: string; name: string; kind: "agent" | "flow" }> {
  const options = plugin === undefined ? {} : { fromPlugin: plugin };
  try {
    const part = await source.resolvePart(tenant, "agent", run, options);
    return { plugin: part.plugin, name: part.name, kind: "agent" };
  } catch (error) {
    if (!isOz0Error(error, "NOT_FOUND")) throw error;
    try {
      const part = await source.resolvePart(tenant, "flow", run, options);
      return { plugin: part.plugin, name: part.name, kind: "flow" };
    } catch (second) {
      if (isOz0Error(second, "NOT_FOUND")) throw error;
      throw second;
    }
  }
}

/** The routine's state row, made when missing, locked for this transaction. */
export async function lockState(store: Store, trx: Trx, tenant: string, routine: string) {
  await trx
    .insertInto("routine_state")
    .values({ tenant, routine, cursor: null, updated_at: store.clockSql })
    .onConflict((conflict) => conflict.columns(["tenant", "routine"]).doNothing())
    .execute();
  const query = trx
    .selectFrom("routine_state")
    .selectAll()
    .where("tenant", "=", tenant)
    .where("routine", "=", routine);
  // SQLite's transactions begin immediate: the write lock is the lock.
  return (store.engine === "postgres" ? query.forUpdate() : query).executeTakeFirstOrThrow();
}

async function fired(trx: Trx, tenant: string, routine: string, key: string): Promise<boolean> {
  const row = await trx
    .selectFrom("routine_fires")
    .select("id")
    .where("tenant", "=", tenant)
    .where("routine", "=", routine)
    .where("key", "=", key)
    .executeTakeFirst();
  return row !== undefined;
}

/** Whether a job of an earlier fire has not ended (or, with `queued`, a fire waits its turn). */
async function busy(trx: Trx, tenant: string, routine: string, queued: boolean): Promise<boolean> {
  const running = await trx
    .selectFrom("routine_fires")
    .innerJoin("jobs", "jobs.id", "routine_fires.job_id")
    .select("routine_fires.id")
    .where("routine_fires.tenant", "=", tenant)
    .where("routine_fires.routine", "=", routine)
    .where("routine_fires.outcome", "=", "started")
    .where("jobs.status", "not in", [...TERMINAL_STATUSES])
    .limit(1)
    .executeTakeFirst();
  if (running !== undefined || !queued) return running !== undefined;
  const waiting = await trx
    .selectFrom("routine_fires")
    .select("id")
    .where("tenant", "=", tenant)
    .where("routine", "=", routine)
    .where("outcome", "=", "queued")
    .limit(1)
    .executeTakeFirst();
  return waiting !== undefined;
}

async function insertFire(
  store: Store,
  trx: Trx,
  tenant: string,
  def: RoutineDef,
  trigger: Trigger,
  outcome: FireOutcome,
  extra: { readonly job?: string; readonly detail?: string },
): Promise<string | undefined> {
  const id = `fire_${randomUUID().replaceAll("-", "")}`;
  const row = await trx
    .insertInto("routine_fires")
    .values({
      id,
      tenant,
      routine: def.address,
      key: trigger.key,
      cause: trigger.cause,
      outcome,
      tick_at: trigger.tickAt ?? null,
      job_id: extra.job ?? null,
      input: outcome === "queued" ? JSON.stringify(trigger.input ?? "") : null,
      detail: extra.detail ?? null,
      created_at: store.clockSql,
      updated_at: store.clockSql,
    })
    .onConflict((conflict) => conflict.columns(["tenant", "routine", "key"]).doNothing())
    .returning("id")
    .executeTakeFirst();
  return row?.id;
}

/** Records a fire that started no job; `duplicate` when the key was fired already. */
async function record(
  deps: FireDeps,
  tenant: string,
  def: RoutineDef,
  trigger: Trigger,
  outcome: Exclude<FireOutcome, "started">,
  detail: string,
): Promise<FireResult> {
  return deps.store.transaction(async (trx) => {
    const state = await lockState(deps.store, trx, tenant, def.address);
    if (state.paused !== 0 && outcome !== "missed") return { outcome: "paused" } as const;
    const id = await insertFire(deps.store, trx, tenant, def, trigger, outcome, { detail });
    return id === undefined ? ({ outcome: "duplicate" } as const) : { outcome, fire: id, detail };
  });
}

async function settleQueued(store: Store, id: string, outcome: FireOutcome, detail: string): Promise<void> {
  await store.db
    .updateTable("routine_fires")
    .set({ outcome, detail, input: null, updated_at: store.clockSql })
    .where("id", "=", id)
    .where("outcome", "=", "queued")
    .execute();
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
