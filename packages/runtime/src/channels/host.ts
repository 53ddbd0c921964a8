// The channel host: one mechanism for every channel. An inbound request is verified by the
// channel's own `verify` (no API key is asked for), ingested into a SurfaceEnvelope, passed
// through `pre_sensor_event` (which may refuse or rewrite it) and stored as an `inbound` row
// of `channel_messages` before the sender is answered. A worker's drain then, for each row:
// fires the routines of `event: channel:<plugin>/<channel>`, carries out a command (approve,
// deny, answer) as the sender's member, or opens or continues the thread's chat with the
// channel's agent (`pre/post_session_access`); once the job comes to rest the answer is fixed
// in the row and delivered through the channel's `deliver`, retried with backoff. A channel with
// notifications on is told, in the thread, the whole of what its job waits for, and at its own
// target (`notify`) each other approval and question of the tenant, queued by each drain pass
// (notifications.ts). Every step is a row state under a lease, so a process that dies anywhere
// leaves work another takes up. What the hooks record of a message is kept with its row until
// the message becomes a job or a chat turn, whose history takes it; a message that becomes none
// leaves it in the audit log.
import { createHash, randomUUID } from "node:crypto";
import {
  type Channel,
  type ChannelRequest,
  type HookName,
  Oz0Error,
  type PluginConfig,
  type RuntimeContext,
  type RuntimeInstance,
  SurfaceEnvelope,
  type SurfaceResponse,
  toOz0Error,
} from "@oz0/sdk";
import type { HookRecordsEntry } from "../audit/index.js";
import { type Caller, isRole } from "../callers/index.js";
import type { JobEvent, NewEvent } from "../events/index.js";
import { type HookBus as Bus, HookBus, type HookSource } from "../hooks/index.js";
import type { JobEngine, JobView } from "../jobs/index.js";
import type { LoadedPlugin } from "../plugin-dir/index.js";
import type { Routines } from "../routines/index.js";
import type { ChannelMessageRow, ChannelMessageState, Store } from "../store/index.js";
import { channelCommand } from "./commands.js";
import {
  isTargetNotification,
  notificationOf,
  pendingForPeople,
  personWait,
  waitNotice,
} from "./notifications.js";
import {
  type ChannelEntry,
  ChannelRegistry,
  type ChannelSource,
  channelAddress,
  channelEntry,
} from "./registry.js";

/** Outbox settings when the options leave them out. */
export const CHANNEL_DEFAULTS = {
  /** How long a claim holds a row: longer than a delivery may take. */
  leaseMs: 60_000,
  /** How long one `deliver` may take before it counts as failed. */
  deliverTimeoutMs: 30_000,
  /** Delivery attempts before a row is `failed`. */
  maxAttempts: 8,
  /** The first retry's wait; each next one doubles, up to `maxBackoffMs`. */
  backoffMs: 1_000,
  maxBackoffMs: 300_000,
  /** How soon a row whose job has not come to rest is looked at again. */
  recheckMs: 250,
  /** Rows one pass claims at most. */
  batch: 50,
} as const;

/** What the channel host needs from the service layer, wired in by the runtime. */
export interface ChannelTurns {
  /** The chat service's next turn, queued for a worker: the first starts the thread's job. */
  post(
    caller: Caller,
    turn: {
      readonly agent: string;
      readonly job?: string | undefined;
      readonly text: string;
      readonly chat: boolean;
    },
  ): Promise<JobView>;
  decide(
    caller: Caller,
    approval: string,
    decision: "approve" | "deny",
    reason?: string,
  ): Promise<{
    readonly changed: boolean;
    readonly approval: { readonly status: string; readonly decidedBy: string | null };
  }>;
  answer(caller: Caller, job: string, text: string): Promise<unknown>;
}

export interface ChannelHostOptions {
  readonly store: Store;
  readonly source: ChannelSource;
  readonly jobs: JobEngine;
  readonly routines: Routines;
  readonly hooks: HookSource;
  /** Where the hook records of a message that becomes no job go (the audit log); dropped when left out. */
  readonly hookRecords?: ((entry: HookRecordsEntry) => Promise<void>) | undefined;
  readonly leaseMs?: number;
  readonly deliverTimeoutMs?: number;
  readonly maxAttempts?: number;
  readonly backoffMs?: number;
}

export interface InboundRequest {
  readonly tenant: string;
  readonly plugin: string;
  readonly channel: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** What the endpoint answers: a handshake's reply, or what became of the event. */
export type InboundResult =
  | { readonly kind: "reply"; readonly reply: unknown }
  | {
      readonly kind: "event";
      readonly outcome: "accepted" | "duplicate" | "ignored" | "refused";
      readonly message?: string;
      readonly reason?: string;
    };

/** A channel of a tenant with its outbox counts, for `oz0 channel list`. */
export interface ChannelView {
  readonly channel: string;
  readonly plugin: string;
  readonly name: string;
  readonly enabled: boolean;
  readonly supportsNotifications: boolean;
  readonly configured: boolean;
  readonly notificationsEnabled: boolean;
  /** How many of its messages are in each state. */
  readonly outbox: Readonly<Record<ChannelMessageState, number>>;
}

const OPEN_STATES: readonly ChannelMessageState[] = ["inbound", "answering", "delivering"];

let lastIdMs = 0;
let idsThisMs = 0;

/**
 * A new outbox row's ID, after every ID this process made before it: the drain takes rows by
 * `created_at`, then ID, so messages that arrive within one millisecond go out in the order
 * they came.
 */
function newMessageId(): string {
  const now = Date.now();
  if (now > lastIdMs) {
    lastIdMs = now;
    idsThisMs = 0;
  } else idsThisMs += 1;
  const ordered = `${lastIdMs.toString(36).padStart(9, "0")}${idsThisMs.toString(36).padStart(4, "0")}`;
  return `chm_${ordered}${randomUUID().slice(0, 8)}`;
}

const TERMINAL = new Set(["succeeded", "failed", "cancelled", "dead"]);

export class ChannelHost {
  readonly registry: ChannelRegistry;
  readonly #store: Store;
  readonly #jobs: JobEngine;
  readonly #routines: Routines;
  readonly #hooks: HookSource;
  readonly #hookRecords: (entry: HookRecordsEntry) => Promise<void>;
  readonly #leaseMs: number;
  readonly #deliverTimeoutMs: number;
  readonly #maxAttempts: number;
  readonly #backoffMs: number;
  readonly #owner = `channels-${randomUUID()}`;
  #turns: ChannelTurns | undefined;
  readonly #kicks = new Set<() => void>();

  constructor(options: ChannelHostOptions) {
    this.#store = options.store;
    this.registry = new ChannelRegistry(options.store, options.source);
    this.#jobs = options.jobs;
    this.#routines = options.routines;
    this.#hooks = options.hooks;
    this.#hookRecords = options.hookRecords ?? (async () => undefined);
    this.#leaseMs = options.leaseMs ?? CHANNEL_DEFAULTS.leaseMs;
    this.#deliverTimeoutMs = options.deliverTimeoutMs ?? CHANNEL_DEFAULTS.deliverTimeoutMs;
    this.#maxAttempts = options.maxAttempts ?? CHANNEL_DEFAULTS.maxAttempts;
    this.#backoffMs = options.backoffMs ?? CHANNEL_DEFAULTS.backoffMs;
  }

  /** Wires the service layer's chat, approvals and answers (the runtime does, once services exist). */
  connect(turns: ChannelTurns): void {
    this.#turns = turns;
  }

  /** The tenant's channels with their outbox counts. */
  async list(tenant: string): Promise<ChannelView[]> {
    const counts = await this.#store.db
      .selectFrom("channel_messages")
      .select(["plugin", "channel", "state", (eb) => eb.fn.countAll<number>().as("n")])
      .where("tenant", "=", tenant)
      .groupBy(["plugin", "channel", "state"])
      .execute();
    return (await this.registry.list(tenant)).map((entry) => {
      const outbox = { inbound: 0, answering: 0, delivering: 0, delivered: 0, failed: 0 };
      for (const row of counts) {
        if (row.plugin === entry.plugin && row.channel === entry.name) outbox[row.state] = Number(row.n);
      }
      return {
        channel: channelAddress(entry.plugin, entry.name),
        plugin: entry.plugin,
        name: entry.name,
        enabled: entry.enabled,
        supportsNotifications: entry.supportsNotifications,
        configured: entry.configured,
        notificationsEnabled: entry.notificationsEnabled,
        outbox,
      };
    });
  }

  /**
   * A request to a channel's inbound endpoint. Every refusal is UNAUTHENTICATED and says the same
   * for a tenant, plugin or channel that does not exist, is not configured, or verifies nothing,
   * as for a bad signature: there is nothing to probe. `data.reason` says which check failed.
   */
  async receive(request: InboundRequest): Promise<InboundResult> {
    const refuse = (reason: string, message: string) =>
      new Oz0Error(
        "UNAUTHENTICATED",
        `channel ${channelAddress(request.plugin, request.channel)} refused the request: ${message}`,
        { data: { scheme: "channel", reason } },
      );
    const unknown = () =>
      refuse("unverified", "no configured channel of that name verifies requests like this one");
    const tenant = await this.#store.db
      .selectFrom("tenants")
      .select("name")
      .where("name", "=", request.tenant)
      .executeTakeFirst();
    if (tenant === undefined) throw unknown();
    const entry = await this.registry.find(request.tenant, request.plugin, request.channel);
    if (entry === undefined || !entry.enabled || !entry.configured) throw unknown();
    const channel = await this.registry.channel(entry, this.#submitter(entry));
    if (typeof channel.verify !== "function" || typeof channel.ingest !== "function") throw unknown();
    const raw: ChannelRequest = Object.freeze({
      headers: Object.freeze({ ...request.headers }),
      body: request.body,
      receivedAt: await this.#store.now(),
    });
    const verdict = (await channel.verify(raw)) as { ok: boolean; reason?: string };
    if (verdict?.ok !== true) throw refuse("signature", verdict?.reason ?? "the request is not verified");
    const ingested: unknown = await channel.ingest(raw);
    if (ingested === undefined) return { kind: "event", outcome: "ignored" };
    if (isReply(ingested)) return { kind: "reply", reply: ingested.reply };
    const envelope = asEnvelope(ingested);
    return { kind: "event", ...(await this.accept(entry, envelope, eventKey(envelope, request.body))) };
  }

  /**
   * Takes an envelope in (from the endpoint, or a started adapter's `submit`): `pre_sensor_event`
   * may refuse or rewrite it; then it is stored once per event key and the drain is woken.
   */
  async accept(
    entry: ChannelEntry,
    envelope: SurfaceEnvelope,
    key: string,
  ): Promise<{ outcome: "accepted" | "duplicate" | "refused"; message?: string; reason?: string }> {
    const source = channelAddress(entry.plugin, entry.name);
    const sensor = "channel" as const;
    const recorded: NewEvent[] = [];
    const bus = await this.#bus(entry.tenant, recorded);
    let taken = envelope;
    if (bus.has("pre_sensor_event")) {
      const outcome = await bus.fire("pre_sensor_event", { sensor, source, event: envelopeFields(envelope) });
      if (!outcome.ok) {
        await this.#post(bus, "post_sensor_event", {
          sensor,
          source,
          event: envelopeFields(envelope),
          outcome: "refused",
        });
        await this.#unkept(entry.tenant, source, key, "refused", recorded);
        return { outcome: "refused", reason: outcome.error.message };
      }
      taken = rebuilt(envelope, outcome.payload.event);
    }
    const now = await this.#store.now();
    const id = newMessageId();
    // Held by this host until post_sensor_event's records are in the row, for the drain to take them with it.
    const held = bus.has("post_sensor_event");
    const inserted = await this.#store.db
      .insertInto("channel_messages")
      .values({
        id,
        tenant: entry.tenant,
        plugin: entry.plugin,
        channel: entry.name,
        event_key: key,
        // JSON, not a separator: PostgreSQL's text holds no NUL, and either part may hold anything else.
        thread_key: taken.threadId === "" ? null : JSON.stringify([taken.channelId, taken.threadId]),
        envelope: JSON.stringify(envelopeFields(taken)),
        state: "inbound",
        next_at: now,
        created_at: now,
        updated_at: now,
        hook_events: recorded.length === 0 ? null : JSON.stringify(recorded),
        ...(held ? { lease_owner: this.#owner, lease_until: now + this.#leaseMs } : {}),
      })
      .onConflict((conflict) => conflict.columns(["tenant", "plugin", "channel", "event_key"]).doNothing())
      .executeTakeFirst();
    const fresh = Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1;
    await this.#post(bus, "post_sensor_event", {
      sensor,
      source,
      event: envelopeFields(taken),
      outcome: fresh ? "accepted" : "duplicate",
    });
    if (!fresh) {
      await this.#unkept(entry.tenant, source, key, "duplicate", recorded);
      return { outcome: "duplicate" };
    }
    if (held) {
      await this.#release(id, { hook_events: recorded.length === 0 ? null : JSON.stringify(recorded) });
    }
    for (const kick of this.#kicks) kick();
    return { outcome: "accepted", message: id };
  }

  /**
   * Sends `text` out through channel `plugin/name` of `tenant` to the surface's `channelId` (and
   * thread), through the outbox like any answer: `oz0 channel send`, to try a channel's delivery.
   * A channel the tenant does not have is NOT_FOUND.
   */
  async send(
    tenant: string,
    request: {
      readonly channel: string;
      readonly channelId: string;
      readonly threadId?: string | undefined;
      readonly text: string;
      readonly by: string;
    },
  ): Promise<{ readonly message: string }> {
    const [plugin = "", name = ""] = request.channel.split("/");
    const entry = await this.registry.find(tenant, plugin, name);
    if (entry === undefined || !entry.enabled) {
      const known = (await this.registry.list(tenant)).map((one) => channelAddress(one.plugin, one.name));
      throw new Oz0Error(
        "NOT_FOUND",
        `tenant ${tenant} has no channel ${request.channel}; ${known.length === 0 ? "it has none (install a plugin that registers one, such as plugins/channels)" : `its channels: ${known.join(", ")}`}.`,
        { data: { kind: "channel", name: request.channel, tenant } },
      );
    }
    const envelope = new SurfaceEnvelope({
      surfaceType: "oz0",
      channelId: request.channelId,
      senderId: request.by,
      threadId: request.threadId ?? "",
      content: request.text,
    });
    const now = await this.#store.now();
    const id = newMessageId();
    await this.#store.db
      .insertInto("channel_messages")
      .values({
        id,
        tenant,
        plugin,
        channel: name,
        event_key: `send:${id}`,
        thread_key: null,
        envelope: JSON.stringify(envelopeFields(envelope)),
        state: "delivering",
        response: JSON.stringify({ content: request.text }),
        next_at: now,
        created_at: now,
        updated_at: now,
      })
      .execute();
    for (const kick of this.#kicks) kick();
    return { message: id };
  }

  /**
   * The listeners (`start`/`stop`) of an installed plugin's enabled, configured channels, as the
   * runtimes `channel:<name>` the runtime host runs once per tenant cluster-wide: started,
   * restarted with backoff when `start` throws or the listener calls `fail`, replaced when the
   * config changes, stopped when the channel goes. Each runs its own build of the channel, from
   * the config the host gives it; a channel without `start` runs as a listener that does nothing.
   */
  listeners(plugin: {
    readonly tenant: string;
    readonly plugin: string;
    readonly loaded: LoadedPlugin;
    readonly config: PluginConfig;
  }): { readonly name: string; build(ctx: RuntimeContext): Promise<RuntimeInstance> }[] {
    return (plugin.loaded.code?.registrations("channel") ?? [])
      .map((registration) =>
        channelEntry(plugin.tenant, plugin.plugin, registration, plugin.loaded, plugin.config),
      )
      .filter((entry) => entry.enabled && entry.configured)
      .map((entry) => ({ name: `channel:${entry.name}`, build: (ctx) => this.#listener(entry, ctx) }));
  }

  async #listener(given: ChannelEntry, ctx: RuntimeContext): Promise<RuntimeInstance> {
    const entry = { ...given, config: ctx.config };
    const submit = this.#submitter(entry);
    const channel = await entry.spec.build({ pluginId: entry.plugin, config: entry.config, submit });
    return {
      start: () => channel.start?.({ submit, signal: ctx.signal, fail: (error) => ctx.fail(error) }),
      stop: () => channel.stop?.(),
    };
  }

  /** Told when a message arrives in this process, so the drain need not wait for its poll. */
  onMessage(kick: () => void): () => void {
    this.#kicks.add(kick);
    return () => this.#kicks.delete(kick);
  }

  /**
   * One pass over the rows due (of `tenant`, or every tenant's): each claimed under a lease, moved
   * on as far as it can go, and let go. Returns how many rows it worked on.
   */
  async drain(tenant?: string): Promise<number> {
    // A fault queueing notifications (a tenant's plugin that no longer loads) holds up no answer:
    // the rows are drained all the same, and the fault is thrown after them for the drainer to report.
    const fault = await this.#queueNotifications(tenant).then(
      () => undefined,
      (error: unknown) => ({ error }),
    );
    const now = await this.#store.now();
    let query = this.#store.db
      .selectFrom("channel_messages")
      .selectAll()
      .where("state", "in", OPEN_STATES)
      .where("next_at", "<=", now)
      .where((eb) => eb.or([eb("lease_until", "is", null), eb("lease_until", "<=", now)]))
      .orderBy("created_at")
      .orderBy("id")
      .limit(CHANNEL_DEFAULTS.batch);
    if (tenant !== undefined) query = query.where("tenant", "=", tenant);
    let worked = 0;
    for (const row of await query.execute()) {
      if (!(await this.#claim(row, now))) continue;
      worked += 1;
      try {
        await this.#advance(row);
      } catch (error) {
        await this.#release(row.id, {
          next_at: (await this.#store.now()) + this.#backoffMs,
          last_error: text(error),
        });
      }
    }
    if (fault !== undefined) throw fault.error;
    return worked;
  }

  async #claim(row: ChannelMessageRow, now: number): Promise<boolean> {
    const claimed = await this.#store.db
      .updateTable("channel_messages")
      .set({ lease_owner: this.#owner, lease_until: now + this.#leaseMs })
      .where("id", "=", row.id)
      .where("state", "=", row.state)
      .where((eb) => eb.or([eb("lease_until", "is", null), eb("lease_until", "<=", now)]))
      .executeTakeFirst();
    return Number(claimed.numUpdatedRows) === 1;
  }

  /** Lets go of a claimed row, with `set` written in the same statement. */
  async #release(id: string, set: Partial<Omit<ChannelMessageRow, "id">>): Promise<void> {
    await this.#store.db
      .updateTable("channel_messages")
      .set({ ...set, lease_owner: null, lease_until: null, updated_at: await this.#store.now() })
      .where("id", "=", id)
      .where("lease_owner", "=", this.#owner)
      .execute();
  }

  async #later(id: string, ms = CHANNEL_DEFAULTS.recheckMs): Promise<void> {
    await this.#release(id, { next_at: (await this.#store.now()) + ms });
  }

  async #advance(row: ChannelMessageRow): Promise<void> {
    if (row.state === "inbound") return this.#inbound(row);
    if (row.state === "answering") return this.#answering(row);
    return this.#deliver(row);
  }

  async #inbound(row: ChannelMessageRow): Promise<void> {
    const envelope = new SurfaceEnvelope(JSON.parse(row.envelope));
    const entry = await this.registry.find(row.tenant, row.plugin, row.channel);
    if (entry === undefined) {
      return this.#release(row.id, { state: "failed", last_error: "the channel is no longer installed" });
    }
    // A thread's messages are its chat's turns, in the order they arrived.
    if (row.thread_key !== null) {
      const earlier = await this.#store.db
        .selectFrom("channel_messages")
        .select("id")
        .where("tenant", "=", row.tenant)
        .where("plugin", "=", row.plugin)
        .where("channel", "=", row.channel)
        .where("thread_key", "=", row.thread_key)
        .where("state", "=", "inbound")
        .where((eb) =>
          eb.or([
            eb("created_at", "<", row.created_at),
            eb.and([eb("created_at", "=", row.created_at), eb("id", "<", row.id)]),
          ]),
        )
        .executeTakeFirst();
      if (earlier !== undefined) return this.#later(row.id);
    }
    const channel = await this.registry.channel(entry, this.#submitter(entry));
    const address = channelAddress(row.plugin, row.channel);
    // What the message's sensor hooks recorded: each job it becomes takes it into its history.
    const sensed = JSON.parse(row.hook_events ?? "[]") as NewEvent[];
    // Each message fires the channel's routines once (the fire's key is the message), their answers delivered too.
    const fired = await this.#routines.channelMessage(
      row.tenant,
      address,
      row.id,
      routineInput(envelope),
      sensed,
    );
    const started = fired.filter(({ result }) => result.outcome === "started");
    for (const { routine, result } of started) {
      if (result.outcome !== "started") continue;
      await this.#follow(row, `routine:${routine}`, result.job.id, 0, null);
    }
    // A message that becomes no job (a command, one no agent takes, a refusal) leaves its records
    // in the audit log; a routine's job it started has its sensor hooks' records already.
    const unkept = (outcome: string, events: readonly NewEvent[]) =>
      this.#unkept(
        row.tenant,
        address,
        row.id,
        outcome,
        started.length > 0 ? events.slice(sensed.length) : events,
      );
    const command = channelCommand(envelope.content, envelope.metadata);
    if (command !== undefined) {
      await unkept(`command ${command.kind}`, sensed);
      return this.#respond(row, await this.#command(row.tenant, channel, envelope, command));
    }
    if (channel.agent === undefined) {
      if (fired.length > 0) return this.#release(row.id, { state: "delivered" });
      await unkept("no agent", sensed);
      return this.#respond(row, {
        content: `${address} sends messages to no agent: set the agent in its config (oz0 plugin config ${row.plugin}).`,
      });
    }
    const turns = this.#requireTurns();
    const caller = channelCaller(row.tenant, address, channel.agent);
    const thread =
      row.thread_key === null
        ? undefined
        : await this.#store.db
            .selectFrom("channel_threads")
            .select("job")
            .where("tenant", "=", row.tenant)
            .where("plugin", "=", row.plugin)
            .where("channel", "=", row.channel)
            .where("thread_key", "=", row.thread_key)
            .executeTakeFirst();
    let job: JobView | undefined;
    if (thread !== undefined) {
      job = await this.#jobs.get(thread.job, row.tenant).catch(() => undefined);
      if (job !== undefined && !TERMINAL.has(job.status)) {
        // The chat answers one message at a time: this one waits for the last answer.
        if (job.status !== "waiting" || job.waitingFor?.kind !== "chat") return this.#later(row.id);
      } else {
        job = undefined;
      }
    }
    const recorded: NewEvent[] = [...sensed];
    const bus = await this.#bus(row.tenant, recorded);
    const access = {
      kind: "channel" as const,
      session: row.thread_key ?? row.id,
      surface: envelope.surfaceType,
      channel: address,
      channelId: envelope.channelId,
      threadId: envelope.threadId,
      senderId: envelope.senderId,
      target: channel.agent,
      access: job === undefined ? ("open" as const) : ("continue" as const),
      ...(job === undefined ? {} : { job: job.id }),
    };
    let agent = channel.agent;
    if (bus.has("pre_session_access")) {
      const outcome = await bus.fire("pre_session_access", access);
      if (!outcome.ok) {
        await unkept("refused", recorded);
        return this.#respond(row, { content: `refused: ${outcome.error.message}` });
      }
      const changed = outcome.payload.kind === "channel" ? outcome.payload.target : undefined;
      // Only a session being opened may be sent to another agent; a chat's agent is its own.
      if (job === undefined && typeof changed === "string" && changed !== "") agent = changed;
    }
    let posted: JobView;
    try {
      posted = await turns.post(
        agent === channel.agent ? caller : channelCaller(row.tenant, address, agent),
        {
          agent,
          job: job?.id,
          text: envelope.content,
          chat: row.thread_key !== null,
        },
      );
    } catch (error) {
      const refused = toOz0Error(error);
      // The chat moved on between the look and the post: this message waits for its turn.
      if (refused.code === "JOB_STATE_CONFLICT") return this.#later(row.id);
      if (refused.side !== "user") throw error;
      // An agent that is not there (or not the channel's to start) is the thread's to hear of, not to retry.
      await unkept("refused", recorded);
      return this.#respond(row, { content: `refused: ${refused.message}` });
    }
    if (job === undefined && row.thread_key !== null) {
      const now = await this.#store.now();
      await this.#store.db
        .insertInto("channel_threads")
        .values({
          tenant: row.tenant,
          plugin: row.plugin,
          channel: row.channel,
          thread_key: row.thread_key,
          job: posted.id,
          updated_at: now,
        })
        .onConflict((conflict) =>
          conflict
            .columns(["tenant", "plugin", "channel", "thread_key"])
            .doUpdateSet({ job: posted.id, updated_at: now }),
        )
        .execute();
    }
    const after = job === undefined ? 0 : await lastUserMessage(this.#jobs, posted.id, row.tenant);
    await this.#post(bus, "post_session_access", { ...access, job: posted.id });
    // The message became this job's turn: what its hooks recorded joins the job's history.
    await this.#jobs.note(posted.id, row.tenant, recorded);
    return this.#release(row.id, {
      state: "answering",
      job: posted.id,
      after_seq: after,
      next_at: await this.#store.now(),
    });
  }

  async #answering(row: ChannelMessageRow): Promise<void> {
    const job = await this.#jobs.get(row.job ?? "", row.tenant).catch(() => undefined);
    if (job === undefined) return this.#respond(row, { content: `the job ${row.job} is gone.` });
    const events = await this.#jobs.events(job.id, { tenant: row.tenant, afterSeq: Number(row.after_seq) });
    if (job.status === "waiting" && job.waitingFor?.kind === "chat") {
      return this.#respond(row, { content: lastAnswer(events) ?? "", jobId: job.id });
    }
    if (job.status === "succeeded") {
      return this.#respond(row, {
        content: lastAnswer(events) ?? answerText(job.output),
        ...(typeof job.output === "string" ? {} : { output: job.output }),
        jobId: job.id,
      });
    }
    if (TERMINAL.has(job.status)) {
      return this.#respond(row, {
        content: `job ${job.id} ${job.status}${job.failure === null ? "" : `: ${job.failure.message}`}`,
        jobId: job.id,
      });
    }
    const wait = events.findLast((event) => event.kind === "job_waiting");
    const asks = personWait(job);
    if (wait !== undefined && asks !== undefined) {
      // Tell the thread what the job waits for, and keep watching for its answer in a row of its own.
      await this.#follow(row, `${row.event_key}#${wait.seq}`, job.id, wait.seq, row.thread_key);
      const entry = await this.registry.find(row.tenant, row.plugin, row.channel);
      if (entry?.supportsNotifications === true && entry.notificationsEnabled) {
        // The history before this row's turn holds the call's request too, when a turn asked it earlier.
        const notification = notificationOf(
          job,
          asks,
          await this.#jobs.events(job.id, { tenant: row.tenant }),
        );
        return this.#respond(row, { content: notification.body, notification, jobId: job.id });
      }
      return this.#respond(row, { content: waitNotice(job, asks), jobId: job.id });
    }
    return this.#later(row.id);
  }

  /** A row that delivers the answer job `job` writes after `after`, to where `from` came from. */
  async #follow(
    from: ChannelMessageRow,
    key: string,
    job: string,
    after: number,
    thread: string | null,
  ): Promise<void> {
    const now = await this.#store.now();
    await this.#store.db
      .insertInto("channel_messages")
      .values({
        id: newMessageId(),
        tenant: from.tenant,
        plugin: from.plugin,
        channel: from.channel,
        event_key: key,
        thread_key: thread,
        envelope: from.envelope,
        state: "answering",
        job,
        after_seq: after,
        next_at: now,
        created_at: now,
        updated_at: now,
      })
      .onConflict((conflict) => conflict.columns(["tenant", "plugin", "channel", "event_key"]).doNothing())
      .execute();
  }

  /** Fixes the answer in the row (so every retry sends the same), then tries to deliver it now. */
  async #respond(row: ChannelMessageRow, response: SurfaceResponse): Promise<void> {
    const fixed = JSON.stringify(response);
    await this.#store.db
      .updateTable("channel_messages")
      .set({ state: "delivering", response: fixed, updated_at: await this.#store.now() })
      .where("id", "=", row.id)
      .where("lease_owner", "=", this.#owner)
      .execute();
    return this.#deliver({ ...row, state: "delivering", response: fixed });
  }

  async #deliver(row: ChannelMessageRow): Promise<void> {
    const entry = await this.registry.find(row.tenant, row.plugin, row.channel);
    if (entry === undefined) {
      return this.#release(row.id, { state: "failed", last_error: "the channel is no longer installed" });
    }
    const attempts = Number(row.attempts) + 1;
    try {
      const channel = await this.registry.channel(entry, this.#submitter(entry));
      const envelope = new SurfaceEnvelope(JSON.parse(row.envelope));
      const response = JSON.parse(row.response ?? "{}") as SurfaceResponse;
      if (isTargetNotification(row.event_key)) {
        if (typeof channel.notify !== "function" || response.notification === undefined) {
          throw new Error(
            "the channel, as its config now builds it, has no notify(notification) to send this with",
          );
        }
        await withTimeout(Promise.resolve(channel.notify(response.notification)), this.#deliverTimeoutMs);
      } else {
        await withTimeout(Promise.resolve(channel.deliver(envelope, response)), this.#deliverTimeoutMs);
      }
    } catch (error) {
      const failed = attempts >= this.#maxAttempts;
      const wait = Math.min(this.#backoffMs * 2 ** (attempts - 1), CHANNEL_DEFAULTS.maxBackoffMs);
      return this.#release(row.id, {
        attempts,
        last_error: text(error),
        ...(failed ? { state: "failed" as const } : { next_at: (await this.#store.now()) + wait }),
      });
    }
    return this.#release(row.id, { state: "delivered", attempts, last_error: null });
  }

  /** Carries out a command as the sender's member; refused when the sender is no member who may. */
  async #command(
    tenant: string,
    channel: Channel,
    envelope: SurfaceEnvelope,
    command: NonNullable<ReturnType<typeof channelCommand>>,
  ): Promise<SurfaceResponse> {
    const turns = this.#requireTurns();
    const target = command.kind === "answer" ? command.job : command.approval;
    const said = (done: boolean, content: string): SurfaceResponse => ({
      content,
      command: { kind: command.kind, done, target },
    });
    const user = channel.members?.[envelope.senderId];
    const caller = user === undefined ? undefined : await memberCaller(this.#store, tenant, user);
    const what =
      command.kind === "answer" ? `answer job ${command.job}` : `${command.kind} ${command.approval}`;
    if (caller === undefined) {
      return said(
        false,
        `refused: ${envelope.senderId} is not mapped to a member of tenant ${tenant}, so it may not ${what}.`,
      );
    }
    try {
      if (command.kind === "answer") {
        await turns.answer(caller, command.job, command.text);
        return said(true, `answered job ${command.job} as ${caller.actor}.`);
      }
      const report = await turns.decide(caller, command.approval, command.kind, command.reason);
      if (!report.changed) {
        // A second click on a button already acted on: the decision stands as it was made.
        return said(
          false,
          `${command.approval} was already ${report.approval.status}${report.approval.decidedBy === null ? "" : ` by ${report.approval.decidedBy}`}; nothing changed.`,
        );
      }
      return said(
        true,
        `${command.kind === "approve" ? "approved" : "denied"} ${command.approval} as ${caller.actor}.`,
      );
    } catch (error) {
      return said(false, `refused: ${toOz0Error(error).message}`);
    }
  }

  /**
   * Queues a notification, to each channel of the tenant that takes them at its own target
   * (`notify`), of every approval and question that waits for a person, once per channel (the
   * row's key names what it is about). A job the channel's own threads follow is told in its
   * thread instead.
   */
  async #queueNotifications(tenant?: string): Promise<void> {
    const pending = await pendingForPeople(this.#store, tenant);
    if (pending.length === 0) return;
    const tenants = [...new Set(pending.map((item) => item.tenant))];
    let fault: { error: unknown } | undefined;
    for (const name of tenants) {
      // One tenant's fault leaves the others' notifications to go out.
      try {
        const items = pending.filter((item) => item.tenant === name);
        const entries = (await this.registry.list(name)).filter(
          (entry) =>
            entry.enabled && entry.configured && entry.supportsNotifications && entry.notificationsEnabled,
        );
        for (const entry of entries) {
          const channel = await this.registry.channel(entry, this.#submitter(entry)).catch(() => undefined);
          if (typeof channel?.notify !== "function") continue;
          const rows = await this.#store.db
            .selectFrom("channel_messages")
            .select(["event_key", "job"])
            .where("tenant", "=", name)
            .where("plugin", "=", entry.plugin)
            .where("channel", "=", entry.name)
            .where((eb) =>
              eb.or([
                eb(
                  "event_key",
                  "in",
                  items.map((item) => item.key),
                ),
                eb(
                  "job",
                  "in",
                  items.map((item) => item.job),
                ),
              ]),
            )
            .execute();
          const sent = new Set(rows.map((row) => row.event_key));
          const threads = new Set(
            rows.filter((row) => !isTargetNotification(row.event_key)).map((row) => row.job),
          );
          for (const item of items) {
            if (sent.has(item.key) || threads.has(item.job)) continue;
            const job = await this.#jobs.get(item.job, name).catch(() => undefined);
            if (job === undefined) continue;
            const notification = notificationOf(
              job,
              item.wait,
              await this.#jobs.events(job.id, { tenant: name }),
            );
            const now = await this.#store.now();
            await this.#store.db
              .insertInto("channel_messages")
              .values({
                id: newMessageId(),
                tenant: name,
                plugin: entry.plugin,
                channel: entry.name,
                event_key: item.key,
                thread_key: null,
                envelope: JSON.stringify(
                  envelopeFields(
                    new SurfaceEnvelope({
                      surfaceType: "oz0",
                      channelId: "",
                      senderId: "oz0",
                      content: notification.body,
                    }),
                  ),
                ),
                state: "delivering",
                job: job.id,
                response: JSON.stringify({ content: notification.body, notification, jobId: job.id }),
                next_at: now,
                created_at: now,
                updated_at: now,
              })
              .onConflict((conflict) =>
                conflict.columns(["tenant", "plugin", "channel", "event_key"]).doNothing(),
              )
              .execute();
          }
        }
      } catch (error) {
        fault ??= { error };
      }
    }
    if (fault !== undefined) throw fault.error;
  }

  #submitter(entry: ChannelEntry): (envelope: SurfaceEnvelope) => Promise<void> {
    return async (submitted) => {
      const envelope = asEnvelope(submitted);
      await this.accept(entry, envelope, eventKey(envelope, JSON.stringify(envelopeFields(envelope))));
    };
  }

  #requireTurns(): ChannelTurns {
    if (this.#turns === undefined)
      throw new Oz0Error("INTERNAL", "the channel host was not connected to the services.");
    return this.#turns;
  }

  /** The tenant's hooks, outside any job; what they record goes into `recorded`. */
  async #bus(tenant: string, recorded: NewEvent[]): Promise<Bus> {
    return new HookBus(await this.#hooks.table(tenant), { tenant }, (entry) =>
      recorded.push(entry as NewEvent),
    );
  }

  /** The hook records of a message that became no job: the audit log keeps them. */
  async #unkept(
    tenant: string,
    source: string,
    subject: string,
    outcome: string,
    events: readonly NewEvent[],
  ): Promise<void> {
    await this.#hookRecords({ tenant, source: `channel:${source}`, subject, outcome, events });
  }

  async #post(bus: Bus, hook: HookName, fields: Record<string, unknown>): Promise<void> {
    if (bus.has(hook)) await bus.fire(hook, fields as never);
  }
}

/** The principal a channel's chats run as: a runner of its one agent. */
export function channelCaller(tenant: string, channel: string, agent: string): Caller {
  return Object.freeze({
    tenant,
    actor: `channel:${channel}`,
    role: "runner",
    agents: Object.freeze([agent]),
  });
}

/** The caller of user `name`'s membership in `tenant`; undefined for a user who is no member. */
async function memberCaller(store: Store, tenant: string, name: string): Promise<Caller | undefined> {
  const member = await store.db
    .selectFrom("memberships")
    .innerJoin("users", "users.id", "memberships.user_id")
    .select(["users.name", "memberships.role", "memberships.agents"])
    .where("memberships.tenant", "=", tenant)
    .where("users.name", "=", name)
    .executeTakeFirst();
  if (member === undefined || !isRole(member.role)) return undefined;
  return Object.freeze({
    tenant,
    actor: `user:${member.name}`,
    role: member.role,
    agents: Object.freeze(JSON.parse(member.agents) as string[]),
  });
}

function envelopeFields(envelope: SurfaceEnvelope) {
  return {
    surfaceType: envelope.surfaceType,
    channelId: envelope.channelId,
    senderId: envelope.senderId,
    threadId: envelope.threadId,
    content: envelope.content,
    attachments: envelope.attachments,
    metadata: envelope.metadata,
  };
}

/** A handshake's reply, as `ingest` returns it. */
function isReply(value: unknown): value is { readonly reply: unknown } {
  return typeof value === "object" && value !== null && "reply" in value && !("surfaceType" in value);
}

/**
 * What an adapter gave as an envelope, checked as one: a plugin's own copy of the SDK makes
 * envelopes of its own class, so the fields are read, not the class.
 */
function asEnvelope(value: unknown): SurfaceEnvelope {
  if (value instanceof SurfaceEnvelope) return value;
  if (typeof value !== "object" || value === null) {
    throw new Oz0Error(
      "INVALID_PLUGIN",
      "a channel's ingest and submit take a SurfaceEnvelope (new SurfaceEnvelope({...})).",
    );
  }
  return new SurfaceEnvelope(value as never);
}

/** The envelope a pre_sensor_event handler returned, checked as any envelope is. */
function rebuilt(envelope: SurfaceEnvelope, changed: unknown): SurfaceEnvelope {
  if (typeof changed !== "object" || changed === null) return envelope;
  return new SurfaceEnvelope({ ...envelopeFields(envelope), ...(changed as object) } as never);
}

/** What a channel routine's job gets as input: the message. */
function routineInput(envelope: SurfaceEnvelope): Record<string, unknown> {
  return envelopeFields(envelope);
}

/** The surface's event id when the adapter kept one (`metadata.eventId`), else the body's hash. */
function eventKey(envelope: SurfaceEnvelope, body: string): string {
  const id = envelope.metadata.eventId;
  return typeof id === "string" && id !== ""
    ? `event:${id}`
    : `sha256:${createHash("sha256").update(body).digest("hex")}`;
}

async function lastUserMessage(jobs: JobEngine, job: string, tenant: string): Promise<number> {
  const events = await jobs.events(job, { tenant });
  return events.findLast((event) => event.kind === "user_message")?.seq ?? 0;
}

function lastAnswer(events: readonly JobEvent[]): string | undefined {
  const last = events.findLast((event) => event.kind === "model_call");
  if (last?.kind !== "model_call") return undefined;
  const answer = last.data.text ?? last.data.output;
  return answer === undefined || answer === null ? undefined : answerText(answer);
}

function answerText(output: unknown): string {
  return typeof output === "string" ? output : JSON.stringify(output, null, 2);
}

function text(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 1000);
}

async function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`deliver took longer than ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
