// One agent of oz0 as an A2A agent, for one caller: the SDK's JSON-RPC transport hands each
// request to this handler, which calls runtime.services.jobs with the caller, so roles, the
// tenant and the agent scope are the services' as on every other route. A message starts a job
// (its input checked) or answers the question its task asks; get and cancel are the job's;
// streaming follows the job's events.
import type { AgentCard, Message, SendMessageRequest, StreamResponse, Task } from "@a2a-js/sdk";
import {
  ExtendedAgentCardNotConfiguredError,
  PushNotificationNotSupportedError,
  TaskNotCancelableError,
  TaskNotFoundError,
  UnsupportedOperationError,
} from "@a2a-js/sdk/errors";
import type { A2ARequestHandler } from "@a2a-js/sdk/server";
import type { Caller, JobView, Runtime } from "@oz0/runtime";
import { isOz0Error } from "@oz0/sdk";
import { artifactOf, inputOf, isSettled, stateOf, statusOf, taskOf } from "./tasks.js";

export interface AgentHandlerOptions {
  readonly services: Runtime["services"];
  readonly caller: Caller;
  /** The agent, `<plugin>/<agent>`, as the path names it. */
  readonly agent: string;
  readonly card: AgentCard;
  /** How often a blocking send or a stream reads the job. */
  readonly pollMs: number;
  /** Aborted when the client goes away. */
  readonly signal: AbortSignal;
}

export class AgentTaskHandler implements A2ARequestHandler {
  readonly #options: AgentHandlerOptions;

  constructor(options: AgentHandlerOptions) {
    this.#options = options;
  }

  async getAgentCard(): Promise<AgentCard> {
    return this.#options.card;
  }

  async getAuthenticatedExtendedAgentCard(): Promise<AgentCard> {
    throw new ExtendedAgentCardNotConfiguredError();
  }

  async sendMessage(params: SendMessageRequest): Promise<Message | Task> {
    const job = await this.#send(params);
    if (params.configuration?.returnImmediately === true) return taskOf(job);
    return taskOf(await this.#settled(job));
  }

  async *sendMessageStream(params: SendMessageRequest): AsyncGenerator<StreamResponse, void, undefined> {
    const job = await this.#send(params);
    yield* this.#follow(job);
  }

  async getTask(params: { readonly id: string }): Promise<Task> {
    return taskOf(await this.#job(params.id));
  }

  async cancelTask(params: { readonly id: string }): Promise<Task> {
    const job = await this.#job(params.id);
    try {
      return taskOf(await this.#options.services.jobs.cancel(this.#options.caller, job.id));
    } catch (error) {
      if (isOz0Error(error, "JOB_STATE_CONFLICT")) throw new TaskNotCancelableError((error as Error).message);
      throw error;
    }
  }

  async *resubscribe(params: { readonly id: string }): AsyncGenerator<StreamResponse, void, undefined> {
    yield* this.#follow(await this.#job(params.id));
  }

  async listTasks(): Promise<never> {
    throw new UnsupportedOperationError(
      "tasks/list is not served: search the agent's jobs with GET /v1/t/{tenant}/jobs?agent=…",
    );
  }

  async createTaskPushNotificationConfig(): Promise<never> {
    throw new PushNotificationNotSupportedError();
  }

  async getTaskPushNotificationConfig(): Promise<never> {
    throw new PushNotificationNotSupportedError();
  }

  async listTaskPushNotificationConfigs(): Promise<never> {
    throw new PushNotificationNotSupportedError();
  }

  async deleteTaskPushNotificationConfig(): Promise<never> {
    throw new PushNotificationNotSupportedError();
  }

  /** A new message starts a job; one that names its task answers the question the job asks. */
  async #send(params: SendMessageRequest): Promise<JobView> {
    const { services, caller, agent } = this.#options;
    const message = params.message;
    const input = inputOf(message);
    if (message !== undefined && message.taskId !== "") {
      const job = await this.#job(message.taskId);
      if (job.status !== "waiting" || job.waitingFor?.kind !== "answer") {
        throw new UnsupportedOperationError(
          `task ${job.id} asks for no input (it is ${job.status}); send a new message without taskId to start another task`,
        );
      }
      return services.jobs.answer(caller, job.id, typeof input === "string" ? input : JSON.stringify(input));
    }
    return services.jobs.start(caller, {
      agent,
      input,
      checkInput: true,
      via: "a2a",
      // A message sent again (the same messageId) is the same task.
      ...(message?.messageId ? { idempotencyKey: `a2a:${message.messageId}`.slice(0, 200) } : {}),
    });
  }

  /** The job of task `id`, if it is this agent's and the caller may see it; else TaskNotFound. */
  async #job(id: string): Promise<JobView> {
    const { services, caller, agent } = this.#options;
    let job: JobView;
    try {
      job = await services.jobs.get(caller, id);
    } catch (error) {
      if (isOz0Error(error, "NOT_FOUND")) throw new TaskNotFoundError(`there is no task ${id}`);
      throw error;
    }
    if (job.agent !== agent) throw new TaskNotFoundError(`there is no task ${id}`);
    return job;
  }

  /** Reads the job until it ended or asks for input (a blocking send). */
  async #settled(job: JobView): Promise<JobView> {
    let current = job;
    while (!isSettled(stateOf(current)) && !this.#options.signal.aborted) {
      await sleep(this.#options.pollMs);
      current = await this.#options.services.jobs.get(this.#options.caller, job.id);
    }
    return current;
  }

  /**
   * The task, then a status update for each batch of the job's events (the events in its
   * metadata), until the job ended or asks for input; a succeeded job's answer comes as an
   * artifact before the last update.
   */
  async *#follow(job: JobView): AsyncGenerator<StreamResponse, void, undefined> {
    const { services, caller, pollMs, signal } = this.#options;
    yield { payload: { $case: "task", value: taskOf(job) } };
    let after = 0;
    for (;;) {
      const page = await services.jobs.eventPage(caller, job.id, after);
      const state = stateOf(page.job);
      if (page.events.length > 0) {
        after = page.events[page.events.length - 1]?.seq ?? after;
        const artifact = isSettled(state) ? artifactOf(page.job) : undefined;
        if (artifact !== undefined) {
          yield {
            payload: {
              $case: "artifactUpdate",
              value: {
                taskId: job.id,
                contextId: job.id,
                artifact,
                append: false,
                lastChunk: true,
                metadata: undefined,
              },
            },
          };
        }
        yield {
          payload: {
            $case: "statusUpdate",
            value: {
              taskId: job.id,
              contextId: job.id,
              status: statusOf(page.job),
              metadata: {
                events: page.events.map((entry) => ({ seq: entry.seq, kind: entry.kind, data: entry.data })),
              },
            },
          },
        };
      }
      if (isSettled(state) || signal.aborted) return;
      await sleep(pollMs);
    }
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
