// The job engine: starts jobs, runs them (one by ID, or whatever is runnable) under leases,
// and carries out what people do to jobs: cancel, answer a question, the next chat message.
// It holds no job in memory between calls: everything a job is lives in the store, so any
// process with the same store can take up any job.

import { isOz0Error, Oz0Error } from "@oz0/sdk";
import type { Transaction } from "kysely";
import { buildCard, type Card } from "../cards/index.js";
import {
  event,
  type JobEvent,
  type JobFailure,
  type NewEvent,
  type RoutineGrant,
  type WaitingFor,
} from "../events/index.js";
import { type HookSource, type HookTable, storeHookSource } from "../hooks/index.js";
import { type ModelResolver, modelResolver } from "../models/index.js";
import { assertAgentRuns } from "../policy/index.js";
import {
  catalogOperation,
  type Database,
  type JobMode,
  type JobRow,
  type JobStatus,
  type Store,
  seedCatalogOperation,
} from "../store/index.js";
import { checkedTraceparent, type Telemetry } from "../telemetry/index.js";
import type { CallInterceptor, PartSource } from "../tools/index.js";
import { flowInputProblem, flowPlan } from "./flows/index.js";
import { type FollowItem, type FollowOptions, followJob } from "./follow.js";
import { keyedJobId, newJobId, newLeaseToken, newNodeId } from "./ids.js";
import type { RunDeps, RunListeners } from "./job-run.js";
import { LiveFeed } from "./live.js";
import { bundleMissing, runJob } from "./loop.js";
import { elicitationContent, formFields } from "./mcp-host.js";
import { PersonInput } from "./person.js";
import { JOB_FORMAT, type NodeServes, placed } from "./queues.js";
import { assertRuntimeRuns, inputProblem, readSchema } from "./setup.js";
import { moveJob } from "./status.js";
import { type Claimed, isTerminal, JobStore, jobNotFound, type TenantRedactor } from "./store.js";
import { agentTags } from "./tags.js";
import { type JobView, jobView } from "./view.js";

/** Engine settings when the options leave them out. */
export const JOB_ENGINE_DEFAULTS = {
  /** How long a claim holds a job without a write; a worker renews it every third of this. */
  leaseMs: 15_000,
  /** Claims in a row that end with the same step in flight (no progress between them) before the job is dead-lettered. */
  maxAttempts: 3,
  /** How often a caller waiting for another worker's lease looks again. */
  pollMs: 250,
} as const;

/** How often a run that leaves a queued job to a live worker looks whether one took it. */
const WORKER_LOOK_MS = 100;

export interface JobEngineOptions {
  readonly store: Store;
  readonly source: PartSource;
  /** oz0's home folder: tools' paths live under it. */
  readonly home: string;
  readonly models?: ModelResolver;
  /** This worker's identity in leases and traces; a fresh one when left out. */
  readonly node?: string;
  readonly leaseMs?: number;
  readonly maxAttempts?: number;
  readonly pollMs?: number;
  /**
   * The job format this node understands (JOB_FORMAT): it claims no job that needs a newer
   * one. Set only to stand in for a node of another oz0 version.
   */
  readonly format?: number;
  /** What every function call passes on the dispatch path: policy, hooks, kill switches. */
  readonly interceptors?: readonly CallInterceptor[];
  /** Where a tenant's hook handlers come from; its installed plugins in `store` when left out. */
  readonly hooks?: HookSource;
  /** Exports runs, model calls and tool calls as spans; nothing is exported when left out. */
  readonly telemetry?: Telemetry | undefined;
  /** A tenant's secrets, kept out of every job's history and row; nothing is redacted when left out. */
  readonly redactor?: TenantRedactor;
}

export interface StartRequest {
  readonly tenant: string;
  /** The agent or flow by address, `<plugin>/<agent>` (or bare, inside `fromPlugin`). */
  readonly agent: string;
  /** Text, or an object for an agent with an input schema. */
  readonly input: unknown;
  readonly mode?: JobMode;
  /** Who starts the job, as the trace shows it. */
  readonly by?: string;
  /** `a2a`: the input is a message from an outside agent (oz0's A2A server); its messages pass the agent-communication hooks. */
  readonly via?: "a2a" | undefined;
  /** What the hooks recorded of what started the job (a webhook's pre_sensor_event), written right after its job_started. */
  readonly events?: readonly NewEvent[] | undefined;
  readonly fromPlugin?: string;
  /**
   * The W3C traceparent of the caller's span that starts the job: the job's spans join that
   * trace. A value that is not a traceparent is refused (INVALID_TELEMETRY).
   */
  readonly traceparent?: string | undefined;
  /** A routine's job: the routine, and the tools and limits it narrows the agent's to. */
  readonly routine?: RoutineGrant | undefined;
  /**
   * Runs in the transaction that inserts the job, before it: a row that must commit with the
   * job or not at all (a routine's one fire per tick), told the new job's id. Throwing starts
   * no job.
   */
  readonly inTransaction?: ((trx: Transaction<Database>, job: string) => Promise<void>) | undefined;
  /**
   * Checks an agent's or flow's input against its input schema before the job exists, refusing a
   * mismatch with INVALID_INPUT (the HTTP API's StartJob); otherwise the job is created and
   * fails with invalid_input at its first run, after the start hooks saw the input.
   */
  readonly checkInput?: boolean;
  /**
   * The caller's name for this start: a second start of the same agent in the tenant with the
   * same key returns the first job instead of starting another (its ID is made from the key),
   * and one with other input is refused with CONFLICT.
   */
  readonly idempotencyKey?: string | undefined;
}

export interface RunOptions extends RunListeners {
  /** The tenant the caller acts in, never "any tenant": a job of another tenant is not found. */
  readonly tenant: string;
  /** When another worker holds the job, wait for it to stop (or for its lease to run out) instead of refusing. */
  readonly follow?: boolean;
  /**
   * A worker is live: leave the queued job to it this long before running it here (with
   * `follow`, its run is followed, its model text told to `onText`).
   */
  readonly workerTakesMs?: number | undefined;
  /** Told while waiting on another worker's lease, about every poll. */
  readonly onLeaseWait?:
    | ((wait: { readonly owner: string | null; readonly remainingMs: number }) => void)
    | undefined;
  /**
   * Stops this process's run when it aborts (Ctrl-C): the job's lease is let go, so the job is
   * queued for any process to take up or cancel at once, the call in flight is stopped, and
   * nothing more of this run is recorded. The run then returns the job as it stands.
   */
  readonly signal?: AbortSignal | undefined;
}

export interface WorkOptions extends RunListeners {
  /** Only jobs of this tenant; every tenant's when left out. */
  readonly tenant?: string;
  /** What this node serves: its pool and labels (placement in jobs/queues.ts); every queue when left out. */
  readonly serves?: Omit<NodeServes, "format">;
  /** Lets go of the job's lease and stops its run when it aborts: the job is queued for another worker. */
  readonly signal?: AbortSignal | undefined;
}

/** A job claimed for this process, held under its lease until `run` runs it. */
export interface TakenJob {
  /** The job as claimed: running, under this process's lease. */
  readonly job: JobView;
  run(options?: RunListeners & { readonly signal?: AbortSignal | undefined }): Promise<JobView>;
}

export interface SearchFilter {
  readonly tenant: string;
  readonly plugin?: string;
  /** The agent's bare name. */
  readonly agent?: string;
  readonly status?: JobStatus;
  readonly parent?: string;
  /** Only jobs of agents with this tag (the tags the agent had when the job started). */
  readonly tag?: string;
  /** Only jobs created at or after this time, and before `until` (epoch milliseconds). */
  readonly since?: number;
  readonly until?: number;
  readonly limit?: number;
}

export class JobEngine {
  readonly jobs: JobStore;
  readonly node: string;
  readonly format: number;
  /** Running jobs' model text as it streams, for followers (`follow`). */
  readonly live: LiveFeed;
  readonly #deps: RunDeps;
  readonly #leaseMs: number;
  readonly #pollMs: number;

  constructor(options: JobEngineOptions) {
    this.jobs = new JobStore(options.store, options.redactor);
    this.node = options.node ?? newNodeId();
    this.format = options.format ?? JOB_FORMAT;
    this.#leaseMs = options.leaseMs ?? JOB_ENGINE_DEFAULTS.leaseMs;
    this.#pollMs = options.pollMs ?? JOB_ENGINE_DEFAULTS.pollMs;
    this.live = new LiveFeed(options.store.broadcast);
    this.#deps = {
      jobs: this.jobs,
      source: options.source,
      models: options.models ?? modelResolver(),
      home: options.home,
      node: this.node,
      maxAttempts: options.maxAttempts ?? JOB_ENGINE_DEFAULTS.maxAttempts,
      interceptors: options.interceptors ?? [],
      hooks: options.hooks ?? storeHookSource(options.store, options.source),
      telemetry: options.telemetry,
      live: this.live,
    };
  }

  /**
   * Adds what a hook point recorded after the fact (post_sensor_event, post_session_access) to
   * the job's history, in a write of its own: at once while no worker holds the job (queued,
   * waiting or ended), else with the next write of the worker that holds it, wherever it runs.
   * True when written at once.
   */
  async note(id: string, tenant: string, events: readonly NewEvent[]): Promise<boolean> {
    const written = await this.jobs.note(id, tenant, events);
    if (written) this.live.wrote(tenant, id);
    return written;
  }

  /** The hook table of `tenant`'s plugins, for what starts jobs from outside (a routine's webhook). */
  hookTable(tenant: string): Promise<HookTable> {
    return this.#deps.hooks.table(tenant);
  }

  /**
   * Starts a job of an agent or a flow, checked against its owner, and leaves it queued for a
   * worker: `run(id)` runs it here, or any process that runs jobs takes it up.
   * @example const job = await engine.start({ tenant: "default", agent: "support-triage/triage", input: "ticket 7" });
   */
  start(request: StartRequest): Promise<JobView> {
    // Its look-ups of the catalog and settings go by one read of the tenant's version.
    return catalogOperation(() => this.startJob(request));
  }

  private async startJob(request: StartRequest): Promise<JobView> {
    const part = await this.resolveRunnable(request);
    let runtime: string | undefined;
    // A killed agent starts no job (kill switches, policy/).
    if (part.kind === "agent") {
      await assertAgentRuns(this.jobs.store, request.tenant, `${part.plugin}/${part.name}`);
      runtime = await assertRuntimeRuns(this.#deps.source, request.tenant, part);
      if (request.checkInput === true) await this.assertInput(request, part);
    } else if (request.checkInput === true) {
      await this.assertFlowInput(request, part);
    }
    const id =
      request.idempotencyKey === undefined
        ? newJobId(part.name)
        : keyedJobId(part.name, request.tenant, request.idempotencyKey);
    if (request.idempotencyKey !== undefined) {
      const earlier = await this.startedUnder(id, request);
      if (earlier !== undefined) return earlier;
    }
    const mode = request.mode ?? "run";
    const create = this.jobs.create(
      {
        id,
        tenant: request.tenant,
        name: part.name,
        plugin: part.plugin,
        kind: part.kind,
        ...(await placed(this.jobs.store, this.#deps.source, request.tenant, part)),
        status: "queued",
        input: JSON.stringify(request.input ?? ""),
        mode,
        ...(request.traceparent === undefined
          ? {}
          : { traceparent: checkedTraceparent(request.traceparent) }),
        tags: JSON.stringify(
          part.kind === "agent" ? await agentTags(this.#deps.source, request.tenant, part) : [],
        ),
      },
      [
        event("job_started", {
          agent: `${part.plugin}/${part.name}`,
          mode,
          input: request.input ?? "",
          ...(request.by === undefined ? {} : { by: request.by }),
          ...(request.routine === undefined ? {} : { routine: request.routine }),
          ...(runtime === undefined ? {} : { runtime }),
          ...(request.via === undefined ? {} : { via: request.via }),
        }),
        ...(request.events ?? []),
      ],
      request.inTransaction === undefined
        ? undefined
        : (trx) => request.inTransaction?.(trx, id) ?? Promise.resolve(),
    );
    if (request.idempotencyKey === undefined) return jobView(await create);
    try {
      return jobView(await create);
    } catch (error) {
      // Two starts with one key at once: the one that lost the insert answers with the winner's job.
      const earlier = await this.startedUnder(id, request);
      if (earlier !== undefined) return earlier;
      throw error;
    }
  }

  /** The job an earlier start with the same idempotency key made, refused when its input differs. */
  private async startedUnder(id: string, request: StartRequest): Promise<JobView | undefined> {
    const row = await this.jobs.get(id);
    if (row === undefined) return undefined;
    if (row.tenant !== request.tenant || row.input !== JSON.stringify(request.input ?? "")) {
      throw new Oz0Error(
        "CONFLICT",
        `idempotency key ${request.idempotencyKey} already started job ${id} with other input; send the same input to get that job, or use another key.`,
        {
          data: {
            kind: "idempotency key",
            name: request.idempotencyKey,
            expected: "the same input",
            actual: "other input",
          },
        },
      );
    }
    return jobView(row);
  }

  private async assertInput(request: StartRequest, part: { plugin: string; name: string }): Promise<void> {
    const plugin = await this.#deps.source.loadInstalled(request.tenant, part.plugin);
    const definition = plugin.agents.find((agent) => agent.definition.name === part.name)?.definition;
    if (definition === undefined) return;
    const problem = await inputProblem(
      plugin,
      definition,
      `${part.plugin}/${part.name}`,
      request.input ?? "",
    );
    if (problem === undefined) return;
    throw new Oz0Error("INVALID_INPUT", problem.message, { data: { issues: problem.issues } });
  }

  private async assertFlowInput(
    request: StartRequest,
    part: { plugin: string; name: string },
  ): Promise<void> {
    const plugin = await this.#deps.source.loadInstalled(request.tenant, part.plugin);
    const address = `${part.plugin}/${part.name}`;
    const problem = flowInputProblem(await flowPlan(plugin, part.name), address, request.input ?? "");
    if (problem === undefined) return;
    throw new Oz0Error("INVALID_INPUT", problem.message, { data: { issues: problem.issues } });
  }

  /** An agent by address, else a flow: agents and flows share one set of names. */
  private async resolveRunnable(
    request: StartRequest,
  ): Promise<{ plugin: string; name: string; kind: "agent" | "flow" }> {
    const options = request.fromPlugin === undefined ? {} : { fromPlugin: request.fromPlugin };
    try {
      const part = await this.#deps.source.resolvePart(request.tenant, "agent", request.agent, options);
      return { plugin: part.plugin, name: part.name, kind: "agent" };
    } catch (error) {
      if (!isOz0Error(error, "NOT_FOUND")) throw error;
      try {
        const part = await this.#deps.source.resolvePart(request.tenant, "flow", request.agent, options);
        return { plugin: part.plugin, name: part.name, kind: "flow" };
      } catch (second) {
        // Neither: the agent's answer says what was looked for, with the closest name.
        if (isOz0Error(second, "NOT_FOUND")) throw error;
        throw second;
      }
    }
  }

  /**
   * Runs job `id` in this process until it ends or waits, and returns it then. With `follow`, a
   * job another worker holds is waited for: until it stops, or until its lease runs out and
   * this process takes it over; meanwhile that worker's model text goes to `onText` (from a
   * worker in this process, or on PostgreSQL anywhere).
   */
  async run(id: string, options: RunOptions): Promise<JobView> {
    requireTenant(options?.tenant);
    const relay = new TextRelay(this.live, id, options);
    try {
      const workerTakesMs = options.workerTakesMs ?? 0;
      if (workerTakesMs > 0) {
        // Listening while the job waits for a worker: the worker's text from then on reaches `onText`.
        await relay.listen();
        const until = Date.now() + workerTakesMs;
        while (Date.now() < until && (await this.row(id, options.tenant)).status === "queued") {
          if (aborted(options.signal)) break;
          await sleep(WORKER_LOOK_MS);
        }
      }
      return await this.runOrFollow(id, options, relay);
    } finally {
      relay.stop();
    }
  }

  private async runOrFollow(id: string, options: RunOptions, relay: TextRelay): Promise<JobView> {
    for (;;) {
      if (aborted(options.signal)) return this.get(id, options.tenant);
      // The claim and the job's set-up are one operation of the catalog (setup.ts ends it).
      const ran = await catalogOperation(async () => {
        const claimed = await this.jobs.claim({
          job: id,
          node: this.node,
          token: newLeaseToken(this.node),
          ttlMs: this.#leaseMs,
          tenant: options.tenant,
          format: this.format,
          record: await this.recordsClaim(id, options.tenant),
        });
        if (claimed === undefined) return false;
        relay.here = true;
        try {
          await this.runClaimed(claimed, options);
        } finally {
          relay.here = false;
        }
        return { ended: claimed.lease.ended };
      });
      if (ran !== false) {
        if (!options.follow || aborted(options.signal)) {
          // The run's end handed back the job's row: no need to read it again.
          return ran.ended === undefined ? this.get(id, options.tenant) : jobView(ran.ended);
        }
        continue;
      }
      const row = await this.row(id, options.tenant);
      // Following a job that waits for its child job runs the child here too: once the child
      // ends, the job is queued again and goes on.
      if (options.follow === true && row.status === "waiting" && row.waiting_for !== null) {
        const waiting = JSON.parse(row.waiting_for) as WaitingFor;
        if (waiting.kind === "child") {
          const child = await this.run(waiting.job, options);
          if (isTerminal(child.status)) continue;
        }
      }
      if (row.status !== "running" && row.status !== "queued") return jobView(row);
      if (row.status === "running" && !options.follow) throw heldElsewhere(row, await this.jobs.store.now());
      if (row.status === "running") {
        await relay.listen();
        const now = await this.jobs.store.now();
        options.onLeaseWait?.({
          owner: row.lease_owner,
          remainingMs: Math.max(0, (row.lease_expires_at ?? now) - now),
        });
      }
      await sleep(this.#pollMs);
    }
  }

  /**
   * Whether the claim of job `id` records its `job_claimed` in its own commit: when the job is
   * there to claim and its plugin's bundle is here. A claim let go for a missing bundle records
   * nothing (loop.ts), so that is asked before the claim rather than after it.
   */
  private async recordsClaim(id: string, tenant: string): Promise<boolean> {
    const found = await this.jobs.getWithVersions(id);
    if (found === undefined || found.row.tenant !== tenant) return false;
    const { row, versions } = found;
    // The claim's operation goes by the versions read with the row: one statement where two were.
    seedCatalogOperation(this.jobs.store.db, tenant, versions);
    const claimable =
      row.status === "queued" ||
      (row.status === "running" && row.lease_expires_at !== null && row.lease_expires_at <= Date.now());
    return claimable && !(await bundleMissing(this.#deps.source, tenant, row.plugin));
  }

  /**
   * Follows job `id` of `tenant` (checked first: another tenant's is not found) until it ends:
   * its events as they are written, after `options.after`, and its model text as it streams,
   * wherever it runs (follow.ts says how).
   */
  async follow(id: string, options: FollowOptions): Promise<AsyncGenerator<FollowItem, void, undefined>> {
    await this.row(id, requireTenant(options?.tenant));
    return followJob(
      {
        live: this.live,
        events: (job, read) => this.jobs.events(job, read.afterSeq),
        get: (job, tenant) => this.get(job, tenant),
      },
      id,
      options,
    );
  }

  /** Runs a claimed job here; the caller's signal lets go of its lease and then stops it. */
  private async runClaimed(claimed: Claimed, options: RunOptions): Promise<void> {
    const signal = options.signal;
    if (signal === undefined) {
      await runJob(this.#deps, claimed, options);
      return;
    }
    // The lease goes first, so that nothing the stopped call ends with is recorded.
    const stop = new AbortController();
    const interrupt = () => void this.jobs.release(claimed.lease).finally(() => stop.abort());
    if (signal.aborted) interrupt();
    else signal.addEventListener("abort", interrupt, { once: true });
    try {
      await runJob(this.#deps, claimed, options, stop.signal);
    } finally {
      signal.removeEventListener("abort", interrupt);
    }
  }

  /**
   * Runs job `id` on, following its children, then each parent whose wait its end ended, up
   * the tree: a person who answers a child's question or approves a child's call carries the
   * whole delegation on. Returns the view of the last job run: the top of what went on.
   */
  async runUp(id: string, options: RunOptions): Promise<JobView> {
    requireTenant(options?.tenant);
    let view = await this.run(id, { ...options, follow: true });
    while (isTerminal(view.status) && view.parent !== null) {
      const parent = await this.get(view.parent, options.tenant);
      if (parent.status !== "queued") break;
      view = await this.run(parent.id, { ...options, follow: true });
    }
    return view;
  }

  /**
   * Takes up job `id` from its history (`oz0 job resume`): a queued job, or one whose worker
   * died, once its lease runs out. Refuses a job that ended or waits for someone.
   */
  async resume(id: string, options: RunOptions): Promise<JobView> {
    requireTenant(options?.tenant);
    const row = await this.row(id, options.tenant);
    if (isTerminal(row.status) || row.status === "waiting") throw notResumable(row);
    // A lease without an expiry (an `oz0 mcp serve` call's job) never runs out: following it would wait forever.
    if (row.status === "running" && row.lease_owner !== null && row.lease_expires_at === null) {
      throw new Oz0Error(
        "JOB_STATE_CONFLICT",
        `job ${row.id} is held by ${row.lease_owner} until that process ends it, and no worker can take it over; ` +
          `if that process is gone, end the job with oz0 job cancel ${row.id}.`,
        { data: { job: row.id, status: row.status } },
      );
    }
    return this.run(id, { ...options, follow: true });
  }

  /** Claims the oldest runnable job (queued, or under a dead worker's lease) and runs it; undefined when none. */
  async work(options: WorkOptions = {}): Promise<JobView | undefined> {
    const taken = await this.take(options);
    return taken?.run(options);
  }

  /**
   * Claims the oldest runnable job and hands it over to be run (`oz0 worker` counts it as
   * taken before it runs); undefined when none is runnable.
   */
  async take(options: WorkOptions = {}): Promise<TakenJob | undefined> {
    const claimed = await catalogOperation(() =>
      this.jobs.claim({
        node: this.node,
        token: newLeaseToken(this.node),
        ttlMs: this.#leaseMs,
        ...(options.tenant === undefined ? {} : { tenant: options.tenant }),
        ...(options.serves === undefined ? {} : { serves: options.serves }),
        format: this.format,
      }),
    );
    if (claimed === undefined) return undefined;
    return {
      job: jobView(claimed.row),
      run: async (runOptions = {}) => {
        await catalogOperation(() => this.runClaimed(claimed, { ...runOptions, tenant: claimed.row.tenant }));
        const ended = claimed.lease.ended;
        return ended === undefined ? this.get(claimed.row.id, claimed.row.tenant) : jobView(ended);
      },
    };
  }

  /** Job `id` of `tenant`; a job of another tenant is not found. */
  async get(id: string, tenant: string): Promise<JobView> {
    return jobView(await this.row(id, requireTenant(tenant)));
  }

  /** The job's events in order (after `afterSeq`): its trace. */
  async events(
    id: string,
    options: { readonly tenant: string; readonly afterSeq?: number },
  ): Promise<JobEvent[]> {
    await this.row(id, requireTenant(options?.tenant));
    return this.jobs.events(id, options.afterSeq ?? 0);
  }

  async search(filter: SearchFilter): Promise<JobView[]> {
    const rows = await this.jobs.search({
      tenant: filter.tenant,
      ...(filter.agent === undefined ? {} : { name: filter.agent }),
      ...(filter.plugin === undefined ? {} : { plugin: filter.plugin }),
      ...(filter.status === undefined ? {} : { status: filter.status }),
      ...(filter.parent === undefined ? {} : { parent: filter.parent }),
      ...(filter.tag === undefined ? {} : { tag: filter.tag }),
      ...(filter.since === undefined ? {} : { since: filter.since }),
      ...(filter.until === undefined ? {} : { until: filter.until }),
      ...(filter.limit === undefined ? {} : { limit: filter.limit }),
    });
    return rows.map(jobView);
  }

  /**
   * The card a job's answer is drawn as: a succeeded job's, or the last answer of a chat that
   * waits for the next message, shaped by its agent's output schema. Undefined for a text
   * answer, and for a job that has no answer.
   */
  async card(id: string, tenant: string): Promise<Card | undefined> {
    const row = await this.row(id, requireTenant(tenant));
    const events = await this.jobs.events(id);
    if (row.status === "succeeded") {
      const end = events.findLast((entry) => entry.kind === "job_succeeded");
      return end?.kind === "job_succeeded" ? end.data.card : undefined;
    }
    if (row.mode !== "chat" || row.status !== "waiting") return undefined;
    const last = events.findLast((entry) => entry.kind === "model_call");
    if (last?.kind !== "model_call" || last.data.output === undefined) return undefined;
    const plugin = await this.#deps.source.loadInstalled(row.tenant, row.plugin);
    const path = plugin.agents.find((agent) => agent.definition.name === row.name)?.definition.output_schema;
    const schema = path === undefined ? undefined : await readSchema(plugin, path, "output_schema");
    return buildCard(schema, last.data.output);
  }

  /**
   * Cancels a job, recording who did. A queued or waiting job (or one whose worker died) ends
   * at once, with the child it waits for; a running one stops at its next step.
   */
  async cancel(id: string, by: string, options: { readonly tenant: string }): Promise<JobView> {
    const tenant = requireTenant(options?.tenant);
    await this.jobs.store.transaction(async (trx) => {
      const row = await this.jobs.lockJob(trx, id);
      if (row.tenant !== tenant) throw jobNotFound(id);
      if (isTerminal(row.status)) {
        throw new Oz0Error(
          "JOB_STATE_CONFLICT",
          `job ${id} has already ended (${row.status}); there is nothing to cancel.`,
          {
            data: { job: id, status: row.status },
          },
        );
      }
      await this.cancelIn(trx, row, by);
    });
    this.live.wrote(tenant, id);
    return this.get(id, tenant);
  }

  private async cancelIn(trx: Transaction<Database>, row: JobRow, by: string): Promise<void> {
    const now = await this.jobs.nowIn(trx);
    const held = row.status === "running" && (row.lease_expires_at ?? 0) > now;
    if (held) {
      await trx.updateTable("jobs").set({ cancel_requested_by: by }).where("id", "=", row.id).execute();
      return;
    }
    const failure: JobFailure = { kind: "cancelled", message: `cancelled by ${by}` };
    // What hooks noted for a run that died with the job still running goes before its end.
    const left = await this.jobs.notesLeft(trx, row);
    await this.jobs.appendOutside(trx, row.id, [...left, event("job_cancelled", { by })]);
    await moveJob(trx, row.id, "cancelled", {
      from: [row.status],
      set: {
        failure: JSON.stringify(failure),
        cancel_requested_by: by,
        lease_owner: null,
        lease_expires_at: null,
        waiting_for: null,
        updated_at: this.jobs.store.clockSql,
      },
      side: "user",
    });
    await this.jobs.notifyParent(
      trx,
      { id: row.id, parent: row.parent_id },
      { status: "cancelled", failure },
    );
    const waiting = row.waiting_for === null ? null : (JSON.parse(row.waiting_for) as WaitingFor);
    if (waiting?.kind === "child") {
      const child = await this.jobs.lockJob(trx, waiting.job).catch(() => undefined);
      if (child !== undefined && !isTerminal(child.status)) await this.cancelIn(trx, child, by);
    }
  }

  /**
   * Queues a dead-lettered job again (`oz0 job retry`), recording who did: it goes on from its
   * history, with its attempts counted from none. Any other job is refused with JOB_STATE_CONFLICT.
   */
  async retry(id: string, by: string, options: { readonly tenant: string }): Promise<JobView> {
    const tenant = requireTenant(options?.tenant);
    await this.jobs.store.transaction(async (trx) => {
      const row = await this.jobs.lockJob(trx, id);
      if (row.tenant !== tenant) throw jobNotFound(id);
      if (row.status !== "dead") {
        throw new Oz0Error(
          "JOB_STATE_CONFLICT",
          `job ${id} is ${row.status}, not dead-lettered; only a dead job is retried (oz0 job search --status dead lists them).`,
          { data: { job: id, status: row.status } },
        );
      }
      await this.jobs.appendOutside(trx, id, [event("job_retried", { by })]);
      await moveJob(trx, id, "queued", {
        from: ["dead"],
        set: { failure: null, attempts: 0, updated_at: this.jobs.store.clockSql },
        side: "user",
      });
    });
    return this.get(id, tenant);
  }

  /**
   * Answers the question a job asked with oz.ask_user, or the form an MCP server asked for
   * during a call (checked against the form before the job goes on), and queues it to go on.
   */
  async answer(
    id: string,
    answer: string,
    by: string,
    options: { readonly tenant: string },
  ): Promise<JobView> {
    const tenant = requireTenant(options?.tenant);
    // The person's answer passes the tenant's hooks before it is written (person.ts).
    const row = await this.row(id, tenant);
    const asked = this.expectWaiting(row, "answer", tenant) as Extract<WaitingFor, { kind: "answer" }>;
    const person = await PersonInput.of(this.#deps.hooks, row);
    if (person !== undefined) {
      const input = await person.userInput(answer, by);
      if (!input.ok) return this.refusedInput(id, person, input.error);
      answer = input.text;
      if (asked.elicitation === undefined)
        answer = await person.answerResult(asked.callId, asked.question, answer);
    }
    const checked = person?.events ?? [];
    await this.wake(id, "answer", tenant, (waiting) => {
      const { callId, question, elicitation } = waiting as Extract<WaitingFor, { kind: "answer" }>;
      if (elicitation === undefined) return [...checked, event("answer_received", { callId, answer, by })];
      const filled = elicitationContent(elicitation.schema, answer);
      if ("problem" in filled) {
        throw new Oz0Error(
          "INVALID_INPUT",
          `job ${id} waits for the form ${elicitation.tool} asked for ("${question}"), and ${filled.problem}; ` +
            `its fields: ${formFields(elicitation.schema)}`,
          { data: { job: id, issues: [{ path: "answer", message: filled.problem }] } },
        );
      }
      return [
        ...checked,
        event("elicitation_answered", { callId, message: question, content: filled.content, by }),
      ];
    });
    return this.get(id, tenant);
  }

  /**
   * The person's next message in a chat job; the job is queued to answer it. The message is a
   * write to the chat's session and a person's input: pre_session_access and user_input may
   * rewrite or refuse it (person.ts).
   */
  async say(id: string, text: string, by: string, options: { readonly tenant: string }): Promise<JobView> {
    const tenant = requireTenant(options?.tenant);
    const row = await this.row(id, tenant);
    this.expectWaiting(row, "chat", tenant);
    const person = await PersonInput.of(this.#deps.hooks, row);
    if (person !== undefined) {
      const write = await person.sessionWrite(text, by);
      if (!write.ok) return this.refusedInput(id, person, write.error);
      text = typeof write.entry === "string" ? write.entry : JSON.stringify(write.entry ?? "");
      const input = await person.userInput(text, by);
      if (!input.ok) return this.refusedInput(id, person, input.error);
      text = input.text;
    }
    const checked = person?.events ?? [];
    await this.wake(id, "chat", tenant, () => [...checked, event("user_message", { text, by })]);
    if (person !== undefined) await this.note(id, tenant, await person.sessionWritten(text, by));
    return this.get(id, tenant);
  }

  /** Ends a chat: the job succeeds with its last answer. The end is a write to its session (pre_session_access may refuse it). */
  async endChat(id: string, options: { readonly tenant: string }): Promise<JobView> {
    const tenant = requireTenant(options?.tenant);
    const ending = await this.row(id, tenant);
    this.expectWaiting(ending, "chat", tenant);
    const person = await PersonInput.of(this.#deps.hooks, ending);
    if (person !== undefined) {
      const write = await person.sessionWrite({ end: true }, "");
      if (!write.ok) return this.refusedInput(id, person, write.error);
    }
    const checked = person?.events ?? [];
    const last = (await this.jobs.events(id)).findLast((entry) => entry.kind === "model_call");
    const output = last?.kind === "model_call" ? (last.data.text ?? last.data.output ?? null) : null;
    await this.jobs.outside(id, async (row, { trx, append }) => {
      this.expectWaiting(row, "chat", tenant);
      await append([...checked, event("job_succeeded", { output })]);
      await moveJob(trx, id, "succeeded", {
        from: ["waiting"],
        set: { output: JSON.stringify(output), waiting_for: null, updated_at: this.jobs.store.clockSql },
      });
      await this.jobs.notifyParent(trx, { id, parent: row.parent_id }, { status: "succeeded", output });
    });
    this.live.wrote(tenant, id);
    // What post_session_access records follows the chat's end.
    if (person !== undefined) await this.note(id, tenant, await person.sessionWritten({ end: true }, ""));
    return this.get(id, tenant);
  }

  /** A person's input the hooks refused: what they recorded is written, the job keeps waiting, and the refusal is thrown. */
  private async refusedInput(id: string, person: PersonInput, error: Error): Promise<never> {
    const recorded = person.events;
    if (recorded.length > 0) await this.jobs.outside(id, (_row, { append }) => append(recorded));
    throw error;
  }

  private async wake(
    id: string,
    kind: WaitingFor["kind"],
    tenant: string,
    events: (waiting: WaitingFor) => Parameters<JobStore["appendOutside"]>[2],
  ): Promise<void> {
    await this.jobs.outside(id, async (row, { trx, append }) => {
      const waiting = this.expectWaiting(row, kind, tenant);
      await append(events(waiting));
      await moveJob(trx, id, "queued", {
        from: ["waiting"],
        set: { waiting_for: null, updated_at: this.jobs.store.clockSql },
      });
    });
    this.live.wrote(tenant, id);
  }

  private expectWaiting(row: JobRow, kind: WaitingFor["kind"], tenant: string): WaitingFor {
    if (row.tenant !== tenant) throw jobNotFound(row.id);
    const waiting = row.waiting_for === null ? null : (JSON.parse(row.waiting_for) as WaitingFor);
    if (row.status === "waiting" && waiting?.kind === kind) return waiting;
    const wanted =
      kind === "answer"
        ? "an answer to a question (oz.ask_user)"
        : kind === "chat"
          ? "the next chat message"
          : "a child job";
    throw new Oz0Error(
      "JOB_STATE_CONFLICT",
      `job ${row.id} is not waiting for ${wanted}: it is ${describeState(row, waiting)}.`,
      { data: { job: row.id, status: row.status } },
    );
  }

  private async row(id: string, tenant: string): Promise<JobRow> {
    const row = await this.jobs.get(id);
    if (row === undefined || row.tenant !== tenant) throw jobNotFound(id);
    return row;
  }
}

/**
 * The tenant a call acts in. One forgotten argument must not reach every tenant's jobs, so a
 * missing or empty tenant is refused here as well as by the types.
 */
function requireTenant(tenant: string | undefined): string {
  if (typeof tenant === "string" && tenant !== "") return tenant;
  throw new Oz0Error(
    "INVALID_INPUT",
    "a job operation must name the tenant it acts in, and none was given; pass the caller's tenant",
    { data: { issues: [{ path: "tenant", message: "required" }] } },
  );
}

function describeState(row: JobRow, waiting: WaitingFor | null): string {
  if (row.status !== "waiting" || waiting === null) return row.status;
  switch (waiting.kind) {
    case "answer":
      return waiting.elicitation === undefined
        ? `waiting for an answer to "${waiting.question}" (oz0 job answer ${row.id} TEXT)`
        : `waiting for the form ${waiting.elicitation.tool} asked for, "${waiting.question}" (oz0 job answer ${row.id} JSON; its fields: ${formFields(waiting.elicitation.schema)})`;
    case "chat":
      return "a chat waiting for its next message";
    case "child":
      return `waiting for child job ${waiting.job}`;
    case "approval":
      return `waiting for a person to decide approval ${waiting.approval} of call ${waiting.callId} (oz0 approval approve|deny ${waiting.approval})`;
  }
}

function notResumable(row: JobRow): Oz0Error {
  const waiting = row.waiting_for === null ? null : (JSON.parse(row.waiting_for) as WaitingFor);
  const how = isTerminal(row.status) ? "has ended" : "cannot be resumed now";
  return new Oz0Error("JOB_STATE_CONFLICT", `job ${row.id} ${how}: it is ${describeState(row, waiting)}.`, {
    data: { job: row.id, status: row.status },
  });
}

function heldElsewhere(row: JobRow, now: number): Oz0Error {
  const seconds = Math.ceil(Math.max(0, (row.lease_expires_at ?? now) - now) / 1000);
  return new Oz0Error(
    "JOB_STATE_CONFLICT",
    `job ${row.id} is running in another worker (${row.lease_owner ?? "unknown"}), whose lease runs for ${seconds} s more; ` +
      `oz0 job resume ${row.id} takes it over once the lease runs out.`,
    { data: { job: row.id, status: row.status } },
  );
}

function aborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}

/**
 * Tells a run's `onText` the text of another worker's run it follows, from the job's live feed;
 * while this process runs the job itself (`here`), the run tells it directly.
 */
class TextRelay {
  here = false;
  readonly #live: LiveFeed;
  readonly #id: string;
  readonly #options: RunOptions;
  #listening: Promise<() => void> | undefined;
  #stopped = false;

  constructor(live: LiveFeed, id: string, options: RunOptions) {
    this.#live = live;
    this.#id = id;
    this.#options = options;
  }

  /** Listens from now on, once: only for a run that follows and has an `onText`. */
  async listen(): Promise<void> {
    const onText = this.#options.onText;
    if (this.#options.follow !== true || onText === undefined || this.#stopped) return;
    // The text is a courtesy to the person watching: a run whose feed cannot listen (no
    // connection to spare) follows the job all the same, and its answer comes at the end.
    this.#listening ??= this.#live
      .subscribe(this.#options.tenant, this.#id, (message) => {
        if (!this.here && message.kind === "text") onText(message.text);
      })
      .catch(() => () => {});
    await this.#listening;
  }

  stop(): void {
    this.#stopped = true;
    void this.#listening?.then((stop) => stop());
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
