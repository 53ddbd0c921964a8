// The seam between oz0's core and an agent runtime: what a runtime implements (`AgentRuntime`)
// and what the core gives it for one run of a job (`RuntimeSession`). The core keeps
// everything that governs a job: policy, approvals and kill switches, hooks, usage, telemetry,
// the lease and the history. A runtime only decides what to ask the model and which of its
// calls to run, so a loop that is not oz0's (an SDK that owns its agent loop) runs governed
// by plugging its model and function calls into `callModel` and `callFunction`.
import type { HarnessSpec, JsonSchemaObject } from "@oz0/sdk";
import type { ModelCall, ModelFunction, ModelMessage, ModelUsage } from "../models/index.js";

/**
 * One implementation of an agent's loop, selected by the agent's `runtime:`.
 *
 * - **start** and **resume** are one call, `run`: the core replays the job's history first, so
 *   a run of a new job and of one taken up after a crash or a wait look the same to it;
 *   `session.recordedSteps` says how many model calls are recorded already.
 * - **step**: each model call (`callModel`) and function call (`callFunction`) is recorded in
 *   the job's history before its result is returned; on a resumed run a recorded one is
 *   returned from the history and never made again. A runtime that takes oz0's own steps calls
 *   `session.step()` instead.
 * - **wait**: an approval, a question (`oz.ask_user`) or a child job (`oz.delegate`) parks the
 *   job inside `callFunction`, which then throws a `RuntimeStop`; the runtime lets it propagate.
 *   When the job is queued again, `run` is called anew and replays to the same point.
 * - **remote**: a runtime whose loop runs outside oz0 (a remote agent) makes no model calls; each
 *   exchange with it is one `callRemote`, governed and recorded like a function call (its
 *   `tool_call` before the message goes out, the remote task's id as `remote_task` before the run
 *   waits on it, its `tool_result` after), so a resumed run follows the recorded task and never
 *   sends a message twice. `checkpoint` is the gate between two polls, `ask` a person's question.
 * - **cancel**: `session.signal` aborts when the job is cancelled, runs out of time or the
 *   worker lost its lease; `cancel`, when given, is told too, to let go of what the runtime
 *   holds outside the process (a harness's process, a remote task).
 */
export interface AgentRuntime {
  /** The runtime's name: every step event of its runs records it (`runtime`), and the trace shows it. */
  readonly name: string;
  /** The values of an agent's `runtime:` that select it (the default also takes an agent without one). */
  readonly selects: readonly string[];
  /**
   * The model providers it runs on, by provider type (`openai`, `openai-chat`, …), and why only
   * those; left out, any. Lint, install and each claim refuse an agent whose model another serves.
   */
  readonly models?: { readonly types: readonly string[]; readonly why: string } | undefined;
  /** Takes the job, from its history, to its next stop: it ends, or waits. */
  run(session: RuntimeSession): Promise<void>;
  cancel?(session: RuntimeSession, reason: "cancel" | "timeout" | "lost"): void;
  /**
   * What is wrong with an agent's `harness:` options for this runtime, one sentence each (an
   * empty list: nothing). Lint reports each (OZ-S036) and install refuses the agent, as a run would.
   */
  optionProblems?(harness: Readonly<Record<string, unknown>> | undefined): readonly string[];
  /**
   * For a runtime that reads the agent's `model:` in its own way (a provider's remote agent runs
   * on the model it names): what is wrong with it, or undefined. Lint reports it (OZ-S045) and
   * install refuses the agent, as a run would; a remote runtime without it never reads `model:`.
   */
  modelProblem?(model: AgentModel | undefined): string | undefined;
  /**
   * For a remote runtime: the functions its `callRemote` calls are governed as, under the
   * agent's address (`<plugin>/<agent>.<function>`), which tool policy rules and the kill switch
   * of the tool `<plugin>/<agent>` may name.
   */
  readonly remoteFunctions?: readonly string[];
}

/** An agent's `model:` as its definition has it. */
export interface AgentModel {
  readonly use: string;
  readonly options?: unknown;
  readonly script?: unknown;
}

/** A model request a runtime makes: its own conversation, and the functions it offers (the agent's when left out). */
export interface RuntimeModelRequest {
  readonly messages: readonly ModelMessage[];
  readonly functions?: readonly ModelFunction[] | undefined;
}

/** A model reply as the job records it: its calls carry the ids `callFunction` takes. */
export interface RuntimeModelReply {
  /** The model step, from 1. */
  readonly step: number;
  readonly text?: string | undefined;
  readonly calls: readonly ModelCall[];
  readonly output?: unknown;
  /** The call's tokens; a replayed reply's are the recorded ones' sum, already counted. */
  readonly usage?: ModelUsage | undefined;
  /** Whether the reply came from the history rather than from the model. */
  readonly replayed: boolean;
}

/** A function call's outcome as the model is told it. */
export type RuntimeCallResult =
  | { readonly ok: true; readonly result: unknown }
  | { readonly ok: false; readonly error: { readonly code: string; readonly message: string } };

/**
 * One exchange with an agent outside oz0, governed as the function `<plugin>/<agent>.<function>`
 * of the job's agent (deny and ask rules and a tool kill switch on that address apply).
 */
export interface RuntimeRemoteCall {
  /** The call's id, `remote.<n>`: the same on every run, so a resumed run finds its record. */
  readonly id: string;
  readonly function: string;
  readonly description: string;
  readonly args: Readonly<Record<string, unknown>>;
  /** Set when every such call waits for a person's approval whatever the policy allows (a deny rule still refuses): the rule's words. */
  readonly requiresApproval?: string | undefined;
  /**
   * What the call is: `message` (the default), an exchange with the agent outside oz0, which
   * passes `pre_agent_communication`; `tool_use`, the go-ahead for a tool the remote session
   * runs at its provider with its own input (`args`), which passes `pre_tool_call` (a refusal
   * denies it; a handler may not change the arguments) and `execute_tool`, and whose result the
   * runtime reports with `toolUseResult`.
   */
  readonly kind?: "message" | "tool_use" | undefined;
}

/** What a tool use the provider ran (a `tool_use` remote call that went ahead) gave back. */
export type RuntimeToolUseResult =
  | { readonly ok: true; readonly result: unknown }
  | { readonly ok: false; readonly error: { readonly code: string; readonly message: string } };

/** A remote task as the job's history records it. */
export interface RuntimeRemoteTask {
  readonly id: string;
  readonly context?: string | undefined;
  readonly state: string;
}

/** What `callRemote` gives the runtime's sender: what the history holds of the call, and how to record its task. */
export interface RuntimeRemoteSend {
  /** The task the history holds for the call: follow it, never send the message again. */
  readonly task: RuntimeRemoteTask | undefined;
  /** True when an earlier run recorded the call as going out but no task: the message may have been sent. */
  readonly mayHaveSent: boolean;
  /** The arguments to send: the call's, as the job's pre_agent_communication handlers left them (and recorded); a tool use's own. */
  readonly args: Readonly<Record<string, unknown>>;
  /** Records the task (or its new state) in the job's history; call it before waiting on the task. */
  record(task: RuntimeRemoteTask & { readonly text?: string | undefined }): Promise<void>;
}

/**
 * A step a runtime's own model took, outside oz0 (a harness's): recorded as the job's next
 * model call, with what the runtime reports of its usage, so limits and budgets count it.
 */
export interface RuntimeForeignStep {
  /** The model as the runtime names it (`harness:<name>` when it does not say). */
  readonly model: string;
  readonly text?: string | undefined;
  /** The calls the step makes, by model-visible name; each runs with `callFunction`. */
  readonly calls: readonly { readonly name: string; readonly args: unknown }[];
  readonly usage?: { readonly input: number; readonly output: number } | undefined;
  readonly costUsd?: number | undefined;
  /**
   * Set for a step recorded before its work starts, at what it may cost (`costUsd`: a remote
   * task's `harness.task_usd`): besides a model call's checks, the job's cost ceiling is checked
   * with that cost added, and `pre_llm_call` fires with `messages` and the cost as its
   * `estimatedCostUsd`, so a tenant's budget refuses the work before it starts; a handler may
   * not rewrite the messages. `what` says what the cost is of, for the refusal.
   */
  readonly ahead?: { readonly messages: readonly ModelMessage[]; readonly what: string } | undefined;
}

/** Something an outside agent's session reported (a message, a tool call, a plan), for the trace. */
export interface RuntimeNote {
  /** What kind of update: ACP's `sessionUpdate` (`agent_message`, `tool_call`, `plan`, …) or a JSON-lines type. */
  readonly update: string;
  readonly data: unknown;
}

/** What the core resolved for a run on a harness: the harness, the agent's options, its folders and skills. */
export interface HarnessSetting {
  /** The harness as its plugin registered it. */
  readonly spec: HarnessSpec & { readonly pluginId: string };
  /** The agent's `harness:` options, as written. */
  readonly options: Readonly<Record<string, unknown>>;
  /** The session's working folder, the agent's own in its tenant (`harnessWorkspace`): never another plugin's agent's. */
  readonly workspace: string;
  /** The agent's skills, each written as a read-only folder of the job's in the workspace (`SKILL.md` and its files). */
  readonly skills: readonly {
    readonly label: string;
    readonly body: string;
    readonly files?: Readonly<Record<string, string>> | undefined;
  }[];
  /** The agent's instructions (its system prompt as the start-up context assembled it). */
  readonly instructions: string;
  /** The job's input, as text. */
  readonly input: string;
  /** Whether the job is a routine's fire (which needs a harness that asks before each call). */
  readonly routine: boolean;
}

/** What the core gives a runtime for one run of a job. */
export interface RuntimeSession {
  readonly job: string;
  /** The agent, by address. */
  readonly agent: string;
  /** The name of the runtime this run is on. */
  readonly runtime: string;
  /** The start-up context recorded at the job's first claim, then the job's input as hooks left it. */
  readonly opening: readonly ModelMessage[];
  /** The functions the agent is offered, under their model-visible names. */
  readonly functions: readonly ModelFunction[];
  readonly outputSchema: JsonSchemaObject | undefined;
  /** Model calls the history holds already. */
  readonly recordedSteps: number;
  /** Aborted when the job is cancelled, out of time, or the worker lost its lease. */
  readonly signal: AbortSignal;
  /** oz0's own step: the next pending call of the last reply, else a model call; true when the job stopped. */
  step(): Promise<boolean>;
  /** One model call through the core: limits, `pre_llm_call`/`post_llm_call`, usage and spans, recorded. */
  callModel(request: RuntimeModelRequest): Promise<RuntimeModelReply>;
  /** Runs call `callId` of the last reply on the governed dispatch path, recorded; a recorded one is replayed. */
  callFunction(callId: string): Promise<RuntimeCallResult>;
  /**
   * Ends the job with the answer (checked against the output schema); in a chat, waits for the
   * person. When the job goes on instead, the user message it goes on with is returned, for the
   * runtime's next model call: why an answer that does not match the schema went back, or, on a
   * resumed chat, the person's next message after a recorded answer. `undefined`: the job stopped.
   */
  finish(answer: {
    readonly text?: string | undefined;
    readonly output?: unknown;
  }): Promise<string | undefined>;
  fail(failure: { readonly kind: string; readonly message: string }): Promise<void>;
  /** The agent's `harness:` options as its definition has them. */
  readonly options: Readonly<Record<string, unknown>>;
  /**
   * One exchange with an agent outside oz0, decided by the tenant's tool policy and kill
   * switches and recorded as a function call; a recorded outcome is returned from the history.
   * `send` does the exchange; what it throws becomes the call's error result.
   */
  callRemote(
    call: RuntimeRemoteCall,
    send: (recorded: RuntimeRemoteSend) => Promise<unknown>,
  ): Promise<RuntimeCallResult>;
  /**
   * The result of the `tool_use` remote call `call` (its id and function, and the arguments the
   * provider ran it with), as the remote session reported it: it passes `post_tool_call`, and a
   * failed one `on_error`. The remote model has the result already, so a handler's change to it
   * is recorded as that handler's `hook_error`, not applied. `note` is what the session reported,
   * recorded with the call's id: a result recorded already (a resumed run) passes no hook again.
   */
  toolUseResult(
    call: Pick<RuntimeRemoteCall, "id" | "function" | "args">,
    outcome: RuntimeToolUseResult,
    note: RuntimeNote,
  ): Promise<void>;
  /**
   * The checks before a step (cancel, wall time, the agent's kill switch), for a runtime that
   * waits on outside work: true when the job stopped here; the runtime lets go of that work and
   * throws `new RuntimeStop(session.job)`.
   */
  checkpoint(): Promise<boolean>;
  /**
   * Asks the person `question`, as oz.ask_user does: the job waits (this throws a RuntimeStop)
   * until `oz0 job answer`; on the run after, it returns the answer. `id` (`remote.<...>`) names
   * the question, the same on every run.
   */
  ask(id: string, question: string): Promise<string>;
  /** The tenant's remote-agent secret `name` (`oz0 remote secret set`); never written to the history. */
  secret(name: string): Promise<string | undefined>;
  /**
   * The key the tenant stored for model provider `provider` (`oz0 provider set <provider>
   * --api-key-stdin`), for a remote agent at that provider; never written to the history, and
   * redacted from what the job records.
   */
  providerKey(provider: string): Promise<string | undefined>;
  /** The agent's `model:` as its definition has it. */
  readonly model: AgentModel | undefined;
  /** Whether the job is a chat: `finish` then waits for the person's next message rather than ending the job. */
  readonly chat: boolean;
  /**
   * Records a step the runtime's own model took (a harness's), after the same checks as a
   * model call of the core's (cancel, wall time, kill switches, limits and budgets); on a
   * resumed run, a recorded step with the same calls is returned from the history instead.
   */
  recordStep(step: RuntimeForeignStep): Promise<RuntimeModelReply>;
  /** Model text as it streams (chat's and `oz0 run`'s live text); the recorded step holds it too. */
  streamText(delta: string): void;
  /** Writes what an outside agent's session reported into the job's history (`harness_update`). */
  note(note: RuntimeNote): Promise<void>;
  /** For a run on a harness (`runtime: harness:<name>`): what the core resolved for it. */
  readonly harness?: HarnessSetting | undefined;
}

/**
 * Thrown by a session's call once the job stopped inside it (it waits, ended, or was stopped):
 * the runtime lets it propagate, and the core ends the run. Every later call throws it again.
 */
export class RuntimeStop extends Error {
  constructor(job: string) {
    super(`job ${job} stopped: this run takes no more steps`);
    this.name = "RuntimeStop";
  }
}
