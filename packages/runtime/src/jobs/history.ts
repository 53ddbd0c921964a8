// Rebuilds a job's state from its history: the conversation the model sees, the steps and
// tokens spent, and the calls the last model reply asked for that have no result yet. A worker
// that takes over a job reads this and goes on from there, repeating no completed step.

import type { CallError, JobEvent, JobEventData, ModelCallRecord, NewEvent } from "../events/index.js";
import { estimateTokens, estimateValueTokens, type ModelMessage } from "../models/index.js";

/** A call of the last model reply that has no result yet. */
export interface PendingCall {
  readonly call: ModelCallRecord;
  /** Set once its `tool_call` is recorded: it may have run, and runs again with the same key. */
  started?: { readonly key: string; readonly address: string; attempt: number };
  /** The child job an `oz.delegate` call started. */
  child?: string;
  /** The approval a person was asked for: their decision, not the policy of later, decides the call. */
  asked?: string;
  /** A person's answers to the forms an MCP server asked for during the call, in order. */
  elicited?: { readonly message: string; readonly content: Readonly<Record<string, unknown>> }[];
}

/** The conversation, with a running token estimate kept as messages are added. */
export class Conversation {
  readonly messages: ModelMessage[] = [];
  tokens = 0;

  add(message: ModelMessage): void {
    this.messages.push(message);
    this.tokens += messageTokens(message);
  }

  /** Puts `content` in place of what the tool message of call `callId` says. */
  rewriteResult(callId: string, content: unknown): void {
    const at = this.messages.findLastIndex((message) => message.role === "tool" && message.callId === callId);
    const old = this.messages[at];
    if (old?.role !== "tool") return;
    const next = { ...old, content };
    this.messages[at] = next;
    this.tokens += messageTokens(next) - messageTokens(old);
  }
}

function messageTokens(message: ModelMessage): number {
  switch (message.role) {
    case "system":
    case "user":
      return estimateTokens(message.content);
    case "assistant":
      return (
        estimateValueTokens(message.text) +
        estimateValueTokens(message.output) +
        estimateValueTokens(message.calls)
      );
    case "tool":
      return estimateValueTokens(message.content);
  }
}

/**
 * A remote runtime's call (`RuntimeSession.callRemote`, ids `remote.<n>`) as the history holds
 * it: no model reply asks for it, so it is folded apart from the model's calls.
 */
export interface RemoteCall {
  /** Its `tool_call` is recorded, with the arguments it goes out with: the message may have gone out. */
  started?: {
    readonly key: string;
    readonly address: string;
    attempt: number;
    readonly args?: Readonly<Record<string, unknown>>;
  };
  /** The approval a person was asked for. */
  asked?: string;
  /** The remote task that took the message, and its last recorded state. */
  task?: { readonly id: string; readonly context?: string; state: string };
  /** Its recorded outcome. */
  result?: { readonly ok: boolean; readonly result?: unknown; readonly error?: CallError };
  /** A tool use's result the provider reported is recorded (`harness_update`): its post_tool_call ran. */
  reported?: true;
}

/** The prefix of a remote runtime's call ids. */
export const REMOTE_CALL_PREFIX = "remote.";

export interface History {
  readonly started: JobEventData["job_started"];
  readonly conversation: Conversation;
  /** The system prompt recorded at the job's first claim; `undefined` before it. */
  system: string | undefined;
  /** Model calls made. */
  steps: number;
  /** Tokens the model calls used, prompt and completion. */
  tokensUsed: number;
  /** What the model calls cost in US dollars, summed over those with a price. */
  costUsd: number;
  /** Structured answers sent back for not matching the output schema. */
  rejectedOutputs: number;
  /** Child jobs started with oz.delegate. */
  children: number;
  readonly pending: Map<string, PendingCall>;
  /** A remote runtime's calls, by id. */
  readonly remote: Map<string, RemoteCall>;
  /** Answers to the questions a remote runtime asked (`RuntimeSession.ask`), by question id. */
  readonly remoteAnswers: Map<string, string>;
  /** Memory providers' recorded summaries, by call id, in order. */
  readonly summaries: Map<string, string[]>;
  /**
   * oz.delegate calls whose child's end came in (written by the child) and that the job has not
   * taken up yet: its post_tool_call has not run, and no model call has seen the result.
   */
  readonly childEnds: Map<string, ChildEnd>;
}

/** A delegate call's result as the child's end made it. */
export interface ChildEnd {
  readonly call: ModelCallRecord;
  readonly content: unknown;
}

/** The user message a job's input becomes: text as it is, structured input as JSON. */
export function inputMessage(input: unknown): string {
  return typeof input === "string" ? input : JSON.stringify(input);
}

/** Folds a job's events, in order, into the state a worker goes on from. */
export function replay(events: readonly JobEvent[]): History {
  const first = events[0];
  if (first?.kind !== "job_started") {
    throw new Error(
      `the job's history does not begin with job_started (it begins with ${first?.kind ?? "nothing"})`,
    );
  }
  const history: History = {
    started: first.data,
    conversation: new Conversation(),
    system: undefined,
    steps: 0,
    tokensUsed: 0,
    costUsd: 0,
    rejectedOutputs: 0,
    children: 0,
    pending: new Map(),
    remote: new Map(),
    remoteAnswers: new Map(),
    summaries: new Map(),
    childEnds: new Map(),
  };
  for (const entry of events) applyEvent(history, entry);
  return history;
}

/** Starts the conversation once the system prompt is known: the prompt, then the job's input. */
export function beginConversation(history: History, system: string, input?: unknown): void {
  history.system = system;
  history.conversation.add({ role: "system", content: system });
  history.conversation.add({ role: "user", content: inputMessage(input ?? history.started.input) });
}

/** Adds one event to the state: replay folds the history with it, a live run each event it writes. */
export function applyEvent(history: History, entry: NewEvent): void {
  const { conversation, pending } = history;
  const callId = (entry.data as { callId?: unknown }).callId;
  if (typeof callId === "string" && callId.startsWith(REMOTE_CALL_PREFIX)) {
    applyRemote(history, callId, entry);
    return;
  }
  switch (entry.kind) {
    case "context_assembled":
      beginConversation(history, entry.data.system, entry.data.input);
      return;
    case "model_call":
      history.childEnds.clear();
      history.steps = entry.data.step;
      history.tokensUsed += entry.data.usage.input + entry.data.usage.output;
      history.costUsd += entry.data.cost_usd ?? 0;
      conversation.add({
        role: "assistant",
        text: entry.data.text,
        calls: entry.data.calls,
        ...(entry.data.output === undefined ? {} : { output: entry.data.output }),
      });
      pending.clear();
      for (const call of entry.data.calls) pending.set(call.id, { call });
      return;
    case "mcp_sampling":
      // A server's sampling counts against the job's limits like its own model calls.
      history.tokensUsed += (entry.data.usage?.input ?? 0) + (entry.data.usage?.output ?? 0);
      history.costUsd += entry.data.cost_usd ?? 0;
      return;
    case "memory_summary": {
      history.tokensUsed += (entry.data.usage?.input ?? 0) + (entry.data.usage?.output ?? 0);
      history.costUsd += entry.data.cost_usd ?? 0;
      if (entry.data.text === undefined) return;
      const recorded = history.summaries.get(entry.data.callId) ?? [];
      recorded[entry.data.index - 1] = entry.data.text;
      history.summaries.set(entry.data.callId, recorded);
      return;
    }
    case "tool_call": {
      const call = pending.get(entry.data.callId);
      if (call !== undefined) {
        call.started = { key: entry.data.key, address: entry.data.address, attempt: entry.data.attempt };
      }
      return;
    }
    case "tool_call_retried": {
      const started = pending.get(entry.data.callId)?.started;
      if (started !== undefined) started.attempt = entry.data.attempt;
      return;
    }
    case "tool_result":
      // A delegate call's child ended, and the job took its result up (post_tool_call's rewrite).
      if (history.childEnds.delete(entry.data.callId)) {
        conversation.rewriteResult(
          entry.data.callId,
          entry.data.ok ? entry.data.result : { error: entry.data.error },
        );
        return;
      }
      settle(
        history,
        entry.data.callId,
        entry.data.ok ? entry.data.result : { error: entry.data.error },
        !entry.data.ok,
      );
      return;
    case "answer_received":
      settle(history, entry.data.callId, { answer: entry.data.answer }, false);
      return;
    case "elicitation_answered": {
      const call = pending.get(entry.data.callId);
      if (call !== undefined) {
        call.elicited = [
          ...(call.elicited ?? []),
          { message: entry.data.message, content: entry.data.content },
        ];
      }
      return;
    }
    case "approval_requested": {
      const call = pending.get(entry.data.callId);
      if (call !== undefined) call.asked = entry.data.approval;
      return;
    }
    case "child_job_started": {
      history.children += 1;
      const call = pending.get(entry.data.callId);
      if (call !== undefined) call.child = entry.data.job;
      return;
    }
    case "child_job_finished": {
      const { job, status, output, failure } = entry.data;
      const call = pending.get(entry.data.callId)?.call;
      const content = { job, status, output: output ?? null, failure: failure ?? null };
      settle(history, entry.data.callId, content, status !== "succeeded");
      if (call !== undefined) history.childEnds.set(entry.data.callId, { call, content });
      return;
    }
    case "output_rejected":
      history.rejectedOutputs += 1;
      conversation.add({ role: "user", content: rejectionMessage(entry.data.problems), rejected: true });
      return;
    case "user_message":
      conversation.add({ role: "user", content: entry.data.text });
      return;
    default:
      return;
  }
}

function applyRemote(history: History, callId: string, entry: NewEvent): void {
  const call = history.remote.get(callId) ?? {};
  history.remote.set(callId, call);
  switch (entry.kind) {
    case "tool_call":
      call.started = {
        key: entry.data.key,
        address: entry.data.address,
        attempt: entry.data.attempt,
        args: entry.data.args as Readonly<Record<string, unknown>>,
      };
      return;
    case "tool_call_retried":
      if (call.started !== undefined) call.started.attempt = entry.data.attempt;
      return;
    case "approval_requested":
      call.asked = entry.data.approval;
      return;
    case "remote_task":
      call.task = {
        id: entry.data.task,
        ...(entry.data.context === undefined ? {} : { context: entry.data.context }),
        state: entry.data.state,
      };
      return;
    case "tool_result":
      call.result = {
        ok: entry.data.ok,
        ...(entry.data.ok ? { result: entry.data.result } : { error: entry.data.error }),
      };
      return;
    case "harness_update":
      call.reported = true;
      return;
    case "answer_received":
      history.remote.delete(callId);
      history.remoteAnswers.set(callId, entry.data.answer);
      return;
    default:
      return;
  }
}

function settle(history: History, callId: string, content: unknown, isError: boolean): void {
  const call = history.pending.get(callId);
  if (call === undefined) return;
  history.pending.delete(callId);
  history.conversation.add({ role: "tool", callId, name: call.call.name, content, isError });
}

/** What the model is told when its structured answer does not match the output schema. */
export function rejectionMessage(problems: string): string {
  return `Your answer does not match the output schema: ${problems}. Answer again with output that matches it.`;
}
