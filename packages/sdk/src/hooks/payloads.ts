// What a hook handler receives and may return. Every handler gets one payload object, never
// positional arguments, so a field added later breaks no handler. Hooks that matter to
// governance have typed payloads; the rest get a generic one with the same common fields.
import type { ContextPart } from "../contracts/context-part.js";
import type { SurfaceAttachment, SurfaceEnvelope } from "../contracts/surface.js";
import type { HookName, ModifyingHookName } from "./catalogue.js";

/** Fields every payload carries: which hook fired, and where. */
export interface HookPayloadBase<H extends HookName = HookName> {
  readonly hook: H;
  readonly tenant: string;
  /** The job the hook fired in; absent only for a hook that fires before any job exists. */
  readonly jobId?: string;
  /** The job's agent or flow by address (`<plugin>/<agent>`). */
  readonly agent?: string;
}

/** A message of a model conversation, as hooks see it. */
export interface HookMessage {
  readonly role: "system" | "user" | "assistant" | "tool";
  readonly content: unknown;
}

/** A function as offered to a model. */
export interface FunctionDescription {
  /** The model-visible name, `<tool>__<function>`. */
  readonly name: string;
  /** `<plugin>/<tool>.<function>`. */
  readonly address: string;
  readonly description: string;
  readonly inputSchema: Readonly<Record<string, unknown>>;
}

/** A function call a model asked for. */
export interface ToolCallRequest {
  readonly callId: string;
  /** The model-visible name. */
  readonly name: string;
  readonly args: Readonly<Record<string, unknown>>;
}

export interface TokenUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
}

/** Model-call totals of one model. */
export interface ModelUsageTotals {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly modelCalls: number;
  /** US dollars the provider reported for the calls; 0 where it reported none. */
  readonly costUsd: number;
}

/** Model-call totals, overall and by `provider:model` (to price each model apart). */
export interface UsageTotals extends ModelUsageTotals {
  readonly byModel: Readonly<Record<string, ModelUsageTotals>>;
}

export interface UsageQuery {
  /** Count calls from this time on, in epoch milliseconds, rounded down to the hour totals are kept by. */
  readonly since: number;
  /** Only one agent's calls, by address (`<plugin>/<agent>`). */
  readonly agent?: string;
}

/**
 * What a budget reads before a model call: the job's own calls so far, and the tenant's over
 * any period. Both count recorded calls only, never the one about to be made.
 */
export interface UsageView {
  readonly job: UsageTotals;
  tenant(query: UsageQuery): Promise<UsageTotals>;
}

export interface ModelResponse {
  readonly text?: string;
  readonly toolCalls: readonly ToolCallRequest[];
  /** A structured answer, for an agent with an output schema. */
  readonly output?: unknown;
  readonly finishReason: string;
  readonly usage?: TokenUsage;
}

export interface PreExecutionPayload extends HookPayloadBase<"pre_execution"> {
  readonly kind: "agent" | "flow";
  /** The agent or flow by address. */
  readonly target: string;
  readonly input: unknown;
  readonly parentJobId?: string;
}

export interface PostExecutionPayload extends HookPayloadBase<"post_execution"> {
  readonly status: "succeeded" | "failed" | "cancelled";
  readonly output?: unknown;
  readonly failure: { readonly kind: string; readonly message: string } | null;
}

export interface PreLlmCallPayload extends HookPayloadBase<"pre_llm_call"> {
  /** The model step of the job, from 1. */
  readonly step: number;
  /** `provider:model`. */
  readonly model: string;
  readonly messages: readonly HookMessage[];
  readonly tools: readonly FunctionDescription[];
  readonly settings: Readonly<Record<string, unknown>>;
  readonly estimatedInputTokens?: number;
  /**
   * What the call is expected to cost in US dollars, when the runtime knows it ahead: a remote
   * agent's task, at its `harness.task_usd`. A budget counts it in place of a price for `model`.
   */
  readonly estimatedCostUsd?: number;
  /** Usage so far, for budgets: the job's, and the tenant's by period. */
  readonly usage?: UsageView;
}

export interface PostLlmCallPayload extends HookPayloadBase<"post_llm_call"> {
  readonly step: number;
  readonly model: string;
  readonly response: ModelResponse;
}

/** Which function a call is for, and the call's identity. */
export interface ToolCallFields {
  readonly callId: string;
  /** `<plugin>/<tool>.<function>`. */
  readonly address: string;
  readonly tool: string;
  readonly function: string;
  readonly args: Readonly<Record<string, unknown>>;
}

export interface PreToolCallPayload extends HookPayloadBase<"pre_tool_call">, ToolCallFields {
  readonly idempotencyKey: string;
}

export interface PostToolCallPayload extends HookPayloadBase<"post_tool_call">, ToolCallFields {
  readonly result: unknown;
  /** Set when the function failed; `result` is then undefined. */
  readonly error?: { readonly code: string; readonly message: string };
  readonly durationMs: number;
}

export interface CollectToolsPayload extends HookPayloadBase<"collect_tools"> {
  readonly tools: readonly FunctionDescription[];
}

export interface ExecuteToolPayload extends HookPayloadBase<"execute_tool">, ToolCallFields {}

/** A section of the system prompt: a start-up context part that was kept. */
export interface PromptSection {
  /** The part it comes from, when it does; a section a handler adds has none. */
  readonly partId?: string;
  readonly source: string;
  readonly sectionId?: string;
  readonly content: string;
}

export interface PrePromptBuildPayload extends HookPayloadBase<"pre_prompt_build"> {
  /** The sections in order; the prompt is their contents joined by blank lines. */
  readonly sections: readonly PromptSection[];
}

export interface PostPromptBuildPayload extends HookPayloadBase<"post_prompt_build"> {
  readonly prompt: string;
}

export interface PreAgentHandoffPayload extends HookPayloadBase<"pre_agent_handoff"> {
  /** The agent handing off, by address. */
  readonly from: string;
  /** The agent taking over, by address. */
  readonly to: string;
  readonly input: unknown;
  readonly via: "delegate" | "flow";
}

export interface PostAgentHandoffPayload extends HookPayloadBase<"post_agent_handoff"> {
  readonly from: string;
  readonly to: string;
  /** The child job the other agent runs in. */
  readonly childJobId: string;
}

/** The events a checkpoint appends to the job's history. */
export interface CheckpointPayload<H extends "on_pre_checkpoint" | "on_post_checkpoint">
  extends HookPayloadBase<H> {
  readonly events: readonly { readonly kind: string; readonly data: unknown }[];
}

/** A job taken up again from its history: after a wait, or from a worker that stopped. */
export interface RestorePayload<H extends "on_pre_restore" | "on_post_restore"> extends HookPayloadBase<H> {
  /** The claims of the job in a row since it last waited, this one included (1 after a wait). */
  readonly attempt: number;
  /** Model calls the job made before. */
  readonly steps: number;
}

export interface PreContextAssemblyPayload extends HookPayloadBase<"pre_context_assembly"> {
  readonly parts: readonly ContextPart[];
  readonly tokenBudget?: number;
}

export interface PostContextAssemblyPayload extends HookPayloadBase<"post_context_assembly"> {
  readonly retained: readonly ContextPart[];
  readonly evicted: readonly ContextPart[];
}

export interface CollectContextPayload extends HookPayloadBase<"collect_context"> {
  readonly parts: readonly ContextPart[];
}

export interface OnErrorPayload extends HookPayloadBase<"on_error"> {
  readonly error: { readonly code: string; readonly message: string };
  /** Where it failed: a step kind (`model_call`, `tool_call`) or the hook whose handler failed. */
  readonly where: string;
  /** The plugin whose code failed, when it was a plugin's. */
  readonly plugin?: string;
}

export interface UserInputPayload extends HookPayloadBase<"user_input"> {
  readonly content: string;
  readonly attachments: readonly SurfaceAttachment[];
  /** The surface it came from (`cli`, `slack`, `web`, …). */
  readonly surface?: string;
  readonly senderId?: string;
}

export interface UserOutputPayload extends HookPayloadBase<"user_output"> {
  readonly content: unknown;
  readonly surface?: string;
}

export interface PreApprovalPayload extends HookPayloadBase<"pre_approval">, ToolCallFields {
  /** The tenant's `ask` rule that matched the call. */
  readonly rule: string;
  /** What the approver reads. */
  readonly summary: string;
  /** Who may answer; empty means the tenant's admins. */
  readonly approvers: readonly string[];
}

export interface PreChildJobPayload extends HookPayloadBase<"pre_child_job"> {
  /** `delegate` for oz.delegate, `flow` for a flow step that runs an agent or flow. */
  readonly via: "delegate" | "flow";
  /** The child's agent or flow by address. */
  readonly target: string;
  readonly input: unknown;
}

export interface OnKillSwitchPayload extends HookPayloadBase<"on_kill_switch"> {
  readonly switch: { readonly kind: "agent" | "tool"; readonly address: string };
  readonly reason?: string;
}

/** A memory entry as the memory hooks see it: which provider keeps it, and what it holds. */
export interface MemoryStoreFields {
  /** The provider by address: `<plugin>/<memory name>`. */
  readonly provider: string;
  /** The function call the store was made in, when a tool stored it during a job. */
  readonly callId?: string;
}

export interface PreMemoryStorePayload extends HookPayloadBase<"pre_memory_store">, MemoryStoreFields {
  readonly entry: {
    readonly key?: string;
    readonly content: string;
    readonly metadata?: Readonly<Record<string, unknown>>;
  };
}

export interface PostMemoryStorePayload extends HookPayloadBase<"post_memory_store">, MemoryStoreFields {
  /** The entry as the provider stored it, with its key. */
  readonly entry: {
    readonly key: string;
    readonly content: string;
    readonly metadata: Readonly<Record<string, unknown>>;
  };
}

/**
 * A message from one agent to another: a delegated child's input (`delegate`, out of the
 * parent) and its answer (`delegate`, back in), or a message to or from an agent over A2A.
 */
export interface AgentCommunicationFields {
  /** The sending agent: an address (`<plugin>/<agent>`), or an outside agent's card URL or name. */
  readonly from: string;
  /** The receiving agent, likewise. */
  readonly to: string;
  readonly via: "delegate" | "a2a";
  /** `request`: a task given to the other agent; `answer`: what it gives back. */
  readonly kind: "request" | "answer";
  readonly message: unknown;
}

export interface PreAgentCommunicationPayload
  extends HookPayloadBase<"pre_agent_communication">,
    AgentCommunicationFields {}

export interface PostAgentCommunicationPayload
  extends HookPayloadBase<"post_agent_communication">,
    AgentCommunicationFields {}

/** An inbound event as hooks see it: a channel's message, every field of its SurfaceEnvelope. */
export type SensorEvent = Pick<
  SurfaceEnvelope,
  "surfaceType" | "channelId" | "senderId" | "threadId" | "content" | "attachments" | "metadata"
>;

/**
 * An event from outside that oz0 is about to handle, or handled: a routine's signed webhook
 * (`sensor: "webhook"`) or a channel's verified message (`sensor: "channel"`).
 */
export type SensorEventFields =
  | {
      readonly sensor: "webhook";
      /** Where it came in: `routine:<plugin>/<routine>`. */
      readonly source: string;
      /** The webhook's body, which becomes the routine's job's input. */
      readonly event: unknown;
    }
  | {
      readonly sensor: "channel";
      /** Where it came in: the channel, `<plugin>/<channel>`. */
      readonly source: string;
      /** The message; a handler may return a changed one (checked as any envelope is). */
      readonly event: SensorEvent;
    };

export type PreSensorEventPayload = HookPayloadBase<"pre_sensor_event"> & SensorEventFields;

export type PostSensorEventPayload = HookPayloadBase<"post_sensor_event"> &
  SensorEventFields & {
    /**
     * What handling it did: a routine's fire outcome (`started`, `queued`, `skipped`, …), or a
     * channel's `accepted` (stored, to be answered), `duplicate` (stored before) or `refused`.
     */
    readonly outcome: string;
    /** The job it started, when it started one. */
    readonly job?: string;
  };

/**
 * A session's state read or written: a chat's (its conversation, kept as the chat job's
 * history), or a channel thread's (the conversation its messages carry on).
 */
export type SessionAccessFields =
  | {
      /** `chat` for `oz0 chat`, the console's and the API's chats. */
      readonly kind: "chat";
      /** The session: the chat's job ID. */
      readonly session: string;
      /** `read`: the session is taken up for its next turn; `write`: a person's message is added, or the session ended. */
      readonly access: "read" | "write";
      /** What a write adds: the person's message, or `{ end: true }`; a handler may change it. */
      readonly entry?: unknown;
      readonly by?: string;
    }
  | {
      readonly kind: "channel";
      /** The session: a channel thread's key, `["<channelId>","<threadId>"]` as JSON. */
      readonly session: string;
      readonly surface: string;
      /** The channel, `<plugin>/<channel>`. */
      readonly channel: string;
      readonly channelId: string;
      readonly threadId: string;
      readonly senderId: string;
      /** The agent the session is with, `<plugin>/<agent>`; on `open`, a handler may send it to another. */
      readonly target: string;
      /** `open`: its first message starts the chat; `continue`: the next turn of job `job`. */
      readonly access: "open" | "continue";
      /** The thread's chat job, once opened or continued. */
      readonly job?: string;
    };

export type PreSessionAccessPayload = HookPayloadBase<"pre_session_access"> & SessionAccessFields;

export type PostSessionAccessPayload = HookPayloadBase<"post_session_access"> & SessionAccessFields;

/** A change to the tenant's object model: a versioned record (`ctx.records`) written or removed. */
export interface ObjectModelEventPayload extends HookPayloadBase<"object_model_event"> {
  readonly action: "put" | "delete" | "erase" | "expire";
  /** The record's plugin, kind and key; an erasure names its subject instead of a key. */
  readonly plugin?: string;
  readonly kind?: string;
  readonly key?: string;
  readonly version?: number;
  readonly subject?: string;
  /** How many versions the change removed, for a removal. */
  readonly removed?: number;
}

/** The typed payloads; a hook without an entry gets `GenericHookPayload`. */
export interface HookPayloadMap {
  pre_execution: PreExecutionPayload;
  post_execution: PostExecutionPayload;
  pre_llm_call: PreLlmCallPayload;
  post_llm_call: PostLlmCallPayload;
  pre_tool_call: PreToolCallPayload;
  post_tool_call: PostToolCallPayload;
  collect_tools: CollectToolsPayload;
  execute_tool: ExecuteToolPayload;
  pre_context_assembly: PreContextAssemblyPayload;
  post_context_assembly: PostContextAssemblyPayload;
  collect_context: CollectContextPayload;
  on_error: OnErrorPayload;
  user_input: UserInputPayload;
  user_output: UserOutputPayload;
  pre_approval: PreApprovalPayload;
  pre_child_job: PreChildJobPayload;
  on_kill_switch: OnKillSwitchPayload;
  pre_prompt_build: PrePromptBuildPayload;
  post_prompt_build: PostPromptBuildPayload;
  pre_agent_handoff: PreAgentHandoffPayload;
  post_agent_handoff: PostAgentHandoffPayload;
  on_pre_checkpoint: CheckpointPayload<"on_pre_checkpoint">;
  on_post_checkpoint: CheckpointPayload<"on_post_checkpoint">;
  on_pre_restore: RestorePayload<"on_pre_restore">;
  on_post_restore: RestorePayload<"on_post_restore">;
  pre_memory_store: PreMemoryStorePayload;
  post_memory_store: PostMemoryStorePayload;
  pre_agent_communication: PreAgentCommunicationPayload;
  post_agent_communication: PostAgentCommunicationPayload;
  pre_session_access: PreSessionAccessPayload;
  post_session_access: PostSessionAccessPayload;
  object_model_event: ObjectModelEventPayload;
  pre_sensor_event: PreSensorEventPayload;
  post_sensor_event: PostSensorEventPayload;
}

export type GenericHookPayload<H extends HookName = HookName> = HookPayloadBase<H> & {
  readonly [field: string]: unknown;
};

export type HookPayload<H extends HookName> = H extends keyof HookPayloadMap
  ? HookPayloadMap[H]
  : GenericHookPayload<H>;

/** The fields a handler of a modifying hook may change; the runtime ignores any other. */
export interface HookChangeMap {
  pre_execution: Pick<PreExecutionPayload, "input">;
  pre_llm_call: Pick<PreLlmCallPayload, "model" | "messages" | "tools" | "settings">;
  post_llm_call: Pick<PostLlmCallPayload, "response">;
  pre_tool_call: Pick<PreToolCallPayload, "args">;
  post_tool_call: Pick<PostToolCallPayload, "result">;
  pre_context_assembly: Pick<PreContextAssemblyPayload, "parts">;
  user_input: Pick<UserInputPayload, "content" | "attachments">;
  user_output: Pick<UserOutputPayload, "content">;
  pre_approval: Pick<PreApprovalPayload, "summary" | "approvers">;
  pre_child_job: Pick<PreChildJobPayload, "input">;
  pre_prompt_build: Pick<PrePromptBuildPayload, "sections">;
  post_prompt_build: Pick<PostPromptBuildPayload, "prompt">;
  pre_agent_handoff: Pick<PreAgentHandoffPayload, "input">;
  pre_memory_store: Pick<PreMemoryStorePayload, "entry">;
  pre_agent_communication: Pick<PreAgentCommunicationPayload, "message">;
  /** `entry` for a chat's write; `target` for a channel thread being opened. */
  pre_session_access: { readonly entry?: unknown; readonly target?: string };
  pre_sensor_event: { readonly event: unknown };
}

export type HookChanges<H extends HookName> = H extends keyof HookChangeMap
  ? Partial<HookChangeMap[H]>
  : Readonly<Record<string, unknown>>;

/**
 * What a handler returns: on a modifying hook, the fields it changes (or nothing to keep the
 * payload); elsewhere nothing. To refuse on a blocking hook, a handler throws PolicyViolation.
 */
export type HookResult<H extends HookName> = H extends ModifyingHookName
  ? HookChanges<H> | undefined
  : undefined;

/** A handler; one that only checks (and throws PolicyViolation to refuse) may return nothing. */
export type HookHandler<H extends HookName> = (
  payload: HookPayload<H>,
  // biome-ignore lint/suspicious/noConfusingVoidType: a handler without a return statement is typed void
) => HookResult<H> | void | Promise<HookResult<H> | void>;

/** Handlers by hook name, as a HookSpec's `build` returns them. */
export type HookHandlers = { readonly [H in HookName]?: HookHandler<H> };
