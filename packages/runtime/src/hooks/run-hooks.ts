// The hooks of one job run: the tenant's hook table bound to the job, and the governance
// events its hook points record, kept until the job's next write so they join the history in
// order with the step they belong to (a model call's checks in the write of its reply, a tool
// call's in the write of its result). Each method fires one point where the job engine acts.
import { ContextPart, type HookPayload, type ModelOptions, type Oz0Error } from "@oz0/sdk";
import type { GovernanceEvent, JobFailure, NewEvent } from "../events/index.js";
import { SetupFailure } from "../events/index.js";
import type { ModelFunction, ModelReply, ModelRequest } from "../models/index.js";
import type { Store } from "../store/index.js";
import type { CallableFunction, CallContext } from "../tools/index.js";
import { type JobUsage, tenantUsage, type UsageQuery, type UsageTotals } from "../usage/index.js";
import { HookBus, type HookScope } from "./bus.js";
import {
  functionDescriptions,
  HookMessages,
  keptFunctions,
  modelMessages,
  modelResponse,
  replyWith,
} from "./model.js";
import type { HookTable } from "./table.js";

type UsageView = NonNullable<HookPayload<"pre_llm_call">["usage"]>;
/** A section of the system prompt, as pre_prompt_build sees it. */
export type PromptSection = HookPayload<"pre_prompt_build">["sections"][number];

/** How a job ends, as JobRun.end takes it. */
export type JobEnd =
  | { readonly status: "succeeded"; readonly output: unknown }
  | { readonly status: "failed" | "dead"; readonly failure: JobFailure }
  | { readonly status: "cancelled"; readonly by: string };

/** An end the hooks decided instead of the one given: a rewritten answer, or a withheld one. */
type ChangedEnd =
  | { readonly status: "succeeded"; readonly output: unknown }
  | { readonly status: "failed"; readonly failure: JobFailure };

export interface RunHooksOptions {
  readonly table: HookTable;
  readonly scope: Required<HookScope>;
  /** The job's model-call totals so far. */
  readonly usage: JobUsage;
  /** The tenant's totals over a period. */
  readonly tenantUsage: (query: UsageQuery) => Promise<UsageTotals>;
  /** The agent (or flow) of the job this one is a child of, by address: its answer is a message to it. */
  readonly parent?: string | undefined;
}

/**
 * The hooks of the job run a function call belongs to, for interceptors other than the bus's
 * own (tool policy, kill switches) that record governance events or fire their own points:
 * the call's request carries them. Undefined for a call outside a job run.
 * @example before: async (request) => { runHooksOf(request)?.note(entry); return undefined; }
 */
export function runHooksOf(request: { readonly context: CallContext }): RunHooks | undefined {
  const hooks = request.context.hooks;
  return hooks instanceof RunHooks ? hooks : undefined;
}

export class RunHooks {
  readonly bus: HookBus;
  readonly #pending: GovernanceEvent[] = [];
  readonly #usage: UsageView;
  readonly #messages = new HookMessages();
  /** Where the job's answer goes when that is another agent: the parent's agent, or an outside one over A2A. */
  #answerTo: { readonly to: string; readonly via: "delegate" | "a2a" } | undefined;
  /** How this claim reaches a chat's session; undefined for a job that is no chat. */
  #session: "read" | "write" | undefined;

  constructor(options: RunHooksOptions) {
    this.bus = new HookBus(options.table, options.scope, (entry) => this.#pending.push(entry));
    if (options.parent !== undefined) this.#answerTo = { to: options.parent, via: "delegate" };
    const { usage, tenantUsage } = options;
    this.#usage = Object.freeze({
      get job() {
        return usage.totals();
      },
      tenant: (query: UsageQuery) => tenantUsage(query),
    });
    for (const broken of options.table.broken) {
      this.note({
        kind: "hook_error",
        data: {
          hook: "*",
          plugin: broken.plugin,
          error: broken.error,
          handler: broken.handler,
          required: false,
        },
      });
    }
  }

  /** Adds a governance event to the job's next write. */
  note(entry: GovernanceEvent): void {
    this.#pending.push(entry);
  }

  /** The events of a write, after the governance events waiting for it; the same array when none wait. */
  take(events: readonly NewEvent[]): readonly NewEvent[] {
    if (this.#pending.length === 0) return events;
    const all = [...(this.#pending as NewEvent[]), ...events];
    this.#pending.length = 0;
    return all;
  }

  // ── Start-up ─────────────────────────────────────────────────────────────────────────

  /**
   * At a claim, before the agent starts: a job taken up again from its history passes
   * on_pre_restore; a new one passes pre_execution and user_input, which may rewrite its
   * input. A refusal ends the job (policy_denied). Returns the input to run with.
   */
  async start(options: {
    readonly first: boolean;
    readonly input: unknown;
    readonly attempt: number;
    readonly steps: number;
    readonly parentJobId?: string | undefined;
    readonly by?: string | undefined;
    /** The job is a chat: its history is the chat's session, read for each next turn, written by its first message. */
    readonly chat?: boolean | undefined;
    /** `a2a`: the input is an outside agent's message (oz0's A2A server). */
    readonly via?: "a2a" | undefined;
  }): Promise<unknown> {
    const { bus } = this;
    if (options.via === "a2a") this.#answerTo = { to: outsideAgent(options.by), via: "a2a" };
    if (options.chat === true) this.#session = options.first ? "write" : "read";
    if (!options.first) {
      if (bus.has("on_pre_restore")) {
        const outcome = await bus.fire("on_pre_restore", { attempt: options.attempt, steps: options.steps });
        if (!outcome.ok) throw setupFailure("on_pre_restore", "the job was not resumed", outcome.error);
      }
      if (this.#session !== undefined && bus.has("pre_session_access")) {
        const outcome = await bus.fire("pre_session_access", this.#sessionFields(undefined, options.by));
        if (!outcome.ok)
          throw setupFailure("pre_session_access", "the chat's session was not read", outcome.error);
      }
      return options.input;
    }
    let input = options.input;
    const outside = this.#answerTo?.via === "a2a" ? this.#answerTo.to : undefined;
    if (outside !== undefined && bus.has("pre_agent_communication")) {
      const agent = bus.scope.agent ?? "";
      const outcome = await bus.fire("pre_agent_communication", {
        from: outside,
        to: agent,
        via: "a2a",
        kind: "request",
        message: input,
      });
      if (!outcome.ok)
        throw setupFailure("pre_agent_communication", "the message was not taken", outcome.error);
      input = outcome.payload.message;
    }
    if (outside !== undefined && bus.has("post_agent_communication")) {
      await bus.fire("post_agent_communication", {
        from: outside,
        to: bus.scope.agent ?? "",
        via: "a2a",
        kind: "request",
        message: input,
      });
    }
    if (this.#session !== undefined && bus.has("pre_session_access")) {
      const outcome = await bus.fire("pre_session_access", this.#sessionFields(input, options.by));
      if (!outcome.ok)
        throw setupFailure("pre_session_access", "the chat's session was not written", outcome.error);
      if (outcome.payload.kind === "chat") input = outcome.payload.entry;
    }
    if (bus.has("pre_execution")) {
      const outcome = await bus.fire("pre_execution", {
        kind: "agent",
        target: bus.scope.agent ?? "",
        input,
        ...(options.parentJobId === undefined ? {} : { parentJobId: options.parentJobId }),
      });
      if (!outcome.ok) throw setupFailure("pre_execution", "the job did not run", outcome.error);
      input = outcome.payload.input;
    }
    if (bus.has("user_input")) {
      const structured = typeof input !== "string";
      const outcome = await bus.fire("user_input", {
        content: structured ? JSON.stringify(input) : (input as string),
        attachments: [],
        ...(options.by === undefined ? {} : { senderId: options.by }),
      });
      if (!outcome.ok) throw setupFailure("user_input", "the input did not reach the agent", outcome.error);
      if (outcome.changed) input = structured ? parseJson(outcome.payload.content) : outcome.payload.content;
    }
    return input;
  }

  /** The end of a chat's set-up, its session read or first written: post_session_access; true when a handler ran. */
  async sessionAccessed(input: unknown): Promise<boolean> {
    if (this.#session === undefined || !this.bus.has("post_session_access")) return false;
    await this.bus.fire(
      "post_session_access",
      this.#sessionFields(this.#session === "write" ? input : undefined),
    );
    return true;
  }

  #sessionFields(entry: unknown, by?: string) {
    return {
      session: this.bus.scope.jobId ?? "",
      kind: "chat" as const,
      access: this.#session ?? "read",
      ...(entry === undefined ? {} : { entry }),
      ...(by === undefined ? {} : { by }),
    };
  }

  /** The end of a restore's set-up: on_post_restore. */
  async restored(attempt: number, steps: number): Promise<void> {
    if (this.bus.has("on_post_restore")) await this.bus.fire("on_post_restore", { attempt, steps });
  }

  /** The functions offered to the model were collected: collect_tools. */
  async toolsCollected(functions: ReadonlyMap<string, CallableFunction>, offered: readonly ModelFunction[]) {
    if (!this.bus.has("collect_tools")) return;
    await this.bus.fire("collect_tools", {
      tools: functionDescriptions(offered, (name) => functions.get(name)?.address ?? name),
    });
  }

  /** The skills index was built, or a skill body read: skills_check. */
  async skillsChecked(action: "index" | "read", skills: readonly string[]): Promise<void> {
    if (this.bus.has("skills_check")) await this.bus.fire("skills_check", { action, skills });
  }

  // ── Start-up context ─────────────────────────────────────────────────────────────────

  /**
   * collect_context sees the parts collected; pre_context_assembly may add, drop or rewrite
   * them. Returns the parts to assemble (the same list when no handler changed it).
   */
  async contextParts(parts: readonly ContextPart[], tokenBudget: number): Promise<readonly ContextPart[]> {
    const { bus } = this;
    if (bus.has("collect_context")) await bus.fire("collect_context", { parts });
    if (!bus.has("pre_context_assembly")) return parts;
    const outcome = await bus.fire("pre_context_assembly", { parts, tokenBudget });
    return outcome.ok && outcome.changed ? contextPartsOf(outcome.payload.parts) : parts;
  }

  /** post_context_assembly: the parts kept and left out. */
  async contextAssembled(retained: readonly ContextPart[], evicted: readonly ContextPart[]): Promise<void> {
    if (this.bus.has("post_context_assembly")) {
      await this.bus.fire("post_context_assembly", { retained, evicted });
    }
  }

  /**
   * pre_prompt_build may change the sections or refuse (the job fails, policy_denied);
   * post_prompt_build may rewrite the text. Undefined when no handler listens: the caller
   * joins the sections itself.
   */
  async buildPrompt(sections: readonly PromptSection[]): Promise<string | undefined> {
    const { bus } = this;
    if (!bus.has("pre_prompt_build") && !bus.has("post_prompt_build")) return undefined;
    let kept = sections;
    if (bus.has("pre_prompt_build")) {
      const outcome = await bus.fire("pre_prompt_build", { sections });
      if (!outcome.ok)
        throw setupFailure("pre_prompt_build", "the system prompt was not built", outcome.error);
      kept = outcome.payload.sections.filter((section) => typeof section?.content === "string");
    }
    let prompt = kept.map((section) => section.content).join("\n\n");
    if (bus.has("post_prompt_build")) {
      const outcome = await bus.fire("post_prompt_build", { prompt });
      if (outcome.ok && typeof outcome.payload.prompt === "string") prompt = outcome.payload.prompt;
    }
    return prompt;
  }

  // ── Model calls ──────────────────────────────────────────────────────────────────────

  /**
   * pre_llm_call: the request with the handlers' changes to its messages and functions, or
   * the failure that ends the job when a handler refused (a budget: budget_exceeded).
   */
  async beforeModelCall(
    request: ModelRequest,
    model: string,
    addressOf: (name: string) => string,
    estimatedCostUsd?: number,
  ): Promise<{ readonly request: ModelRequest; readonly model?: string } | { readonly failure: JobFailure }> {
    if (!this.bus.has("pre_llm_call")) return { request };
    const outcome = await this.bus.fire("pre_llm_call", {
      step: request.step,
      model,
      messages: this.#messages.of(request.messages),
      tools: functionDescriptions(request.functions, addressOf),
      settings: request.settings ?? {},
      estimatedInputTokens: request.estimatedInputTokens,
      ...(estimatedCostUsd === undefined ? {} : { estimatedCostUsd }),
      usage: this.#usage,
    });
    if (!outcome.ok)
      return { failure: hookFailure("pre_llm_call", "the model call did not happen", outcome.error) };
    if (!outcome.changed) return { request };
    const { payload } = outcome;
    try {
      const settings = settingsOf(payload.settings);
      const chosen = payload.model === model ? undefined : modelNameOf(payload.model);
      return {
        request: {
          ...request,
          messages: modelMessages(payload.messages),
          functions: keptFunctions(request.functions, payload.tools),
          ...(Object.keys(settings).length === 0 ? {} : { settings }),
        },
        ...(chosen === undefined ? {} : { model: chosen }),
      };
    } catch (error) {
      return {
        failure: { kind: "internal", message: error instanceof Error ? error.message : String(error) },
      };
    }
  }

  /** post_llm_call: the reply with the handlers' changes, before the job records or uses it. */
  async afterModelCall(step: number, model: string, reply: ModelReply): Promise<ModelReply> {
    if (!this.bus.has("post_llm_call")) return reply;
    const outcome = await this.bus.fire("post_llm_call", {
      step,
      model,
      response: modelResponse(step, reply),
    });
    return outcome.ok && outcome.changed ? replyWith(reply, outcome.payload.response) : reply;
  }

  // ── Delegation ───────────────────────────────────────────────────────────────────────

  /**
   * Before a child job starts (by oz.delegate, or a flow's step, `via`): pre_agent_handoff,
   * then pre_child_job, each of which may rewrite the child's input or refuse (the model is
   * told, as for any refused call; a flow's step fails).
   */
  async beforeHandoff(
    to: string,
    input: unknown,
    via: "delegate" | "flow" = "delegate",
  ): Promise<
    { readonly ok: true; readonly input: unknown } | { readonly ok: false; readonly error: Oz0Error }
  > {
    const { bus } = this;
    const from = bus.scope.agent ?? "";
    let next = input;
    if (bus.has("pre_agent_handoff")) {
      const outcome = await bus.fire("pre_agent_handoff", { from, to, input: next, via });
      if (!outcome.ok) return outcome;
      next = outcome.payload.input;
    }
    if (bus.has("pre_child_job")) {
      const outcome = await bus.fire("pre_child_job", { via, target: to, input: next });
      if (!outcome.ok) return outcome;
      next = outcome.payload.input;
    }
    return { ok: true, input: next };
  }

  /**
   * A message from this job's agent to another: pre_agent_communication may rewrite or refuse
   * it. `kind` is `request` for a task given (a delegated child's input), `answer` for what the
   * agent gives back.
   */
  async beforeMessage(
    to: string,
    message: unknown,
    kind: "request" | "answer",
    via: "delegate" | "a2a" = "delegate",
  ): Promise<
    { readonly ok: true; readonly message: unknown } | { readonly ok: false; readonly error: Oz0Error }
  > {
    if (!this.bus.has("pre_agent_communication")) return { ok: true, message };
    const from = this.bus.scope.agent ?? "";
    const outcome = await this.bus.fire("pre_agent_communication", { from, to, via, kind, message });
    if (!outcome.ok) return outcome;
    return { ok: true, message: outcome.payload.message };
  }

  /**
   * An outside agent's answer reached this job (a remote runtime's call): pre_agent_communication
   * may rewrite or refuse it, and post_agent_communication hears of what the job takes.
   */
  async answerIn(
    from: string,
    message: unknown,
    via: "a2a",
  ): Promise<
    { readonly ok: true; readonly message: unknown } | { readonly ok: false; readonly error: Oz0Error }
  > {
    const { bus } = this;
    const to = bus.scope.agent ?? "";
    let taken = message;
    if (bus.has("pre_agent_communication")) {
      const outcome = await bus.fire("pre_agent_communication", { from, to, via, kind: "answer", message });
      if (!outcome.ok) return outcome;
      taken = outcome.payload.message;
    }
    if (bus.has("post_agent_communication")) {
      await bus.fire("post_agent_communication", { from, to, via, kind: "answer", message: taken });
    }
    return { ok: true, message: taken };
  }

  /** The message went to the other agent: post_agent_communication. */
  async afterMessage(
    to: string,
    message: unknown,
    kind: "request" | "answer",
    via: "delegate" | "a2a" = "delegate",
  ): Promise<void> {
    if (!this.bus.has("post_agent_communication")) return;
    await this.bus.fire("post_agent_communication", {
      from: this.bus.scope.agent ?? "",
      to,
      via,
      kind,
      message,
    });
  }

  /** As the child job is recorded: post_agent_handoff. */
  async afterHandoff(to: string, childJobId: string): Promise<void> {
    if (!this.bus.has("post_agent_handoff")) return;
    await this.bus.fire("post_agent_handoff", { from: this.bus.scope.agent ?? "", to, childJobId });
  }

  // ── Checkpoints: every write of the job's history ────────────────────────────────────

  /**
   * on_pre_checkpoint before a write that neither ends the job nor parks it (those always go
   * through: a refusal there would leave the job nowhere). Throws the refusal, which fails
   * the job; returns the batch with the governance events waiting for it.
   */
  async beforeWrite(events: readonly NewEvent[], final: boolean): Promise<readonly NewEvent[]> {
    if (!final && this.bus.has("on_pre_checkpoint")) {
      const outcome = await this.bus.fire("on_pre_checkpoint", { events });
      if (!outcome.ok) throw outcome.error;
    }
    return this.take(events);
  }

  /**
   * on_post_checkpoint after such a write; what it records goes with the next write. True when
   * handlers ran.
   */
  async afterWrite(events: readonly NewEvent[], final: boolean): Promise<boolean> {
    if (final || !this.bus.has("on_post_checkpoint")) return false;
    await this.bus.fire("on_post_checkpoint", { events });
    return true;
  }

  // ── Replies ──────────────────────────────────────────────────────────────────────────

  /**
   * A chat's answer to the person, before it is written: user_output may rewrite it or withhold
   * it (the job then fails, policy_denied, as for a job's final answer).
   */
  async chatReply(
    content: unknown,
  ): Promise<{ readonly content: unknown; readonly changed: boolean } | { readonly failure: JobFailure }> {
    if (!this.bus.has("user_output")) return { content, changed: false };
    const outcome = await this.bus.fire("user_output", { content });
    if (!outcome.ok) return { failure: hookFailure("user_output", "the answer was withheld", outcome.error) };
    return { content: outcome.payload.content, changed: outcome.changed };
  }

  // ── The end ──────────────────────────────────────────────────────────────────────────

  /**
   * As the job's end is decided, before it is written: user_output may rewrite the answer or
   * withhold it (the job then fails with policy_denied), on_error hears of a failure, and
   * post_execution of the end. Their events are written with the end.
   */
  async beforeEnd<E extends JobEnd>(end: E): Promise<E | ChangedEnd> {
    const { bus } = this;
    let next: E | ChangedEnd = end;
    // A child job's answer goes to the agent that delegated to it; an A2A task's to the outside agent.
    const answerTo = this.#answerTo;
    if (next.status === "succeeded" && answerTo !== undefined && bus.has("pre_agent_communication")) {
      const sent = await this.beforeMessage(answerTo.to, next.output, "answer", answerTo.via);
      next = sent.ok
        ? { status: "succeeded", output: sent.message }
        : {
            status: "failed",
            failure: hookFailure("pre_agent_communication", "the answer was not sent", sent.error),
          };
    }
    if (next.status === "succeeded" && answerTo !== undefined) {
      await this.afterMessage(answerTo.to, next.output, "answer", answerTo.via);
    }
    if (next.status === "succeeded" && bus.has("user_output")) {
      const outcome = await bus.fire("user_output", { content: next.output });
      if (!outcome.ok) {
        next = {
          status: "failed",
          failure: hookFailure("user_output", "the answer was withheld", outcome.error),
        };
      } else if (outcome.changed) {
        next = { status: "succeeded", output: outcome.payload.content };
      }
    }
    if ((next.status === "failed" || next.status === "dead") && bus.has("on_error")) {
      const { failure } = next;
      await bus.fire("on_error", {
        error: { code: failure.code ?? failure.kind, message: failure.message },
        where: "job",
      });
    }
    if (bus.has("post_execution")) {
      await bus.fire("post_execution", {
        status: next.status === "dead" ? "failed" : next.status,
        ...(next.status === "succeeded" ? { output: next.output } : {}),
        failure:
          next.status === "succeeded"
            ? null
            : next.status === "cancelled"
              ? { kind: "cancelled", message: `cancelled by ${next.by}` }
              : { kind: next.failure.kind, message: next.failure.message },
      });
    }
    return next;
  }
}

/**
 * The failure a refused or failed hook point ends a job with: a budget's refusal is
 * budget_exceeded, any other refusal policy_denied; a required handler's error keeps its
 * HOOK_FAILED code.
 */
export function hookFailure(hook: string, what: string, error: Oz0Error): JobFailure {
  if (error.code === "POLICY_VIOLATION") {
    const contract = (error as { contractId?: string }).contractId;
    return {
      kind: contract === "budget" ? "budget_exceeded" : "policy_denied",
      message: `${what}: ${error.message} (hook ${hook})`,
      code: error.code,
    };
  }
  return { kind: "internal", message: `${what}: ${error.message}`, code: error.code };
}

function setupFailure(hook: string, what: string, error: Oz0Error): SetupFailure {
  const failure = hookFailure(hook, what, error);
  return new SetupFailure(failure.kind, failure.message, failure.code);
}

/**
 * Parts a handler returned, as ContextParts: a part it kept stays as it is (same part_id), and
 * a plain `{ content, source, … }` becomes a new part; anything else is left out.
 */
function contextPartsOf(parts: readonly unknown[]): ContextPart[] {
  const found: ContextPart[] = [];
  for (const value of parts) {
    if (value instanceof ContextPart) {
      found.push(value);
      continue;
    }
    const part = value as Partial<ContextPart> | null;
    if (typeof part?.content !== "string" || typeof part.source !== "string") continue;
    found.push(
      typeof part.partId === "string" && typeof part.tokenEstimate === "number"
        ? (part as ContextPart)
        : new ContextPart({
            content: part.content,
            source: part.source,
            ...(part.sectionId === undefined ? {} : { sectionId: part.sectionId }),
            ...(part.mechanism === undefined ? {} : { mechanism: part.mechanism }),
            cause: part.cause ?? "hook",
            causeType: part.causeType ?? "hook",
            ...(part.tokenEstimate === undefined ? {} : { tokenEstimate: part.tokenEstimate }),
          }),
    );
  }
  return found;
}

/** The settings a pre_llm_call handler left: an object of request options (`temperature`, `max_tokens`, …). */
function settingsOf(settings: unknown): ModelOptions {
  if (typeof settings !== "object" || settings === null || Array.isArray(settings)) {
    throw new Error(
      "pre_llm_call: a handler set settings to something other than an object of request options",
    );
  }
  return settings as ModelOptions;
}

/** The model a pre_llm_call handler chose: `provider:model` or an alias of the tenant. */
function modelNameOf(model: unknown): string {
  if (typeof model !== "string" || model.trim() === "") {
    throw new Error("pre_llm_call: a handler set model to something other than a provider:model or an alias");
  }
  return model;
}

/** An outside agent that messaged oz0 over A2A, as the communication hooks name it: `a2a:<who sent it>`. */
function outsideAgent(by: string | undefined): string {
  return `a2a:${by ?? "unknown"}`;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** What a job run gives its hooks; JobRun has it. */
export interface RunForHooks {
  readonly row: { readonly id: string; readonly tenant: string; readonly parent_id: string | null };
  readonly address: string;
  readonly usage: JobUsage;
  readonly deps: {
    readonly hooks: { table(tenant: string): Promise<HookTable> };
    readonly jobs: {
      readonly store: Store;
      get(id: string): Promise<{ readonly plugin: string; readonly name: string } | undefined>;
    };
  };
}

/** The hooks of a run: its tenant's hook table bound to the job. */
export async function runHooksFor(run: RunForHooks): Promise<RunHooks> {
  const { tenant, id, parent_id: parentId } = run.row;
  const table = await run.deps.hooks.table(tenant);
  // The parent's agent is looked up only where a handler hears of messages between agents.
  const talks = table.has("pre_agent_communication") || table.has("post_agent_communication");
  const parent = parentId === null || !talks ? undefined : await run.deps.jobs.get(parentId);
  return new RunHooks({
    table,
    scope: { tenant, jobId: id, agent: run.address },
    ...(parent === undefined ? {} : { parent: `${parent.plugin}/${parent.name}` }),
    usage: run.usage,
    tenantUsage: (query) => tenantUsage(run.deps.jobs.store, tenant, query),
  });
}
