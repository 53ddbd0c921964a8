// `runtime: remote:a2a`: the agent's loop runs at an outside agent, reached over the A2A
// protocol (the official `@a2a-js/sdk` client, JSON-RPC). oz0 sends the job's input as one
// message, follows the remote task it becomes until it ends or asks for input, and turns its
// states into the job's: input-required is a question (`oz0 job answer` sends the answer as the
// task's next message), artifacts are the answer, failed and rejected fail the job.
//
// Each message is one `callRemote` (governed as `<plugin>/<agent>.send_message`): its
// `tool_call` is recorded before the message goes out and the task's id (`remote_task`) before
// the run waits on it, so a resumed run reads the same task again and never sends twice.
import type { AgentCard, Message, Task } from "@a2a-js/sdk";
import type { Client } from "@a2a-js/sdk/client";
import { Oz0Error } from "@oz0/sdk";
import { type AgentRuntime, type RuntimeRemoteTask, type RuntimeSession, RuntimeStop } from "../types.js";
import { fetchCheckedCard, sdk } from "./card.js";
import { ENDPOINTS_VARIABLE, operatorEndpoint } from "./endpoints.js";
import { type A2aOptions, readA2aOptions } from "./options.js";

export const A2A_RUNTIME_NAME = "remote:a2a";

/** A remote task's state, as the history records it (the protocol's names, lowercase). */
type TaskStateName =
  | "submitted"
  | "working"
  | "completed"
  | "failed"
  | "canceled"
  | "input-required"
  | "rejected"
  | "auth-required"
  | "unknown";

/** What one message's exchange came to: the task where it stopped, and what it said. */
interface Exchange {
  readonly state: TaskStateName;
  readonly task?: string;
  readonly context?: string;
  readonly text?: string;
  readonly output?: unknown;
  /** When the task got this state (its status's timestamp): a follow-up's answer is a later one. */
  readonly stamp?: string;
}

/** What a run holds outside the process: the task to cancel when the job stops. */
const open = new WeakMap<RuntimeSession, { client: Client; task: string | undefined }>();

export const A2A_RUNTIME: AgentRuntime = {
  name: A2A_RUNTIME_NAME,
  selects: [A2A_RUNTIME_NAME],
  remoteFunctions: ["send_message"],
  optionProblems: (harness) => readA2aOptions(harness).problems,
  async run(session) {
    const { options, problems } = readA2aOptions(session.options);
    if (problems.length > 0) {
      return session.fail({ kind: "remote_error", message: `${session.agent}: ${problems.join("; ")}` });
    }
    const endpoint = operatorEndpoint(session.agent);
    if (endpoint === undefined) {
      return session.fail({
        kind: "remote_error",
        message:
          `${session.agent} runs at an outside A2A agent, and no endpoint is set for it on this node: ` +
          `the node's operator sets one in ${ENDPOINTS_VARIABLE} (${session.agent}=https://…)`,
      });
    }
    const headers = await requestHeaders(session, options);
    if (typeof headers === "string") return session.fail({ kind: "remote_error", message: headers });
    const fetchImpl: typeof fetch = (input, init) => {
      const merged = new Headers(init?.headers);
      for (const [name, value] of Object.entries(headers)) merged.set(name, value);
      // The key goes to the operator's endpoint only: a redirect elsewhere is an error, never followed.
      return fetch(input, { ...init, headers: merged, redirect: "error" });
    };
    let client: Client;
    try {
      const card = await fetchCheckedCard(endpoint, options, fetchImpl, session.signal);
      client = await clientFor(card, fetchImpl);
    } catch (error) {
      if (session.signal.aborted) throw error;
      return session.fail({ kind: "remote_error", message: messageOf(error) });
    }
    const held = { client, task: undefined as string | undefined };
    open.set(session, held);
    let text = inputText(session);
    let previous: Exchange | undefined;
    for (let turn = 1; ; turn += 1) {
      // Each new task is a step of the job, recorded before its first message at what it may
      // cost: the job's ceiling and the tenant's budget decide it first, and its usage counts it.
      if (previous === undefined) await taskStep(session, options, text);
      const result = await session.callRemote(
        {
          id: `remote.${turn}`,
          function: "send_message",
          description: `Sends a message to the outside A2A agent behind ${session.agent}`,
          args: {
            text,
            ...(options.skill === undefined ? {} : { skill: options.skill }),
            ...(previous?.task === undefined ? {} : { task: previous.task }),
          },
        },
        (recorded) =>
          exchange(
            session,
            held,
            options,
            { text: typeof recorded.args.text === "string" ? recorded.args.text : text, turn, previous },
            recorded,
          ),
      );
      if (!result.ok) {
        const kind =
          result.error.code === "POLICY_VIOLATION" || result.error.code === "APPROVAL_DENIED"
            ? "policy_denied"
            : result.error.code === "KILLED"
              ? "killed"
              : "remote_error";
        return session.fail({ kind, message: result.error.message });
      }
      const outcome = result.result as Exchange;
      held.task = outcome.task;
      switch (outcome.state) {
        case "completed": {
          const next = await session.finish(
            outcome.output !== undefined && session.outputSchema !== undefined
              ? { output: outcome.output }
              : { text: outcome.text ?? "" },
          );
          if (next === undefined) return;
          // The job goes on (a chat's next message, or the output schema's reason): a new task.
          text = next;
          previous = undefined;
          continue;
        }
        case "input-required":
        case "auth-required":
          text = await session.ask(
            `remote.${turn}.question`,
            outcome.text ??
              `the outside agent behind ${session.agent} asks for more input (task ${outcome.task})`,
          );
          previous = outcome;
          continue;
        default:
          return session.fail({
            kind: "remote_error",
            message: `the outside agent behind ${session.agent} ended task ${outcome.task ?? "(none)"} as ${outcome.state}${outcome.text === undefined ? "" : `: ${outcome.text}`}`,
          });
      }
    }
  },
  cancel(session, reason) {
    const held = open.get(session);
    // A lost lease hands the job to another worker, which goes on with the same task.
    if (held?.task === undefined || reason === "lost") return;
    void held.client.cancelTask({ tenant: "", id: held.task, metadata: undefined }).catch(() => {});
  },
};

/** The model a remote task's step is recorded on: the outside agent, by the oz0 agent it stands behind. */
export function taskModel(agent: string): string {
  return `a2a:${agent}`;
}

/** Records a new task as the job's next step, ahead of its first message (see RuntimeForeignStep.ahead). */
async function taskStep(session: RuntimeSession, options: A2aOptions, text: string): Promise<void> {
  const { taskUsd } = options;
  await session.recordStep({
    model: taskModel(session.agent),
    calls: [],
    ...(taskUsd === undefined ? {} : { costUsd: taskUsd }),
    ahead: {
      messages: [{ role: "user", content: text }],
      what:
        taskUsd === undefined
          ? `a task of ${session.agent} (no harness.task_usd says what it may cost)`
          : `a task of ${session.agent} may cost $${taskUsd} (harness.task_usd)`,
    },
  });
}

/** The job's input, as the first message's text. */
function inputText(session: RuntimeSession): string {
  const user = session.opening.find((message) => message.role === "user");
  const content = user?.role === "user" ? user.content : "";
  return typeof content === "string" ? content : JSON.stringify(content);
}

/** The headers every request carries: the tenant's secret, and the job's id as the session. */
async function requestHeaders(
  session: RuntimeSession,
  options: A2aOptions,
): Promise<Record<string, string> | string> {
  const headers: Record<string, string> = {};
  if (options.sessionHeader !== undefined) headers[options.sessionHeader] = session.job;
  if (options.key === undefined) return headers;
  const secret = await session.secret(options.key);
  if (secret === undefined) {
    return `${session.agent} sends the tenant's secret '${options.key}' (harness.key), and the tenant has none of that name: set it with oz0 remote secret set ${options.key}`;
  }
  if (options.auth.kind === "bearer") headers.authorization = `Bearer ${secret}`;
  else headers[options.auth.name] = secret;
  return headers;
}

async function clientFor(card: AgentCard, fetchImpl: typeof fetch): Promise<Client> {
  const { ClientFactory, JsonRpcTransportFactory } = await sdk();
  const factory = new ClientFactory({ transports: [new JsonRpcTransportFactory({ fetchImpl })] });
  return factory.createFromAgentCard(card);
}

/** One message's exchange: sends it (unless a recorded task stands for it) and follows its task. */
async function exchange(
  session: RuntimeSession,
  held: { client: Client; task: string | undefined },
  options: A2aOptions,
  message: { readonly text: string; readonly turn: number; readonly previous: Exchange | undefined },
  recorded: {
    readonly task: RuntimeRemoteTask | undefined;
    readonly mayHaveSent: boolean;
    record(task: RuntimeRemoteTask & { readonly text?: string | undefined }): Promise<void>;
  },
): Promise<Exchange> {
  const { client } = held;
  const { Role } = await sdk();
  let task: Task;
  if (recorded.task !== undefined) {
    task = await client.getTask(
      { tenant: "", id: recorded.task.id, historyLength: 0 },
      { signal: session.signal },
    );
  } else if (recorded.mayHaveSent) {
    throw new Oz0Error(
      "REMOTE_AGENT_ERROR",
      `message ${message.turn} to the outside agent behind ${session.agent} may have reached it before this job's worker stopped, and its task was never recorded; oz0 does not send a message twice, so the job ends here (start a new one to try again)`,
      { data: { url: "", reason: "unsent" } },
    );
  } else {
    const sent = await client.sendMessage(
      {
        tenant: "",
        message: {
          // The same id on every attempt: an agent that deduplicates sees one message.
          messageId: `${session.job}:remote.${message.turn}`,
          contextId: message.previous?.context ?? "",
          taskId: message.previous?.task ?? "",
          role: Role.ROLE_USER,
          parts: [
            {
              content: { $case: "text", value: message.text },
              metadata: undefined,
              filename: "",
              mediaType: "text/plain",
            },
          ],
          metadata: options.skill === undefined ? undefined : { skill: options.skill },
          extensions: [],
          referenceTaskIds: [],
        },
        configuration: {
          acceptedOutputModes: [],
          taskPushNotificationConfig: undefined,
          returnImmediately: true,
        },
        metadata: undefined,
      },
      { signal: session.signal },
    );
    if (!isTask(sent))
      return {
        state: "completed",
        ...(sent.contextId === "" ? {} : { context: sent.contextId }),
        ...textOf(sent.parts),
      };
    task = sent;
    await recorded.record(taskRecord(task));
  }
  held.task = task.id;
  // A follow-up message's task may still show the state that asked for it until the agent reads it.
  const stale = (current: Task) =>
    message.previous !== undefined &&
    stateName(current) === message.previous.state &&
    current.status?.timestamp === message.previous.stamp;
  let state = stateName(task);
  while (state === "submitted" || state === "working" || stale(task)) {
    await sleep(options.pollSeconds * 1000, session.signal);
    if (await session.checkpoint()) {
      await client.cancelTask({ tenant: "", id: task.id, metadata: undefined }).catch(() => {});
      throw new RuntimeStop(session.job);
    }
    task = await client.getTask({ tenant: "", id: task.id, historyLength: 0 }, { signal: session.signal });
    const next = stateName(task);
    if (next !== state && !stale(task)) await recorded.record(taskRecord(task));
    state = next;
  }
  return outcomeOf(task, state);
}

function isTask(result: Message | Task): result is Task {
  return (result as Task).status !== undefined && (result as Message).messageId === undefined;
}

function taskRecord(task: Task): RuntimeRemoteTask & { text?: string } {
  const said = task.status?.message === undefined ? {} : textOf(task.status.message.parts);
  return {
    id: task.id,
    ...(task.contextId === "" ? {} : { context: task.contextId }),
    state: stateName(task),
    ...(said.text === undefined ? {} : { text: said.text }),
  };
}

function outcomeOf(task: Task, state: TaskStateName): Exchange {
  const base = {
    state,
    task: task.id,
    ...(task.contextId === "" ? {} : { context: task.contextId }),
    ...(task.status?.timestamp === undefined ? {} : { stamp: task.status.timestamp }),
  };
  if (state === "completed") {
    const parts = task.artifacts.flatMap((artifact) => artifact.parts);
    const said = textOf(parts.length > 0 ? parts : (task.status?.message?.parts ?? []));
    return { ...base, ...said };
  }
  return { ...base, ...textOf(task.status?.message?.parts ?? []) };
}

/** The text parts joined, and the first data part as structured output. */
function textOf(parts: Message["parts"]): { text?: string; output?: unknown } {
  const texts: string[] = [];
  let output: unknown;
  for (const part of parts) {
    if (part.content?.$case === "text") texts.push(part.content.value);
    else if (part.content?.$case === "data" && output === undefined) output = part.content.value;
  }
  return {
    ...(texts.length === 0 ? {} : { text: texts.join("\n") }),
    ...(output === undefined ? {} : { output }),
  };
}

const STATE_NAMES: Record<number, TaskStateName> = {
  1: "submitted",
  2: "working",
  3: "completed",
  4: "failed",
  5: "canceled",
  6: "input-required",
  7: "rejected",
  8: "auth-required",
};

function stateName(task: Task): TaskStateName {
  return STATE_NAMES[task.status?.state ?? 0] ?? "unknown";
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", stop, { once: true });
  });
}
