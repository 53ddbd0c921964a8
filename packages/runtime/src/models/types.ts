// The model interface the agent loop calls: one request per model step, one reply with text,
// function calls or a structured answer. Providers (the offline `test` model, and adapters
// over AI SDK providers) implement it; the loop owns the steps and dispatches calls itself.
import type { JsonSchemaObject, ModelOptions } from "@oz0/sdk";

/** A function as the model is offered it, under its model-visible name (`<tool>__<function>`). */
export interface ModelFunction {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchemaObject;
}

/** A function call the model asked for; the loop gives it its id. */
export interface ModelCall {
  readonly id: string;
  readonly name: string;
  readonly args: unknown;
  /** The id the model gave the call, when it gave one; traces name the call by it. */
  readonly wireId?: string | undefined;
}

/** One message of the conversation the model sees. */
export type ModelMessage =
  | { readonly role: "system"; readonly content: string }
  | {
      readonly role: "user";
      readonly content: string;
      /** The message that sends a structured answer back for not matching the output schema. */
      readonly rejected?: boolean | undefined;
    }
  | {
      readonly role: "assistant";
      readonly text?: string | undefined;
      readonly calls: readonly ModelCall[];
      readonly output?: unknown;
    }
  | {
      readonly role: "tool";
      readonly callId: string;
      readonly name: string;
      /** The function's result, or `{ error: { code, message } }` when `isError`. */
      readonly content: unknown;
      readonly isError: boolean;
    };

export interface ModelRequest {
  /** The model step of the job, from 1: the number of model calls so far, this one included. */
  readonly step: number;
  readonly messages: readonly ModelMessage[];
  readonly functions: readonly ModelFunction[];
  /** The agent's output schema, when it answers in a structure. */
  readonly outputSchema?: JsonSchemaObject | undefined;
  /** The loop's running estimate of the conversation's tokens, kept as messages are added. */
  readonly estimatedInputTokens: number;
  /** Aborted when the job is cancelled, out of time, or its worker lost the lease. */
  readonly signal: AbortSignal;
  /**
   * The conversation the request continues (one job run's): what a model keeps between its
   * steps (its converted prompt) lives here. Left out, the model keeps nothing between calls.
   */
  readonly conversation?: Conversation | undefined;
  /** Receives the answer's text as it comes, for surfaces that stream (`oz0 chat`). */
  readonly onText?: ((delta: string) => void) | undefined;
  /**
   * An MCP server's sampling request during one of the job's calls, not a step of the job's
   * loop: `step` is the step whose call asked, and a scripted model plays no turn for it.
   */
  readonly sampling?: boolean | undefined;
  /**
   * The most tokens this request's answer may have (an MCP server's sampling `maxTokens`): the
   * lower of it and the alias's `max_tokens` holds.
   */
  readonly maxOutputTokens?: number | undefined;
  /**
   * Request options for this call only, over the model's own (its alias's and the agent's):
   * what a pre_llm_call handler set, or a summary's length.
   */
  readonly settings?: ModelOptions | undefined;
}

export interface ModelUsage {
  /** Prompt tokens, cached ones included. */
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Prompt tokens the provider read from its cache (billed at the cached price). */
  readonly cachedInputTokens?: number | undefined;
  /** Prompt tokens the provider wrote to its cache for later calls (Anthropic's cache creation). */
  readonly cacheWriteInputTokens?: number | undefined;
}

export interface ModelReply {
  readonly text?: string | undefined;
  /** `wireId` is the id the model gave the call, when it gave one (the loop gives each its own). */
  readonly calls: readonly { readonly name: string; readonly args: unknown; readonly wireId?: string }[];
  /** A structured answer, for an agent with an output schema. */
  readonly output?: unknown;
  readonly usage: ModelUsage;
  /** What the call cost in US dollars, from the tenant's price table; left out when no price is set. */
  readonly costUsd?: number | undefined;
  /** Things the model wants a person to know about this reply, recorded as `model_warning` events. */
  readonly warnings?: readonly string[] | undefined;
  /** The provider's ID of the response and the model that actually answered, when it says. */
  readonly response?: { readonly id?: string | undefined; readonly model?: string | undefined } | undefined;
  /** The answer stopped at its output token limit. */
  readonly cutShort?: boolean | undefined;
}

/** A model the loop can call; `id` is `provider:model` as traces show it. */
export interface LanguageModel {
  readonly id: string;
  /**
   * The longest function name the model's wire format accepts (64 for OpenAI's formats, 128
   * for Anthropic's). A node offers no function over 64 whatever this says; a limit below 64
   * leaves out the longer ones too. Left out, 64.
   */
  readonly nameLimit?: number | undefined;
  /**
   * Who serves the model, as OpenTelemetry's `gen_ai.provider.name` registry names it
   * (`openai`, `anthropic`), else the provider's own name; and the base URL calls go to.
   */
  readonly provider?: { readonly name: string; readonly url?: string | undefined } | undefined;
  generate(request: ModelRequest): Promise<ModelReply>;
  /**
   * Called once the job has ended after `steps` model calls: anything a person should know
   * about the run as a whole, such as a test script's turns left unused.
   */
  finish?(steps: number): readonly string[];
}

/**
 * What models keep between the steps of one conversation, each under a key of its own; it
 * lives as long as the run that carries it in its requests, and no longer.
 */
export class Conversation {
  readonly #kept = new Map<object, unknown>();

  /** What `owner` keeps here, made by `make` the first time. */
  keep<T>(owner: object, make: () => T): T {
    if (this.#kept.has(owner)) return this.#kept.get(owner) as T;
    const made = make();
    this.#kept.set(owner, made);
    return made;
  }
}
