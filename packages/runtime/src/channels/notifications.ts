// Notifications: what a person must act on (a call held for approval, a job's question), told
// to a channel that supports notifications and has them on. In a thread whose job waits, the
// thread's answer is the notification; to a channel's own target (its `notify`), each pending
// approval and question of the tenant becomes an outbox row keyed by what it is about, so it is
// sent once however many workers see it, and retried like any answer. The call's arguments are
// read from the job's history, which holds them with the tenant's secrets redacted.
import type { ChannelNotification } from "@oz0/sdk";
import type { JobEvent, WaitingFor } from "../events/index.js";
import type { JobView } from "../jobs/index.js";
import type { Store } from "../store/index.js";

/** What a waiting job waits for a person to do. */
export type PersonWait = Extract<WaitingFor, { readonly kind: "approval" | "answer" }>;

/** One thing of a tenant a person must act on, as the target scan finds it. */
export interface PendingForPeople {
  readonly tenant: string;
  readonly job: string;
  readonly wait: PersonWait;
  /** The outbox key of its notification, per channel: one notification each. */
  readonly key: string;
}

/** What a person must do for a job waiting for them, or undefined for any other wait. */
export function personWait(job: JobView): PersonWait | undefined {
  const asks = job.waitingFor;
  if (job.status !== "waiting" || (asks?.kind !== "approval" && asks?.kind !== "answer")) return undefined;
  return asks;
}

/** The outbox key of the notification of `wait`: the approval, or the job's question by its call. */
export function notificationKey(job: string, wait: PersonWait): string {
  return wait.kind === "approval"
    ? `notify:approval:${wait.approval}`
    : `notify:question:${job}:${wait.callId}`;
}

/** Whether an outbox row is a notification to the channel's own target. */
export function isTargetNotification(eventKey: string): boolean {
  return eventKey.startsWith("notify:");
}

/**
 * The notification of `wait`: the job, the call by address with its exact arguments (as the
 * history holds them, redacted) or the question, and how to answer from the channel.
 */
export function notificationOf(
  job: JobView,
  wait: PersonWait,
  events: readonly JobEvent[],
): ChannelNotification {
  if (wait.kind === "answer") {
    return {
      title: `Question from ${job.agent}`,
      body: `job ${job.id} (${job.agent}) asks: ${wait.question}\n${howToAnswer(job, wait)}`,
      level: "info",
      action: {
        kind: "question",
        job: job.id,
        agent: job.agent,
        callId: wait.callId,
        question: wait.question,
      },
    };
  }
  const asked = events.findLast(
    (event) => event.kind === "approval_requested" && event.data.approval === wait.approval,
  );
  const request = asked?.kind === "approval_requested" ? asked.data : undefined;
  const address = request?.address ?? "a function";
  const args = request?.args ?? {};
  const rule = request?.rule ?? "";
  return {
    title: `Approval needed: ${address}`,
    body: [
      `job ${job.id} (${job.agent}) waits for approval ${wait.approval}: it would call ${address} with`,
      JSON.stringify(args, null, 2),
      ...(rule === "" ? [] : [`held by the rule ${rule}.`]),
      howToAnswer(job, wait),
    ].join("\n"),
    level: "warning",
    action: {
      kind: "approval",
      approval: wait.approval,
      job: job.id,
      agent: job.agent,
      call: { id: request?.callId ?? wait.callId, address, args },
      rule,
    },
  };
}

/** The thread's line for a channel without notifications on: what the job waits for, and how to answer. */
export function waitNotice(job: JobView, wait: PersonWait): string {
  return wait.kind === "approval"
    ? `job ${job.id} waits for approval ${wait.approval}. ${howToAnswer(job, wait)}`
    : `job ${job.id} asks: ${wait.question}\n${howToAnswer(job, wait)}`;
}

/** The reply that answers `wait` from a channel: the commands the channel host reads. */
function howToAnswer(job: JobView, wait: PersonWait): string {
  return wait.kind === "approval"
    ? `Reply "approve ${wait.approval}" or "deny ${wait.approval} <reason>".`
    : `Reply "answer ${job.id} <your answer>".`;
}

/**
 * Each approval pending in a job that waits for it, and each job waiting for an answer, of
 * `tenant` (every tenant's when left out): what a channel's target is told of.
 */
export async function pendingForPeople(store: Store, tenant?: string): Promise<PendingForPeople[]> {
  let approvals = store.db
    .selectFrom("approvals")
    .innerJoin("jobs", "jobs.id", "approvals.job_id")
    .select(["approvals.id", "approvals.tenant", "approvals.job_id", "approvals.call_id"])
    .where("approvals.status", "=", "pending")
    .where("jobs.status", "=", "waiting");
  if (tenant !== undefined) approvals = approvals.where("approvals.tenant", "=", tenant);
  let questions = store.db
    .selectFrom("jobs")
    .select(["id", "tenant", "waiting_for"])
    .where("status", "=", "waiting")
    .where("waiting_for", "like", '%"kind":"answer"%');
  if (tenant !== undefined) questions = questions.where("tenant", "=", tenant);
  const found: PendingForPeople[] = [];
  for (const row of await approvals.execute()) {
    const wait: PersonWait = { kind: "approval", approval: row.id, callId: row.call_id ?? "" };
    found.push({ tenant: row.tenant, job: row.job_id, wait, key: notificationKey(row.job_id, wait) });
  }
  for (const row of await questions.execute()) {
    const wait = JSON.parse(row.waiting_for ?? "null") as WaitingFor | null;
    if (wait?.kind !== "answer") continue;
    found.push({ tenant: row.tenant, job: row.id, wait, key: notificationKey(row.id, wait) });
  }
  return found;
}
