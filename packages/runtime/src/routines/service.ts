// The routines service (`Runtime.routines`, `oz0 routine …`): list, fire, pause, resume and the
// history of a tenant's routines, its own routines added and removed, webhook secrets, and the
// webhook entry the server calls. Every operation takes a Caller and checks its role first.
import { randomUUID } from "node:crypto";
import { Oz0Error, type Routine, type RoutineInput } from "@oz0/sdk";
import { routineSchema, withArticle } from "@oz0/sdk/internal";
import type { HookRecordsEntry } from "../audit/index.js";
import { type Caller, hasRole, ROLES, requireRole } from "../callers/index.js";
import { requireTenant } from "../catalog/index.js";
import type { NewEvent } from "../events/index.js";
import type { SecretStore } from "../models/index.js";
import type { FireCause, FireOutcome, RoutineFireRow } from "../store/index.js";
import { eventOf, findRoutine, type RoutineDef, tenantRoutines } from "./definitions.js";
import {
  type FireDeps,
  type FireResult,
  fireRoutine,
  inScope,
  prepareRoutine,
  routineCaller,
} from "./fire.js";
import { nextTick } from "./schedule.js";
import { RoutineScheduler, type SchedulerOptions } from "./scheduler.js";
import { sensedWebhook } from "./sensor.js";
import {
  newWebhookSecret,
  verifyWebhook,
  type WebhookRequest,
  webhookInput,
  webhookSecretName,
} from "./webhook.js";

export interface RoutinesOptions extends FireDeps {
  /** Where webhook secrets are kept, encrypted. */
  readonly secrets: SecretStore;
  /** Where a webhook's hook records go when it starts no job (the audit log); dropped when left out. */
  readonly hookRecords?: ((entry: HookRecordsEntry) => Promise<void>) | undefined;
}

/** A routine as `oz0 routine list` shows it. */
export interface RoutineView {
  readonly name: string;
  /** `plugin` for a manifest's routine, `tenant` for one added with `oz0 routine add`. */
  readonly source: "plugin" | "tenant";
  readonly run: string;
  readonly schedule: string | null;
  readonly timezone: string | null;
  readonly event: string | null;
  readonly missed: "skip" | "catch_up_last";
  readonly overlap: "skip" | "queue" | "allow";
  readonly identity: { readonly actor: string; readonly role: string; readonly agents: readonly string[] };
  readonly tools: readonly string[] | null;
  readonly limits: Routine["limits"] | null;
  readonly paused: boolean;
  /** The next tick, ISO 8601; null for an event routine and a paused one. */
  readonly next: string | null;
  /** For a webhook routine: whether its secret is set (`oz0 routine secret`). */
  readonly secret: boolean | null;
  readonly last: FireView | null;
}

/** One firing, as `oz0 routine history` shows it. */
export interface FireView {
  readonly id: string;
  readonly routine: string;
  readonly cause: FireCause;
  readonly outcome: FireOutcome;
  readonly tick: string | null;
  readonly job: string | null;
  readonly detail: string | null;
  readonly at: string;
}

export class Routines {
  readonly #deps: FireDeps;
  readonly #secrets: SecretStore;
  readonly #hookRecords: (entry: HookRecordsEntry) => Promise<void>;

  constructor(options: RoutinesOptions) {
    this.#deps = { store: options.store, jobs: options.jobs, source: options.source };
    this.#secrets = options.secrets;
    this.#hookRecords = options.hookRecords ?? (async () => undefined);
  }

  /** A scheduler over this runtime's routines; `start()` sets it going (every worker runs one). */
  scheduler(options: Omit<SchedulerOptions, keyof FireDeps> = {}): RoutineScheduler {
    return new RoutineScheduler({ ...this.#deps, ...options });
  }

  /** The caller's tenant's routines whose agent is in the caller's scope. */
  async list(caller: Caller): Promise<RoutineView[]> {
    requireRole(caller, "viewer", "list routines");
    await requireTenant(this.#deps.store.db, caller.tenant);
    const defs = (await tenantRoutines(this.#deps.store, caller.tenant)).filter((def) =>
      this.#visible(caller, def),
    );
    return Promise.all(defs.map((def) => this.#view(caller.tenant, def)));
  }

  /** Fires routine `name` now, by hand; its job runs as the routine's identity, not the caller's. */
  async fire(caller: Caller, name: string, options: { readonly input?: unknown } = {}): Promise<FireView> {
    requireRole(caller, "runner", `fire routine ${name}`);
    const def = await this.#find(caller, name);
    // A fire by hand runs a job as the routine: a caller may not fire one that outranks it.
    const runsAs = routineCaller(caller.tenant, def).role;
    requireRole(caller, runsAs, `fire routine ${name}, which runs as ${withArticle(runsAs)}`);
    const result = await fireRoutine(this.#deps, caller.tenant, def, {
      key: `manual:${randomUUID()}`,
      cause: "manual",
      input: options.input ?? def.routine.input ?? "",
    });
    return this.#fired(caller.tenant, def, result);
  }

  async pause(caller: Caller, name: string): Promise<RoutineView> {
    return this.#setPaused(caller, name, true);
  }

  async resume(caller: Caller, name: string): Promise<RoutineView> {
    return this.#setPaused(caller, name, false);
  }

  /** The routine's fires, newest first. */
  async history(
    caller: Caller,
    name: string,
    options: { readonly limit?: number } = {},
  ): Promise<FireView[]> {
    requireRole(caller, "viewer", `read routine ${name}'s history`);
    const def = await this.#find(caller, name);
    const rows = await this.#deps.store.db
      .selectFrom("routine_fires")
      .selectAll()
      .where("tenant", "=", caller.tenant)
      .where("routine", "=", def.address)
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(options.limit ?? 20)
      .execute();
    return rows.map(fireView);
  }

  /**
   * Adds a routine of the tenant's own (`oz0 routine add`), checked as install checks a
   * manifest's: its target exists and is in its identity's scope, its tools are its agent's,
   * and its identity's role is no higher than the caller's.
   */
  async add(caller: Caller, input: RoutineInput): Promise<RoutineView> {
    requireRole(caller, "operator", "add a routine");
    await requireTenant(this.#deps.store.db, caller.tenant);
    const parsed = routineSchema.safeParse(input);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((issue) => ({
        path: issue.path.map(String).join(".") || "routine",
        message: issue.message,
      }));
      throw new Oz0Error(
        "INVALID_INPUT",
        `the routine is not valid: ${issues.map((issue) => `${issue.path}: ${issue.message}`).join("; ")}`,
        { data: { issues } },
      );
    }
    const routine = parsed.data;
    const def: RoutineDef = { address: routine.name, plugin: undefined, routine };
    const role = routine.identity?.role ?? "runner";
    if (!hasRole(caller, role)) {
      throw new Oz0Error(
        "FORBIDDEN",
        `${caller.actor} is ${withArticle(caller.role)} and may not add a routine that runs as ${withArticle(role)}; choose identity.role ${ROLES.slice(1, ROLES.indexOf(caller.role) + 1).join(" or ")}.`,
        { data: { tenant: caller.tenant, action: "add a routine", role: caller.role } },
      );
    }
    if (!routine.run.includes("/")) {
      throw new Oz0Error(
        "INVALID_INPUT",
        `a tenant's routine names its agent or flow by address, <plugin>/${routine.run}; it belongs to no plugin to read a bare name in.`,
        { data: { issues: [{ path: "run", message: "bare name" }] } },
      );
    }
    // What a fire would refuse, refused now: the target, the identity's scope, the tools.
    await this.#check(caller.tenant, def);
    const existing = await tenantRoutines(this.#deps.store, caller.tenant);
    if (existing.some((other) => other.address === routine.name)) {
      throw new Oz0Error(
        "ALREADY_EXISTS",
        `tenant ${caller.tenant} has a routine ${routine.name} already; remove it first (oz0 routine remove ${routine.name}) or choose another name.`,
        { data: { kind: "routine", name: routine.name, tenant: caller.tenant } },
      );
    }
    await this.#deps.store.db
      .insertInto("routines")
      .values({
        tenant: caller.tenant,
        name: routine.name,
        definition: JSON.stringify(routine),
        created_by: caller.actor,
        created_at: this.#deps.store.clockSql,
      })
      .execute();
    return this.#view(caller.tenant, def);
  }

  /** Removes a routine of the tenant's own; a plugin's goes with its plugin. */
  async remove(caller: Caller, name: string): Promise<{ readonly removed: string }> {
    requireRole(caller, "operator", `remove routine ${name}`);
    const def = await this.#find(caller, name);
    if (def.plugin !== undefined) {
      throw new Oz0Error(
        "NOT_SUPPORTED",
        `routine ${name} belongs to plugin ${def.plugin}'s manifest; pause it (oz0 routine pause ${name}), or update or remove the plugin.`,
        { data: { feature: "removing a plugin's routine" } },
      );
    }
    const { store } = this.#deps;
    await store.transaction(async (trx) => {
      await trx.deleteFrom("routines").where("tenant", "=", caller.tenant).where("name", "=", name).execute();
      await trx
        .deleteFrom("routine_state")
        .where("tenant", "=", caller.tenant)
        .where("routine", "=", name)
        .execute();
    });
    await this.#secrets.remove(caller.tenant, webhookSecretName(name));
    return { removed: name };
  }

  /**
   * Makes a webhook routine's secret anew and returns it: the only time it is shown. It is
   * stored encrypted; the previous one stops working at once.
   */
  async secret(caller: Caller, name: string): Promise<{ readonly routine: string; readonly secret: string }> {
    requireRole(caller, "operator", `set routine ${name}'s webhook secret`);
    const def = await this.#find(caller, name);
    const event = eventOf(def);
    if (event === undefined || !("kind" in event) || event.kind !== "webhook") {
      throw new Oz0Error(
        "NOT_SUPPORTED",
        `routine ${name} is not fired by a webhook (${def.routine.event === undefined ? `its schedule is ${def.routine.schedule}` : `its event is ${def.routine.event}`}); only an event: webhook routine has a secret.`,
        { data: { feature: "a webhook secret" } },
      );
    }
    const secret = newWebhookSecret();
    await this.#secrets.set(caller.tenant, webhookSecretName(def.address), secret);
    return { routine: def.address, secret };
  }

  /**
   * A signed webhook for routine `request.routine` of `request.tenant`: verified (signature,
   * timestamp window, replay), then fired with the body as input. The signature is the
   * credential, so no caller is asked for; every refusal is UNAUTHENTICATED.
   */
  async webhook(request: WebhookRequest): Promise<FireView> {
    const { store } = this.#deps;
    const refuse = (reason: string, message: string) =>
      new Oz0Error("UNAUTHENTICATED", `webhook for routine ${request.routine} refused: ${message}`, {
        data: { scheme: "hmac-sha256", reason },
      });
    // An unknown tenant or routine is refused as a bad signature would be: nothing to probe.
    let def: RoutineDef;
    try {
      await requireTenant(store.db, request.tenant);
      def = await findRoutine(store, request.tenant, request.routine);
    } catch {
      throw refuse("signature", "no routine of that name takes webhooks with this signature");
    }
    const event = eventOf(def);
    const secret =
      event !== undefined && "kind" in event && event.kind === "webhook"
        ? await this.#secrets.get(request.tenant, webhookSecretName(def.address))
        : undefined;
    if (secret === undefined)
      throw refuse("signature", "no routine of that name takes webhooks with this signature");
    const signature = verifyWebhook(secret, request, await store.now());
    // The webhook is an event from outside: pre_sensor_event may rewrite or refuse it (sensor.ts).
    const sensed = await sensedWebhook(
      this.#deps.jobs,
      request.tenant,
      def.address,
      webhookInput(request.body),
      this.#hookRecords,
    );
    if (!sensed.ok) throw sensed.error;
    const result = await fireRoutine(this.#deps, request.tenant, def, {
      key: `webhook:${signature}`,
      cause: "webhook",
      input: sensed.event,
      events: sensed.events,
    });
    await sensed.handled(result.outcome, result.outcome === "started" ? result.job.id : undefined);
    if (result.outcome === "duplicate") {
      throw refuse(
        "replay",
        "this signature was used before; each request is signed anew, with its own timestamp",
      );
    }
    return this.#fired(request.tenant, def, result);
  }

  /**
   * A message channel `channel` (`<plugin>/<channel>`) received: fires each routine of the tenant
   * whose event is `channel:<channel>`, once per message (`key`), with `input` as its job's input.
   */
  async channelMessage(
    tenant: string,
    channel: string,
    key: string,
    input: unknown,
    /** What the message's hooks recorded, for each started job's history, after its job_started. */
    events?: readonly NewEvent[],
  ): Promise<{ routine: string; result: FireResult }[]> {
    const fired: { routine: string; result: FireResult }[] = [];
    for (const def of await tenantRoutines(this.#deps.store, tenant)) {
      const event = eventOf(def);
      if (
        event === undefined ||
        !("kind" in event) ||
        event.kind !== "channel" ||
        event.channel !== channel
      ) {
        continue;
      }
      // Its fire's key names the message, so a message fires each routine once.
      const result = await fireRoutine(this.#deps, tenant, def, {
        key: `channel:${key}`,
        cause: "channel",
        input,
        ...(events === undefined || events.length === 0 ? {} : { events }),
      });
      fired.push({ routine: def.address, result });
    }
    return fired;
  }

  async #setPaused(caller: Caller, name: string, paused: boolean): Promise<RoutineView> {
    requireRole(caller, "operator", `${paused ? "pause" : "resume"} routine ${name}`);
    const def = await this.#find(caller, name);
    const { store } = this.#deps;
    await store.db
      .insertInto("routine_state")
      .values({
        tenant: caller.tenant,
        routine: def.address,
        paused: paused ? 1 : 0,
        paused_by: paused ? caller.actor : null,
        cursor: null,
        updated_at: store.clockSql,
      })
      .onConflict((conflict) =>
        conflict.columns(["tenant", "routine"]).doUpdateSet({
          paused: paused ? 1 : 0,
          paused_by: paused ? caller.actor : null,
          updated_at: store.clockSql,
        }),
      )
      .execute();
    return this.#view(caller.tenant, def);
  }

  /** A fire's result as its view; a paused routine's fire is refused. */
  async #fired(tenant: string, def: RoutineDef, result: FireResult): Promise<FireView> {
    if (result.outcome === "paused") {
      throw new Oz0Error(
        "ROUTINE_PAUSED",
        `routine ${def.address} is paused, so it fires nothing; resume it with oz0 routine resume ${def.address}.`,
        { data: { tenant, routine: def.address } },
      );
    }
    if (result.outcome === "duplicate") throw new Error(`routine ${def.address} fired a key twice`);
    const row = await this.#deps.store.db
      .selectFrom("routine_fires")
      .selectAll()
      .where("id", "=", result.fire)
      .executeTakeFirstOrThrow();
    return fireView(row);
  }

  /** Throws what firing `def` now would refuse with (its target, scope, tools). */
  async #check(tenant: string, def: RoutineDef): Promise<void> {
    await prepareRoutine(this.#deps, tenant, def);
  }

  /** The routine, when the caller may see its agent; NOT_FOUND otherwise, as for one that does not exist. */
  async #find(caller: Caller, name: string): Promise<RoutineDef> {
    await requireTenant(this.#deps.store.db, caller.tenant);
    const def = await findRoutine(this.#deps.store, caller.tenant, name);
    if (!this.#visible(caller, def)) {
      throw new Oz0Error("NOT_FOUND", `tenant ${caller.tenant} has no routine ${name}.`, {
        data: { kind: "routine", name, tenant: caller.tenant },
      });
    }
    return def;
  }

  #visible(caller: Caller, def: RoutineDef): boolean {
    const run = def.routine.run;
    const address = run.includes("/") || def.plugin === undefined ? run : `${def.plugin}/${run}`;
    return inScope(caller.agents, address, undefined);
  }

  async #view(tenant: string, def: RoutineDef): Promise<RoutineView> {
    const { store } = this.#deps;
    const state = await store.db
      .selectFrom("routine_state")
      .select(["paused"])
      .where("tenant", "=", tenant)
      .where("routine", "=", def.address)
      .executeTakeFirst();
    const last = await store.db
      .selectFrom("routine_fires")
      .selectAll()
      .where("tenant", "=", tenant)
      .where("routine", "=", def.address)
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(1)
      .executeTakeFirst();
    const paused = (state?.paused ?? 0) !== 0;
    const { routine } = def;
    const event = eventOf(def);
    const webhook = event !== undefined && "kind" in event && event.kind === "webhook";
    const caller = routineCaller(tenant, def);
    const next = routine.schedule === undefined || paused ? undefined : nextTick(routine, await store.now());
    return {
      name: def.address,
      source: def.plugin === undefined ? "tenant" : "plugin",
      run: routine.run,
      schedule: routine.schedule ?? null,
      timezone: routine.schedule === undefined ? null : (routine.timezone ?? "UTC"),
      event: routine.event ?? null,
      missed: routine.missed ?? "skip",
      overlap: routine.overlap ?? "skip",
      identity: { actor: caller.actor, role: caller.role, agents: caller.agents },
      tools: routine.tools ?? null,
      limits: routine.limits ?? null,
      paused,
      next: next === undefined ? null : new Date(next).toISOString(),
      secret: webhook
        ? (await this.#secrets.describe(tenant, webhookSecretName(def.address))) !== undefined
        : null,
      last: last === undefined ? null : fireView(last),
    };
  }
}

function fireView(row: RoutineFireRow): FireView {
  return {
    id: row.id,
    routine: row.routine,
    cause: row.cause,
    outcome: row.outcome,
    tick: row.tick_at === null ? null : new Date(Number(row.tick_at)).toISOString(),
    job: row.job_id,
    detail: row.detail,
    at: new Date(Number(row.created_at)).toISOString(),
  };
}
