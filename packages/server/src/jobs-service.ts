// The one place the server reaches the runtime's jobs. Each function takes the caller and one
// request, checks the caller's role and agent scope, then calls the job engine: a stand-in for
// the runtime's services, so that moving to them changes this file alone.
import {
  type Caller,
  type JobEvent,
  type JobStatus,
  type JobView,
  type Runtime,
  requireRole,
} from "@oz0/runtime";
import { isOz0Error, Oz0Error, parsePartAddress } from "@oz0/sdk";

export interface StartJobRequest {
  readonly agent: string;
  readonly input: unknown;
  readonly idempotencyKey?: string | undefined;
}

export interface SearchJobsRequest {
  readonly agent?: string | undefined;
  readonly status?: JobStatus | undefined;
  readonly tag?: string | undefined;
  readonly parent?: string | undefined;
  readonly limit?: number | undefined;
}

/** The jobs API over one runtime; every method acts in the caller's tenant only. */
export class JobsService {
  readonly #runtime: Runtime;

  constructor(runtime: Runtime) {
    this.#runtime = runtime;
  }

  /** StartJob: an agent or flow the caller may see, its input checked before the job exists. */
  async start(caller: Caller, request: StartJobRequest): Promise<JobView> {
    requireRole(caller, "runner", "start jobs");
    // A part outside the caller's scope gets the answer a missing one gets, from the same code.
    const visible = await this.#visibleParts(caller);
    await this.#resolveRunnable(caller.tenant, request.agent, visible);
    return this.#runtime.jobs.start({
      tenant: caller.tenant,
      agent: request.agent,
      input: request.input,
      by: caller.actor,
      checkInput: true,
      ...(request.idempotencyKey === undefined ? {} : { idempotencyKey: request.idempotencyKey }),
    });
  }

  async get(caller: Caller, id: string): Promise<JobView> {
    requireRole(caller, "viewer", "read jobs");
    return this.#visibleJob(caller, id);
  }

  async search(caller: Caller, request: SearchJobsRequest): Promise<JobView[]> {
    requireRole(caller, "viewer", "read jobs");
    const agent = request.agent === undefined ? undefined : await this.#agentFilter(caller, request.agent);
    const jobs = await this.#runtime.jobs.search({
      tenant: caller.tenant,
      ...(agent ?? {}),
      ...(request.status === undefined ? {} : { status: request.status }),
      ...(request.tag === undefined ? {} : { tag: request.tag }),
      ...(request.parent === undefined ? {} : { parent: request.parent }),
      ...(request.limit === undefined ? {} : { limit: request.limit }),
    });
    return jobs.filter((job) => jobInScope(caller, job));
  }

  async cancel(caller: Caller, id: string): Promise<JobView> {
    requireRole(caller, "runner", "cancel jobs");
    await this.#visibleJob(caller, id);
    return this.#runtime.jobs.cancel(id, caller.actor, { tenant: caller.tenant });
  }

  async answer(caller: Caller, id: string, answer: string): Promise<JobView> {
    requireRole(caller, "runner", "answer a job's questions");
    await this.#visibleJob(caller, id);
    return this.#runtime.jobs.answer(id, answer, caller.actor, { tenant: caller.tenant });
  }

  /** The job's events after `afterSeq`, and the job as it stood once they were read. */
  async events(
    caller: Caller,
    id: string,
    afterSeq: number,
  ): Promise<{ readonly job: JobView; readonly events: JobEvent[] }> {
    requireRole(caller, "viewer", "read jobs");
    await this.#visibleJob(caller, id);
    const events = await this.#runtime.jobs.events(id, { tenant: caller.tenant, afterSeq });
    // Read after the events: a job that ended before them has all its events among them.
    const job = await this.#runtime.jobs.get(id, caller.tenant);
    return { job, events };
  }

  async #visibleJob(caller: Caller, id: string): Promise<JobView> {
    const job = await this.#runtime.jobs.get(id, caller.tenant);
    if (!jobInScope(caller, job)) throw jobNotFound(id);
    return job;
  }

  /** Agents and flows first by agent, then by flow, as the job engine looks them up. */
  async #resolveRunnable(
    tenant: string,
    text: string,
    visible: ((part: { readonly address: string }) => boolean) | undefined,
  ): Promise<void> {
    const options = visible === undefined ? {} : { visible };
    try {
      await this.#runtime.catalog.resolvePart(tenant, "agent", text, options);
    } catch (error) {
      if (!isOz0Error(error, "NOT_FOUND")) throw error;
      try {
        await this.#runtime.catalog.resolvePart(tenant, "flow", text, options);
      } catch (second) {
        if (isOz0Error(second, "NOT_FOUND")) throw error;
        throw second;
      }
    }
  }

  async #agentFilter(caller: Caller, text: string): Promise<{ plugin: string; agent: string }> {
    const visible = await this.#visibleParts(caller);
    try {
      const part = await this.#runtime.catalog.resolvePart(
        caller.tenant,
        "agent-or-flow",
        text,
        visible === undefined ? {} : { visible },
      );
      return { plugin: part.plugin, agent: part.name };
    } catch (error) {
      // A removed agent has no owner to check, and its jobs are still there to find.
      if (!isOz0Error(error, "NOT_FOUND")) throw error;
      const address = parsePartAddress(text, "agent");
      if (address.plugin === undefined) throw error;
      return { plugin: address.plugin, agent: address.name };
    }
  }

  /** Which parts a scoped caller may see; undefined for one that sees every agent. */
  async #visibleParts(
    caller: Caller,
  ): Promise<((part: { readonly address: string }) => boolean) | undefined> {
    if (caller.agents.includes("*")) return undefined;
    const addresses = new Set(caller.agents.filter((entry) => !entry.startsWith("tag:")));
    for (const entry of caller.agents) {
      if (!entry.startsWith("tag:")) continue;
      const tagged = await this.#runtime.catalog.entries(caller.tenant, { tag: entry.slice("tag:".length) });
      for (const part of tagged) addresses.add(part.address);
    }
    return (part) => addresses.has(part.address);
  }
}

/** Whether the caller's agents include the job's agent, by address or by one of its tags. */
function jobInScope(caller: Caller, job: JobView): boolean {
  return caller.agents.some(
    (entry) =>
      entry === "*" ||
      entry === job.agent ||
      (entry.startsWith("tag:") && job.tags.includes(entry.slice("tag:".length))),
  );
}

/** The job engine's own answer for a job that does not exist. */
function jobNotFound(id: string): Oz0Error {
  return new Oz0Error("NOT_FOUND", `there is no job ${id}; oz0 job search lists the tenant's jobs.`, {
    data: { kind: "job", name: id },
  });
}
