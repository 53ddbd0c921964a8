// oz0's jobs as A2A tasks: a task's id is its job's id, its state the job's status, its
// artifact the job's answer. Nothing is kept beside the job, so a task reads the same from
// every server of a deployment and after a restart.
import type { Artifact, Message, Part, Task, TaskStatus } from "@a2a-js/sdk";
import { Role, TaskState } from "@a2a-js/sdk";
import type { JobView } from "@oz0/runtime";
import { Oz0Error } from "@oz0/sdk";

/** The A2A state of a job. A job waiting for a person's approval or a child job is still working. */
export function stateOf(job: JobView): TaskState {
  switch (job.status) {
    case "queued":
      return TaskState.TASK_STATE_SUBMITTED;
    case "running":
      return TaskState.TASK_STATE_WORKING;
    case "waiting":
      return job.waitingFor?.kind === "answer"
        ? TaskState.TASK_STATE_INPUT_REQUIRED
        : TaskState.TASK_STATE_WORKING;
    case "succeeded":
      return TaskState.TASK_STATE_COMPLETED;
    case "cancelled":
      return TaskState.TASK_STATE_CANCELED;
    default:
      return TaskState.TASK_STATE_FAILED;
  }
}

/** Whether a task in this state takes no more messages and makes no more progress by itself. */
export function isFinal(state: TaskState): boolean {
  return (
    state === TaskState.TASK_STATE_COMPLETED ||
    state === TaskState.TASK_STATE_FAILED ||
    state === TaskState.TASK_STATE_CANCELED ||
    state === TaskState.TASK_STATE_REJECTED
  );
}

/** Whether the task waits for its caller: it ended, or it asks for input. */
export function isSettled(state: TaskState): boolean {
  return isFinal(state) || state === TaskState.TASK_STATE_INPUT_REQUIRED;
}

export function textPart(text: string): Part {
  return {
    content: { $case: "text", value: text },
    metadata: undefined,
    filename: "",
    mediaType: "text/plain",
  };
}

function agentMessage(job: JobView, text: string): Message {
  return {
    messageId: `${job.id}:${job.updatedAt}`,
    contextId: job.id,
    taskId: job.id,
    role: Role.ROLE_AGENT,
    parts: [textPart(text)],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

/** What the job says with its state: its question, or why it failed. */
export function statusOf(job: JobView): TaskStatus {
  const state = stateOf(job);
  const said =
    job.waitingFor?.kind === "answer" && state === TaskState.TASK_STATE_INPUT_REQUIRED
      ? job.waitingFor.question
      : job.failure !== null
        ? `${job.failure.kind}: ${job.failure.message}`
        : undefined;
  return {
    state,
    message: said === undefined ? undefined : agentMessage(job, said),
    timestamp: new Date(job.updatedAt).toISOString(),
  };
}

/** The job's answer as the task's artifact: text as a text part, structured output as a data part. */
export function artifactOf(job: JobView): Artifact | undefined {
  if (job.status !== "succeeded") return undefined;
  const output = job.output;
  const part: Part =
    typeof output === "string"
      ? textPart(output)
      : {
          content: { $case: "data", value: output },
          metadata: undefined,
          filename: "",
          mediaType: "application/json",
        };
  return {
    artifactId: "answer",
    name: "answer",
    description: "",
    parts: [part],
    metadata: undefined,
    extensions: [],
  };
}

export function taskOf(job: JobView): Task {
  const artifact = artifactOf(job);
  return {
    id: job.id,
    contextId: job.id,
    status: statusOf(job),
    artifacts: artifact === undefined ? [] : [artifact],
    history: [],
    metadata: { agent: job.agent },
  };
}

/** A message's input for a job: its text parts joined, or its one data part for structured input. */
export function inputOf(message: Message | undefined): unknown {
  const parts = message?.parts ?? [];
  const texts = parts.flatMap((part) => (part.content?.$case === "text" ? [part.content.value] : []));
  if (texts.length > 0) return texts.join("\n");
  const data = parts.find((part) => part.content?.$case === "data");
  if (data?.content?.$case === "data") return data.content.value;
  throw new Oz0Error(
    "INVALID_INPUT",
    "the message has no text or data part: send the agent's input as a text part (or one data part for an agent with an input schema)",
    { data: { issues: [{ path: "message.parts", message: "a text or data part" }] } },
  );
}
