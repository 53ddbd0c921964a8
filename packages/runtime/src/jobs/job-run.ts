// One worker's hold on one job while it runs: every write goes through here (under the lease,
// applied to the replayed state, shown to listeners), and so do the job's ends and waits. The
// store's heartbeat thread renews the lease meanwhile, however long a call keeps this thread
// busy, and tells of a cancel request or a lost lease, which stop the call in flight; a timer
// stops the job's calls at its wall-time limit.
import { Oz0Error } from "@oz0/sdk";
import type { Transaction } from "kysely";
import type { Card } from "../cards/index.js";
import { event, type JobFailure, type NewEvent, type WaitingFor } from "../events/index.js";
import type { HookSource, RunHooks } from "../hooks/index.js";
import { Conversation, type LanguageModel, type ModelResolver } from "../models/index.js";
import type { Database, JobRow, JobUpdate } from "../store/index.js";
import type { RunSpans, Telemetry } from "../telemetry/index.js";
import type { CallInterceptor, PartSource } from "../tools/index.js";
import { callsIn, JobUsage } from "../usage/index.js";
import { applyEvent, type History } from "./history.js";
import type { LiveFeed, LivePublisher } from "./live.js";
import type { JobStore, Lease, LeaseKeeper, Renewal } from "./store.js";

/** What a job engine gives each run. */
export interface RunDeps {
  readonly jobs: JobStore;
  readonly source: PartSource;
  readonly models: ModelResolver;
  readonly home: string;
  readonly node: string;
  readonly maxAttempts: number;
  readonly interceptors: readonly CallInterceptor[];
  /** The tenant's hook table: every handler its plugins register. */
  readonly hooks: HookSource;
  /** Where spans go, when an OTLP endpoint is configured. */
  readonly telemetry: Telemetry | undefined;
  /** Where a run's model text goes as it streams, for whoever follows the job. */
  readonly live: LiveFeed;
}

/** Listeners of one run: the CLI's progress and chat's streamed text. */
export interface RunListeners {
  readonly onEvent?: ((entry: NewEvent) => void) | undefined;
  readonly onText?: ((delta: string) => void) | undefined;
}

/** Why the run's calls were stopped from outside the loop. */
export type StopReason = "cancel" | "timeout" | "lost";

export class JobRun {
  readonly deps: RunDeps;
  readonly row: JobRow;
  readonly lease: Lease;
  readonly history: History;
  readonly listeners: RunListeners;
  /** The job's model-call totals, replayed and kept as it writes: what budgets read. */
  readonly usage = new JobUsage();
  /** What the model keeps between this run's steps (its converted prompt): its requests carry it. */
  readonly conversation = new Conversation();
  /** The run's spans, when telemetry is configured: child jobs continue their trace. */
  readonly spans: RunSpans | undefined;
  // What the run learns as it goes is written here only; the steps read it and ask for changes
  // through the methods below, so nothing outside this class sets a run's state.
  /** Aborts the call in flight: the job was cancelled, ran out of time, or the lease was lost. */
  readonly #controller = new AbortController();
  #now: number;
  #cancelBy: string | null;
  #deadline = Number.POSITIVE_INFINITY;
  #stopReason: StopReason | undefined;
  #recordedCall: string | undefined;
  #model: LanguageModel | undefined;
  #hooks: RunHooks | undefined;
  #governanceVersion: number | undefined;
  #done = false;
  #heartbeat: LeaseKeeper | undefined;
  #deadlineTimer: NodeJS.Timeout | undefined;
  #live: LivePublisher | undefined;

  constructor(
    deps: RunDeps,
    row: JobRow,
    lease: Lease,
    history: History,
    now: number,
    listeners: RunListeners,
    spans?: RunSpans,
  ) {
    this.deps = deps;
    this.row = row;
    this.lease = lease;
    this.history = history;
    this.#now = now;
    this.listeners = listeners;
    this.spans = spans;
    this.#cancelBy = row.cancel_requested_by;
  }

  /** Aborted when the job is cancelled, runs out of time, or the lease is lost: every call in flight gets it. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** The database's time at the last write. */
  get now(): number {
    return this.#now;
  }

  /** Who asked to cancel the job, once someone has. */
  get cancelBy(): string | null {
    return this.#cancelBy;
  }

  /** When the job runs out of wall time, by the database's clock. */
  get deadline(): number {
    return this.#deadline;
  }

  /** Why the run's calls were stopped from outside the loop, once they were. */
  get stopReason(): StopReason | undefined {
    return this.#stopReason;
  }

  /**
   * A call whose `tool_call` this run wrote together with the model reply that asked for it
   * (one write instead of two); it has not run yet.
   */
  get recordedCall(): string | undefined {
    return this.#recordedCall;
  }

  /** The model step wrote call `id`'s `tool_call` with its reply: its tool step runs it without writing another. */
  recordedWithReply(id: string): void {
    this.#recordedCall = id;
  }

  /** Whether call `id`'s `tool_call` went out with the reply; the mark goes either way (the call's step takes it). */
  settleRecorded(id: string): boolean {
    const recorded = this.#recordedCall === id;
    this.#recordedCall = undefined;
    return recorded;
  }

  /** Whether call `id`'s `tool_call` went out with the reply, taking the mark only when it did. */
  takeRecorded(id: string): boolean {
    if (this.#recordedCall !== id) return false;
    this.#recordedCall = undefined;
    return true;
  }

  /** The model, once resolved: at the end it may report on the run as a whole. */
  get model(): LanguageModel | undefined {
    return this.#model;
  }

  useModel(model: LanguageModel): void {
    this.#model = model;
  }

  /** The job's hooks, once set up: every write passes them (checkpoints, governance events). */
  get hooks(): RunHooks | undefined {
    return this.#hooks;
  }

  useHooks(hooks: RunHooks): void {
    this.#hooks = hooks;
  }

  /**
   * The tenant's governance version as the last write read it, for the next step to go by;
   * undefined when code that may change governance ran since (an on_post_checkpoint handler,
   * a set-up). Taken once: a step after that reads the version itself.
   */
  takeGovernanceVersion(): number | undefined {
    const version = this.#governanceVersion;
    this.#governanceVersion = undefined;
    return version;
  }

  /** Code that may change the tenant's governance ran since the last write: the next step reads the version itself. */
  forgetGovernanceVersion(): void {
    this.#governanceVersion = undefined;
  }

  /** The job's live feed: its model text as it streams, and a word after each write. */
  get live(): LivePublisher {
    this.#live ??= this.deps.live.publisher(this.row.tenant, this.row.id);
    return this.#live;
  }

  get address(): string {
    return `${this.row.plugin}/${this.row.name}`;
  }

  /**
   * Appends events under the lease, applies them to the state, and tells the listeners: each
   * as it was stored, the tenant's secrets redacted, so the run, its listeners (the CLI's
   * progress, the OTLP spans) and a later replay see the same.
   */
  async write(
    events: readonly NewEvent[],
    set?: JobUpdate,
    also?: (trx: Transaction<Database>, now: number) => Promise<void>,
  ): Promise<void> {
    const hooks = this.#hooks;
    // A write that ends the job or parks it always goes through; on_pre_checkpoint sees the others.
    const final = set?.status !== undefined && set.status !== "running";
    const given =
      hooks === undefined || events.length === 0 ? events : await hooks.beforeWrite(events, final);
    // The word to other processes that the run wrote goes in the write's own statement when it can.
    const result = await this.deps.jobs.write(this.lease, given, set, also, this.live.notice);
    const batch = result.events;
    // The job ended or waits: the lease is let go, and nothing is left to renew.
    if (final) {
      this.#heartbeat?.stop();
      this.#heartbeat = undefined;
    }
    this.#now = result.now;
    this.#governanceVersion = result.governanceVersion;
    if (result.cancelRequestedBy !== null) this.#cancelBy = result.cancelRequestedBy;
    // The tenant's totals are kept by the store (migration 7); the job's own, here.
    const calls = callsIn(batch);
    if (calls !== undefined) this.usage.add(calls);
    for (const entry of batch) {
      applyEvent(this.history, entry);
      this.listeners.onEvent?.(entry);
    }
    if (batch.length > 0) this.live.written(result.noticed === true);
    if (hooks !== undefined && batch.length > 0 && (await hooks.afterWrite(batch, final))) {
      // A handler ran after the write and may have changed the tenant's governance.
      this.#governanceVersion = undefined;
    }
    // Notes came for the job while this write ended its run: no write of this worker follows to take them.
    if (final && this.lease.notesPending > 0 && (await this.deps.jobs.flushNotes(this.row.id))) {
      this.live.written();
    }
  }

  /**
   * Events written for the run before it began, in the claim's own commit: applied to the state
   * and told to the listeners as a write's are.
   */
  written(events: readonly NewEvent[]): void {
    for (const entry of events) {
      applyEvent(this.history, entry);
      this.listeners.onEvent?.(entry);
    }
    if (events.length > 0) this.live.written();
  }

  /** Has the lease kept, until the job's wall time (once known) and one more lease have passed. */
  start(): void {
    this.#heartbeat?.stop();
    const until = this.#deadline + this.lease.ttlMs;
    this.#heartbeat = this.deps.jobs.keep(this.lease, until, (renewed) => this.renewed(renewed));
  }

  /** Sets the wall-time limit, and stops the call in flight when it passes. */
  setDeadline(deadline: number): void {
    this.#deadline = deadline;
    if (this.#heartbeat !== undefined && !this.#done) this.#heartbeat.until(deadline + this.lease.ttlMs);
    clearTimeout(this.#deadlineTimer);
    const remaining = deadline - this.#now;
    if (!Number.isFinite(remaining)) return;
    this.#deadlineTimer = setTimeout(
      () => this.stop("timeout"),
      Math.max(0, Math.min(remaining, 2 ** 31 - 1)),
    );
    this.#deadlineTimer.unref();
  }

  stop(reason: StopReason): void {
    this.#stopReason ??= reason;
    if (this.#controller.signal.aborted) return;
    const message = `job ${this.row.id}: ${STOP_MESSAGES[reason]}`;
    this.#controller.abort(
      reason === "lost"
        ? new Oz0Error("LEASE_LOST", message, { data: { job: this.row.id, owner: this.lease.token } })
        : new Error(message),
    );
  }

  finish(): void {
    this.#done = true;
    this.#heartbeat?.stop();
    clearTimeout(this.#deadlineTimer);
  }

  /**
   * A renewal by the heartbeat, heard once this thread is free. A lease that is no longer this
   * worker's fences it: the call in flight is stopped, and every later write is refused.
   */
  private renewed(renewed: Renewal | undefined): void {
    if (this.#done || this.#heartbeat === undefined) return;
    if (renewed === undefined) {
      this.stop("lost");
      return;
    }
    this.#now = Math.max(this.#now, renewed.now);
    if (renewed.cancelRequestedBy !== null) {
      this.#cancelBy = renewed.cancelRequestedBy;
      this.stop("cancel");
    }
  }

  /** Ends the job: succeeded, failed, cancelled or dead, telling a waiting parent. */
  async end(
    end:
      | { readonly status: "succeeded"; readonly output: unknown; readonly card?: Card | undefined }
      | { readonly status: "failed" | "dead"; readonly failure: JobFailure }
      | { readonly status: "cancelled"; readonly by: string },
    events: readonly NewEvent[] = [],
  ): Promise<true> {
    // user_output may rewrite the answer or withhold it; on_error and post_execution hear of the
    // end. What they record is written right before the end event, after the batch's own events.
    let decided: readonly NewEvent[] = [];
    if (this.#hooks !== undefined) {
      events = this.#hooks.take(events);
      end = await this.#hooks.beforeEnd(end);
      decided = this.#hooks.take([]);
    }
    // A waiting parent hears of the end in this write's transaction, so the output it gets is redacted here.
    end = this.lease.redactor.json(end);
    const warnings =
      end.status === "succeeded" || end.status === "failed"
        ? (
            this.#model?.finish?.(
              this.history.steps + events.filter((entry) => entry.kind === "model_call").length,
            ) ?? []
          ).map((message) => event("model_warning", { message }))
        : [];
    let last: NewEvent;
    let output: unknown = null;
    let failure: JobFailure | null = null;
    switch (end.status) {
      case "succeeded":
        output = end.output;
        last = event(
          "job_succeeded",
          end.card === undefined ? { output: end.output } : { output: end.output, card: end.card },
        );
        break;
      case "failed":
        failure = end.failure;
        last = event("job_failed", end.failure);
        break;
      case "dead":
        failure = end.failure;
        last = event("job_dead", { ...end.failure, attempts: this.row.attempts });
        break;
      case "cancelled":
        failure = { kind: "cancelled", message: `cancelled by ${end.by}` };
        last = event("job_cancelled", { by: end.by });
        break;
    }
    await this.write(
      [...events, ...warnings, ...decided, last],
      {
        status: end.status,
        output: end.status === "succeeded" ? JSON.stringify(output) : null,
        failure: failure === null ? null : JSON.stringify(failure),
        lease_owner: null,
        lease_expires_at: null,
        waiting_for: null,
      },
      // Only a child has a parent to tell; without one the end is a single statement on PostgreSQL.
      this.row.parent_id === null
        ? undefined
        : (trx) =>
            this.deps.jobs.notifyParent(
              trx,
              { id: this.row.id, parent: this.row.parent_id },
              { status: end.status, output, failure },
            ),
    );
    return true;
  }

  fail(failure: JobFailure, events: readonly NewEvent[] = []): Promise<true> {
    return this.end({ status: "failed", failure }, events);
  }

  /**
   * Puts the job to waiting: the lease is let go and nothing runs until the answer or the
   * child's end queues the job again. Attempts start over: waiting is progress, not a crash.
   */
  async wait(
    waitingFor: WaitingFor,
    events: readonly NewEvent[],
    also?: (trx: Transaction<Database>, now: number) => Promise<void>,
  ): Promise<true> {
    await this.write(
      [...events, event("job_waiting", { for: waitingFor })],
      {
        status: "waiting",
        waiting_for: JSON.stringify(waitingFor),
        lease_owner: null,
        lease_expires_at: null,
        attempts: 0,
      },
      also,
    );
    return true;
  }
}

const STOP_MESSAGES: Record<StopReason, string> = {
  cancel: "the job was cancelled",
  timeout: "the job ran out of wall time (limits.wall_seconds)",
  lost: "this worker lost the job's lease to another worker",
};
