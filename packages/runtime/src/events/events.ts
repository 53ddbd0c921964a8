// A job's history: one ordered, append-only stream of events, each recording what its step
// added and never the conversation again, so history grows by about the same bytes per step
// however long the job runs. The CLI trace, the API's stream and the console are views of it.
import type { Card } from "../cards/index.js";
import type { ArgumentChanger, CallError } from "./calls.js";
import type { GovernanceEventData } from "./governance.js";

/** How a job ended when it did not succeed: a platform failure kind or one the agent declared. */
/** What a routine's job may do, recorded in its job_started: every claim reads it afresh. */
export interface RoutineGrant {
  /** The routine's address: `<plugin>/<name>`, or a tenant-level routine's bare name. */
  readonly name: string;
  /** The functions the job may call, as the agent's own plugin reads them; the agent's when left out. */
  readonly tools?: readonly string[];
  readonly limits?: {
    readonly max_turns?: number;
    readonly max_tokens?: number;
    readonly wall_seconds?: number;
    readonly max_cost_usd?: number;
  };
}

export interface JobFailure {
  readonly kind: string;
  readonly message: string;
  /** The Oz0Error code behind the failure, when one was (`TOOL_CLASH`, `UNPLANNED_MODEL_CALL`). */
  readonly code?: string;
  /**
   * For a failure the agent ended the job with (`oz.fail`): its kind's flags as the agent
   * declares them, all false for an undeclared kind. Callers branch on them: whether trying
   * again may help, whether part of the work was done, whether a person must act.
   */
  readonly retryable?: boolean;
  readonly partial?: boolean;
  readonly person?: boolean;
}

/** What a `waiting` job waits for. */
export type WaitingFor =
  | {
      readonly kind: "answer";
      readonly callId: string;
      readonly question: string;
      /** Set when an MCP server's elicitation asked: the answer fills its form, and the call runs again. */
      readonly elicitation?: { readonly tool: string; readonly schema: Readonly<Record<string, unknown>> };
    }
  | { readonly kind: "chat" }
  | { readonly kind: "child"; readonly callId: string; readonly job: string }
  | { readonly kind: "approval"; readonly callId: string; readonly approval: string };

/** What decided a call a person was asked about, and the approval that asked. */
export interface CallDecider {
  readonly by: "approval" | "tool-policy" | "kill-switch";
  readonly approval: string;
}

export interface ModelCallRecord {
  readonly id: string;
  /** The model-visible name the model called. */
  readonly name: string;
  readonly args: unknown;
  /** The id the model gave the call on the wire, when it gave one (OpenTelemetry's `gen_ai.tool.call.id`). */
  readonly wireId?: string;
}

/** The data of each event kind; the hook bus adds governance_checked, governance_denied and hook_error. */
export interface JobEventData extends GovernanceEventData {
  /** The job exists: its agent by address, what it was given, and who started it. */
  job_started: {
    readonly agent: string;
    readonly mode: "run" | "chat";
    readonly input: unknown;
    readonly parent?: string;
    readonly by?: string;
    /** A routine's job: the routine, and the tools and limits it narrows the agent's to. */
    readonly routine?: RoutineGrant;
    /** The agent runtime its `runtime:` selected when the job started (`oz0`: oz0's own loop). */
    readonly runtime?: string;
    /** `a2a`: the input is a message from an outside agent over A2A (oz0's A2A server), whose answer goes back to it. */
    readonly via?: "a2a";
  };
  /** A worker took the job: every claim counts an attempt. */
  job_claimed: { readonly attempt: number; readonly node: string };
  /** One part of the start-up context, kept or left out (spec: context_part_contributed). */
  context_part_contributed: {
    /** The agent whose context it is, by address. */
    readonly agent_id: string;
    /** When the part was assessed, in seconds since the epoch (the spec's `timestamp`). */
    readonly timestamp: number;
    readonly part_id: string;
    readonly source: string;
    readonly section_id: string;
    readonly mechanism: string;
    /** What brought the part in, and what kind of thing that is (`agent`, `plugin`, `tool`, `hook`). */
    readonly cause?: string;
    readonly cause_type?: string;
    readonly token_estimate: number;
    readonly retained: boolean;
    readonly eviction_reason?: string;
  };
  /** The system prompt the start-up context came to, recorded once so a resumed job reads the same. */
  context_assembled: {
    readonly system: string;
    readonly tokens: number;
    readonly functions: readonly string[];
    /** The job's input as pre_execution and user_input handlers rewrote it, when they did. */
    readonly input?: unknown;
  };
  /** A function the agent lists that the model is not offered, and why. */
  function_left_out: {
    readonly name: string;
    readonly address: string;
    readonly reason: string;
    readonly length?: number;
    readonly limit?: number;
  };
  /** One model call and the reply it got; the calls carry the ids the tool steps use. */
  model_call: {
    readonly step: number;
    /** The agent runtime whose loop took the step (`oz0`: oz0's own); its calls' ids begin with the step. */
    readonly runtime?: string;
    readonly model: string;
    /** The node whose worker took the step (its `job_claimed` names the same one). */
    readonly node?: string;
    readonly text?: string;
    readonly calls: readonly ModelCallRecord[];
    readonly output?: unknown;
    /** Tokens of the prompt (`cached` of them read from the provider's cache) and of the reply. */
    readonly usage: { readonly input: number; readonly output: number; readonly cached?: number };
    /** What the call cost in US dollars, from the tenant's price table; left out when no price is set. */
    readonly cost_usd?: number;
    readonly ms: number;
  };
  model_warning: { readonly message: string };
  /** A function call starts; `key` is the idempotency key every attempt of it gets. */
  tool_call: {
    readonly callId: string;
    readonly name: string;
    readonly address: string;
    readonly key: string;
    readonly attempt: number;
    /**
     * For a call a person was asked about, what decided it: their approval or denial
     * (`approval`), or a deny rule or kill switch set since, which stops even an approved call.
     */
    readonly decided?: CallDecider;
    /**
     * The arguments the function runs with: the model's, as pre_tool_call hooks left them (for
     * a call refused before it ran, the ones it was asked with).
     */
    readonly args?: unknown;
    /** The hook handlers that changed the model's arguments, when any did. */
    readonly changedBy?: readonly ArgumentChanger[];
  };
  /** A call that was in flight when its worker died runs again, with the same key. */
  tool_call_retried: {
    readonly callId: string;
    readonly attempt: number;
    /** The arguments this attempt runs with, and who changed them, as on `tool_call`. */
    readonly args?: unknown;
    readonly changedBy?: readonly ArgumentChanger[];
  };
  tool_result: {
    readonly callId: string;
    readonly ok: boolean;
    readonly result?: unknown;
    readonly error?: CallError;
    readonly ms: number;
  };
  /** A progress notification the MCP server behind a call sent while it ran (`tool`: the function by address). */
  mcp_progress: {
    readonly callId: string;
    readonly tool: string;
    readonly progress: number;
    readonly total?: number;
    readonly message?: string;
  };
  /** A log message the MCP server behind a call sent while it ran. */
  mcp_log: {
    readonly callId: string;
    readonly tool: string;
    readonly level: string;
    readonly logger?: string;
    readonly data: unknown;
  };
  /**
   * A server's sampling/createMessage during a call, served by the job's model and counted in
   * its usage like a model call; `refused` when the job's hooks refused it.
   */
  mcp_sampling: {
    readonly callId: string;
    readonly tool: string;
    readonly model: string;
    readonly text?: string;
    readonly usage?: { readonly input: number; readonly output: number; readonly cached?: number };
    readonly cost_usd?: number;
    readonly ms?: number;
    readonly refused?: string;
  };
  /**
   * A memory provider's summary during call `callId` (`MemoryContext.summarizer`), made by the
   * job's model and counted in its usage like a model call; the `index`th of the call's attempts
   * in order, so a call run again gets the recorded summary. `refused` when the job's hooks
   * refused the model call.
   */
  memory_summary: {
    readonly callId: string;
    readonly index: number;
    readonly model: string;
    readonly text?: string;
    readonly usage?: { readonly input: number; readonly output: number; readonly cached?: number };
    readonly cost_usd?: number;
    readonly ms?: number;
    readonly refused?: string;
  };
  /**
   * A remote agent took the message of call `callId` (a remote runtime's call, `RuntimeSession.callRemote`)
   * as task `task`, or the task moved to `state`: the first is recorded before the run waits on the
   * task, so a resumed run follows that task and never sends the message again.
   */
  remote_task: {
    readonly callId: string;
    readonly task: string;
    readonly context?: string;
    readonly state: string;
    readonly text?: string;
  };
  /**
   * What a harness's session reported (runtime: harness:<name>): a message it streamed, a tool
   * call of its own and how it went, a plan. Its steps and calls through oz0 are model_call and
   * tool_call events like any runtime's; these show the rest of what it did.
   */
  harness_update: {
    readonly runtime: string;
    readonly update: string;
    readonly data: unknown;
    /** The remote call (a `tool_use`) whose result the update reports: its post_tool_call ran. */
    readonly callId?: string;
  };
  /** A structured answer that does not match the output schema went back to the model. */
  output_rejected: { readonly step: number; readonly problems: string };
  job_waiting: { readonly for: WaitingFor };
  /** A person's answer to an `oz.ask_user` question. */
  answer_received: { readonly callId: string; readonly answer: string; readonly by: string };
  /** An MCP server asked a person to fill a form (elicitation) during call `callId`: the call stopped, and the job waits. */
  mcp_elicitation: {
    readonly callId: string;
    readonly tool: string;
    readonly message: string;
    readonly requestedSchema: Readonly<Record<string, unknown>>;
  };
  /** A person's answer to an elicitation: the form's content, given to the server when the call runs again. */
  elicitation_answered: {
    readonly callId: string;
    readonly message: string;
    readonly content: Readonly<Record<string, unknown>>;
    readonly by: string;
  };
  /** A call an ask rule of the tenant's tool policy holds until a person decides (oz0 approval). */
  approval_requested: {
    readonly approval: string;
    readonly callId: string;
    readonly address: string;
    readonly name: string;
    readonly args: unknown;
    readonly rule: string;
  };
  /** A person's decision on a held call; a denied call never runs. */
  approval_decided: {
    readonly approval: string;
    readonly callId: string;
    readonly decision: "approved" | "denied";
    readonly by: string;
    readonly reason?: string;
  };
  /** A person's next message in a chat. */
  user_message: { readonly text: string; readonly by: string };
  child_job_started: { readonly callId: string; readonly job: string; readonly agent: string };
  child_job_finished: {
    readonly callId: string;
    readonly job: string;
    readonly status: string;
    readonly output?: unknown;
    readonly failure?: JobFailure | null;
  };
  /** The answer, and the card it is drawn as (from the output schema; text for a text answer). */
  job_succeeded: { readonly output: unknown; readonly card?: Card };
  job_failed: JobFailure;
  job_cancelled: { readonly by: string };
  /** The job kept stopping its worker and is set aside (dead-lettered) instead of looping. */
  job_dead: JobFailure & { readonly attempts: number };
  /** An operator queued a dead-lettered job again (`oz0 job retry`): it goes on from its history. */
  job_retried: { readonly by: string };
}

export type JobEventKind = keyof JobEventData;

/** An event to append: the store gives it its `seq` and the database's time. */
export type NewEvent = {
  [K in JobEventKind]: { readonly kind: K; readonly data: JobEventData[K] };
}[JobEventKind];

/** An event as stored. */
export type JobEvent = NewEvent & { readonly seq: number; readonly at: number };

/** Every kind, in the order a job's life usually meets them. */
export const JOB_EVENT_KINDS: readonly JobEventKind[] = [
  "job_started",
  "job_claimed",
  "context_part_contributed",
  "context_assembled",
  "function_left_out",
  "governance_checked",
  "governance_denied",
  "hook_error",
  "model_call",
  "model_warning",
  "tool_call",
  "tool_call_retried",
  "tool_result",
  "mcp_progress",
  "mcp_log",
  "mcp_sampling",
  "memory_summary",
  "remote_task",
  "harness_update",
  "output_rejected",
  "job_waiting",
  "answer_received",
  "mcp_elicitation",
  "elicitation_answered",
  "approval_requested",
  "approval_decided",
  "user_message",
  "child_job_started",
  "child_job_finished",
  "job_succeeded",
  "job_failed",
  "job_cancelled",
  "job_dead",
  "job_retried",
];

/** Builds an event with its data checked against its kind. */
export function event<K extends JobEventKind>(kind: K, data: JobEventData[K]): NewEvent {
  return { kind, data } as NewEvent;
}
