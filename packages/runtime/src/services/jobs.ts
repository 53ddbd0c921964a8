// Jobs as callers see them: start, run here or follow a worker's run, get, search, history,
// card, cancel, answer, resume, and chat. Every method checks the caller's role first, acts
// only in the caller's tenant, and answers for a job of an agent outside the caller's scope
// exactly as for a job that does not exist.
import { Oz0Error, parsePartAddress } from "@oz0/sdk";
import type { Caller } from "../callers/index.js";
import type { Card } from "../cards/index.js";
import {
  type FollowItem,
  type JobEvent,
  type JobView,
  type RunListeners,
  type SearchFilter,
  whyUnserved,
} from "../jobs/index.js";
import type { JobMode, JobStatus } from "../store/index.js";
import { jobInScope, type ServiceCore, scoped } from "./core.js";
import { agentAt, type PartHint } from "./parts.js";
import type { ChatTurn, RunOutcome } from "./results.js";

/** What a surface listens to while a job runs here, and the Ctrl-C that lets it go. */
export interface RunWatch extends RunListeners {
  readonly onLeaseWait?:
    | ((wait: { readonly owner: string | null; readonly remainingMs: number }) => void)
    | undefined;
  readonly signal?: AbortSignal | undefined;
}

export interface StartJob {
  /** The agent or flow by address. */
  readonly agent: string;
  /** Text, or an object for an agent with an input schema. */
  readonly input: unknown;
  readonly mode?: JobMode;
  readonly traceparent?: string | undefined;
  /** Check the input against the agent's input schema before the job exists (INVALID_INPUT). */
  readonly checkInput?: boolean | undefined;
  /** The same key (and input) answers with the job it first started instead of a new one. */
  readonly idempotencyKey?: string | undefined;
  /** `a2a`: the input is a message from an outside agent over A2A, and the answer goes back to it. */
  readonly via?: "a2a" | undefined;
}

export interface JobSearch {
  /** Only jobs of this agent or flow, by address: checked against its owner while it is installed. */
  readonly agent?: string | undefined;
  readonly status?: JobStatus | undefined;
  readonly tag?: string | undefined;
  /** Only the children of this job. */
  readonly parent?: string | undefined;
  /** Only jobs started at or after this time (epoch milliseconds). */
  readonly since?: number | undefined;
  /** Only jobs started before this time (epoch milliseconds). */
  readonly until?: number | undefined;
  readonly limit?: number | undefined;
  /** What the refusal of a tool's or skill's address says to do instead. */
  readonly hint?: PartHint | undefined;
}

export interface FollowJob {
  /** Only the events after this seq (a resumed stream's Last-Event-ID). */
  readonly after?: number | undefined;
  /** Of the events already written when following starts, only the newest this many; all that come later. */
  readonly tail?: number | undefined;
  /** How often the job's events are read when nothing said to read them sooner (100 ms). */
  readonly pollMs?: number | undefined;
  readonly signal?: AbortSignal | undefined;
}

/**
 * The newest `limit` jobs of `query` that the caller may see. Out-of-scope jobs are left out
 * after the query, so a scoped caller's query asks for more until `limit` are in scope (or the
 * store has no more): every filter, the period too, is the store's, and the limit counts only
 * what is shown.
 */
export async function searchInScope(
  core: ServiceCore,
  caller: Caller,
  query: SearchFilter,
  limit: number,
): Promise<JobView[]> {
  if (!scoped(caller)) return core.deps.jobs.search({ ...query, limit });
  for (let asked = limit * 4; ; asked *= 4) {
    const found = await core.deps.jobs.search({ ...query, limit: asked });
    const seen = found.filter((job) => jobInScope(caller, job));
    if (seen.length >= limit || found.length < asked) return seen.slice(0, limit);
  }
}

/** The search's period, checked: whole epoch milliseconds, `since` before `until`. */
function searchPeriod(filter: JobSearch): { since?: number; until?: number } {
  const issues: { path: string; message: string }[] = [];
  for (const key of ["since", "until"] as const) {
    const at = filter[key];
    if (at !== undefined && (!Number.isSafeInteger(at) || at < 0)) {
      issues.push({
        path: key,
        message: `must be a time in epoch milliseconds (a whole number of 0 or more), not ${at}`,
      });
    }
  }
  const { since, until } = filter;
  if (issues.length === 0 && since !== undefined && until !== undefined && since >= until) {
    issues.push({
      path: "since",
      message: `since (${new Date(since).toISOString()}) must be before until (${new Date(until).toISOString()})`,
    });
  }
  if (issues.length > 0) {
    throw new Oz0Error(
      "INVALID_INPUT",
      `the jobs search's period is not valid: ${issues.map((issue) => `${issue.path}: ${issue.message}`).join("; ")}`,
      { data: { issues } },
    );
  }
  return { ...(since === undefined ? {} : { since }), ...(until === undefined ? {} : { until }) };
}

/** How long `run` gives a live worker to take a job it started before running the job itself. */
const WORKER_TAKE_MS = 5_000;

export class JobsService {
  readonly #core: ServiceCore;

  constructor(core: ServiceCore) {
    this.#core = core;
  }

  /** The job; one that waits to run on a queue no live node serves says so in `unserved`. */
  async get(caller: Caller, id: string): Promise<JobView> {
    this.#core.check(caller, "jobs.get");
    const view = await this.#core.job(caller, id);
    if (view.status !== "queued") return view;
    return { ...view, unserved: await whyUnserved(this.#core.deps.jobs, id) };
  }

  /** Queues a dead-lettered job again, to go on from its history; any other is JOB_STATE_CONFLICT. */
  async retry(caller: Caller, id: string): Promise<JobView> {
    return this.#core.change(caller, "jobs.retry", id, async (tenant) => {
      await this.#core.job(caller, id);
      return this.#core.deps.jobs.retry(id, caller.actor, { tenant });
    });
  }

  /** The tenant's jobs, newest first, leaving out those of agents outside the caller's scope. */
  async search(caller: Caller, filter: JobSearch = {}): Promise<JobView[]> {
    const tenant = this.#core.check(caller, "jobs.search");
    const period = searchPeriod(filter);
    const agent =
      filter.agent === undefined
        ? undefined
        : await agentAt(this.#core, caller, filter.agent, {
            flows: true,
            hint:
              filter.hint ?? (() => "the filter takes the address of the agent or flow whose jobs to list"),
            // A removed or renamed agent has no owner to check, and its jobs are still there to find.
            missing: () => parsePartAddress(filter.agent!, "agent"),
          });
    const limit = filter.limit ?? 50;
    const query = {
      tenant,
      ...(agent === undefined ? {} : { plugin: agent.plugin, agent: agent.name }),
      ...(filter.status === undefined ? {} : { status: filter.status }),
      ...(filter.tag === undefined ? {} : { tag: filter.tag }),
      ...(filter.parent === undefined ? {} : { parent: filter.parent }),
      ...period,
    };
    return searchInScope(this.#core, caller, query, limit);
  }

  async events(caller: Caller, id: string, afterSeq?: number): Promise<JobEvent[]> {
    const tenant = this.#core.check(caller, "jobs.events");
    await this.#core.job(caller, id);
    return this.#core.deps.jobs.events(id, { tenant, ...(afterSeq === undefined ? {} : { afterSeq }) });
  }

  /** The job's events after `afterSeq`, and the job as it stood just before they were read. */
  async eventPage(
    caller: Caller,
    id: string,
    afterSeq = 0,
  ): Promise<{ readonly job: JobView; readonly events: JobEvent[] }> {
    const tenant = this.#core.check(caller, "jobs.eventPage");
    // The job before its events: a job that had ended then has all its events among them (its
    // end is written with its last ones); read after them, it may have ended since.
    const job = await this.#core.job(caller, id);
    return { job, events: await this.#core.deps.jobs.events(id, { tenant, afterSeq }) };
  }

  /**
   * Follows job `id` until it ends: its events after `after` as they are written, and its model
   * text as it streams (`delta` items, never stored and without a seq), wherever the job runs;
   * then one `end` item with the job. Checked before it resolves: a job out of the caller's
   * scope is not found, as a missing one. `signal` ends the following early.
   * @example for await (const item of await services.jobs.follow(caller, id)) if (item.kind === "delta") write(item.text);
   */
  async follow(
    caller: Caller,
    id: string,
    options: FollowJob = {},
  ): Promise<AsyncGenerator<FollowItem, void, undefined>> {
    const tenant = this.#core.check(caller, "jobs.follow");
    await this.#core.job(caller, id);
    return this.#core.deps.jobs.follow(id, {
      tenant,
      after: options.after,
      tail: options.tail,
      pollMs: options.pollMs,
      signal: options.signal,
    });
  }

  /** The card a job's answer is drawn as; undefined for a text answer or a job without one. */
  async card(caller: Caller, id: string): Promise<Card | undefined> {
    const tenant = this.#core.check(caller, "jobs.card");
    await this.#core.job(caller, id);
    return this.#core.deps.jobs.card(id, tenant);
  }

  /**
   * A succeeded job's answer as a card to draw: its structured card, else its text. A job that
   * has no answer (it has not succeeded) is refused with JOB_STATE_CONFLICT.
   */
  async answerCard(caller: Caller, id: string): Promise<Card> {
    const tenant = this.#core.check(caller, "jobs.answerCard");
    const view = await this.#core.job(caller, id);
    if (view.status !== "succeeded") {
      throw new Oz0Error(
        "JOB_STATE_CONFLICT",
        `job ${view.id} has no answer to draw: it is ${view.status}.`,
        {
          data: { job: view.id, status: view.status },
        },
      );
    }
    return (await this.#core.deps.jobs.card(id, tenant)) ?? { kind: "text", text: answerText(view.output) };
  }

  /** How many workers are live on the store: a job queued now is taken by one of them. */
  async liveWorkers(caller: Caller): Promise<number> {
    this.#core.check(caller, "jobs.liveWorkers");
    return this.#core.deps.liveWorkers();
  }

  /** Starts a job of an agent or flow within the caller's scope, queued for a worker or `run`. */
  async start(caller: Caller, request: StartJob): Promise<JobView> {
    return this.#core.change(caller, "jobs.start", request.agent, async (tenant) => {
      if (scoped(caller)) await this.#core.agent(caller, request.agent, "agent-or-flow");
      return this.#core.deps.jobs.start({
        tenant,
        agent: request.agent,
        input: request.input,
        by: caller.actor,
        ...(request.mode === undefined ? {} : { mode: request.mode }),
        ...(request.traceparent === undefined ? {} : { traceparent: request.traceparent }),
        ...(request.checkInput === true ? { checkInput: true } : {}),
        ...(request.idempotencyKey === undefined ? {} : { idempotencyKey: request.idempotencyKey }),
        ...(request.via === undefined ? {} : { via: request.via }),
      });
    });
  }

  /**
   * Runs job `id` to its end or its next wait, following its children. When a live node serves
   * its queue, it is given a while to take the job first, and its run is followed; should the job still be
   * queued then (the worker busy or gone), it runs here.
   */
  async run(caller: Caller, id: string, watch: RunWatch = {}): Promise<RunOutcome> {
    const tenant = this.#core.check(caller, "jobs.run");
    await this.#core.job(caller, id);
    const { jobs } = this.#core.deps;
    // A live node that serves the job's queue gets the while; one of other queues would not take it.
    const served = (await this.#core.deps.liveWorkers()) > 0 && (await whyUnserved(jobs, id)) === null;
    const workerTakesMs = served ? WORKER_TAKE_MS : 0;
    return this.#outcome(caller, await jobs.run(id, { ...watch, tenant, follow: true, workerTakesMs }));
  }

  /** Runs job `id` on after a person acted on it (an answer, a decision), then each parent its end wakes. */
  async runOn(caller: Caller, id: string, watch: RunWatch = {}): Promise<RunOutcome> {
    const tenant = this.#core.check(caller, "jobs.runOn");
    await this.#core.job(caller, id);
    return this.#outcome(caller, await this.#core.deps.jobs.runUp(id, { ...watch, tenant }));
  }

  /** Takes job `id` up from its history: a queued one, or one whose worker died once its lease ran out. */
  async resume(caller: Caller, id: string, watch: RunWatch = {}): Promise<RunOutcome> {
    return this.#core.change(caller, "jobs.resume", id, async (tenant) => {
      await this.#core.job(caller, id);
      return this.#outcome(caller, await this.#core.deps.jobs.resume(id, { ...watch, tenant }));
    });
  }

  async cancel(caller: Caller, id: string): Promise<JobView> {
    return this.#core.change(caller, "jobs.cancel", id, async (tenant) => {
      await this.#core.job(caller, id);
      return this.#core.deps.jobs.cancel(id, caller.actor, { tenant });
    });
  }

  /** Answers the question job `id` asked; the job is queued to go on (`runOn` runs it here). */
  async answer(caller: Caller, id: string, text: string): Promise<JobView> {
    return this.#core.change(caller, "jobs.answer", id, async (tenant) => {
      await this.#core.job(caller, id);
      return this.#core.deps.jobs.answer(id, text, caller.actor, { tenant });
    });
  }

  async #outcome(caller: Caller, view: JobView): Promise<RunOutcome> {
    const card =
      view.status === "succeeded" ? await this.#core.deps.jobs.card(view.id, caller.tenant) : undefined;
    return { view, card };
  }
}

export interface ChatOpen {
  /** What the refusal of a flow's or a tool's address says to do instead. */
  readonly hint?: PartHint | undefined;
}

/** A conversation: each message is a step of one job of mode chat. */
export class ChatService {
  readonly #core: ServiceCore;
  readonly #jobs: JobsService;

  constructor(core: ServiceCore, jobs: JobsService) {
    this.#core = core;
    this.#jobs = jobs;
  }

  /** Checks that `agent` is an agent the caller may chat with, before the first message. */
  async open(
    caller: Caller,
    agent: string,
    options: ChatOpen = {},
  ): Promise<{ plugin: string; name: string }> {
    this.#core.check(caller, "chat.open");
    return agentAt(this.#core, caller, agent, {
      flows: false,
      hint: options.hint ?? (() => "a chat is with an agent"),
    });
  }

  /**
   * The person's next message: the first starts the chat's job (of `agent`), each later one goes
   * to job `job`; the job then runs to its answer here. Returns the job, the answer and its card.
   */
  async say(
    caller: Caller,
    message: { readonly agent: string; readonly job?: string | undefined; readonly text: string },
    watch: RunWatch = {},
  ): Promise<ChatTurn> {
    const tenant = this.#core.check(caller, "chat.say");
    const { jobs } = this.#core.deps;
    const { id } = await this.post(caller, message);
    const view = await jobs.run(id, { ...watch, tenant, follow: true });
    const waitsForChat = view.status === "waiting" && view.waitingFor?.kind === "chat";
    const card = waitsForChat || view.status === "succeeded" ? await jobs.card(id, tenant) : undefined;
    const last = (await jobs.events(id, { tenant })).findLast((entry) => entry.kind === "model_call");
    const answer = last?.kind === "model_call" ? (last.data.text ?? last.data.output ?? null) : null;
    return { view, card, answer };
  }

  /**
   * The person's next message, left queued for a worker to answer (a channel's thread): the first
   * starts the chat's job of `agent`, each later one goes to job `job`. `chat: false` starts a
   * job of mode run instead, for a message that belongs to no conversation.
   */
  async post(
    caller: Caller,
    message: {
      readonly agent: string;
      readonly job?: string | undefined;
      readonly text: string;
      readonly chat?: boolean | undefined;
    },
  ): Promise<JobView> {
    const tenant = this.#core.check(caller, "chat.post");
    const id = message.job;
    if (id === undefined) {
      const mode = message.chat === false ? "run" : "chat";
      return this.#jobs.start(caller, { agent: message.agent, input: message.text, mode });
    }
    return this.#core.change(caller, "chat.post", id, async () => {
      await this.#core.job(caller, id);
      return this.#core.deps.jobs.say(id, message.text, caller.actor, { tenant });
    });
  }

  /** Ends the chat: its job succeeds with its last answer. */
  async end(caller: Caller, job: string): Promise<JobView> {
    return this.#core.change(caller, "chat.end", job, async (tenant) => {
      await this.#core.job(caller, job);
      return this.#core.deps.jobs.endChat(job, { tenant });
    });
  }
}

/** An answer as text: as it is, or its JSON. */
export function answerText(output: unknown): string {
  return typeof output === "string" ? output : JSON.stringify(output, null, 2);
}
