// The adapter from an AI SDK language model (the provider layer: `doStream`) to the model the
// agent loop calls: one request is one model call, streamed, with no tool run by the SDK; the
// loop dispatches the calls itself. The conversation becomes the SDK's prompt, the stream
// becomes text (sent on as it comes), function calls and usage, and a failed call is retried
// as retry.ts says, then fails with MODEL_CALL_FAILED, its text free of any key.

import {
  APICallError,
  type JSONValue,
  type LanguageModelV4,
  type LanguageModelV4CallOptions,
  type LanguageModelV4FunctionTool,
  type LanguageModelV4Message,
  type LanguageModelV4Prompt,
  type LanguageModelV4StreamPart,
  type LanguageModelV4ToolResultOutput,
  type LanguageModelV4Usage,
  type SharedV4ProviderOptions,
  type SharedV4Warning,
} from "@ai-sdk/provider";
import { Oz0Error } from "@oz0/sdk";
import { redactorOf } from "./redact.js";
import { AttemptFailure, type CallPolicy, GaveUp, retryAfterMs, withRetries } from "./retry.js";
import { estimateValueTokens } from "./tokens.js";
import type { LanguageModel, ModelFunction, ModelMessage, ModelReply, ModelRequest } from "./types.js";

export interface AiSdkModelOptions {
  /** `provider:model`, as traces show it. */
  readonly id: string;
  readonly model: LanguageModelV4;
  readonly nameLimit: number;
  readonly policy: CallPolicy;
  /** Keys this model's calls use: scrubbed from every message. */
  readonly secrets: readonly string[];
  readonly providerOptions?: SharedV4ProviderOptions | undefined;
  /** What to do about a refused key, for the message of a 401 or 403. */
  readonly keyHelp: string;
  readonly provider?: LanguageModel["provider"];
}

/** A model the loop can call, over an AI SDK provider's language model. */
export function aiSdkModel(options: AiSdkModelOptions): LanguageModel {
  const said = new Set<string>();
  return {
    id: options.id,
    nameLimit: options.nameLimit,
    ...(options.provider === undefined ? {} : { provider: options.provider }),
    generate: async (request) => {
      const call: LanguageModelV4CallOptions = {
        prompt: toPrompt(request.messages),
        ...(request.functions.length === 0
          ? {}
          : { tools: request.functions.map(toTool), toolChoice: { type: "auto" } }),
        ...(request.outputSchema === undefined
          ? {}
          : { responseFormat: { type: "json", schema: request.outputSchema, name: "output" } }),
        ...(options.providerOptions === undefined ? {} : { providerOptions: options.providerOptions }),
      };
      const stream = new TextRelay(request.onText);
      let streamed: Streamed;
      try {
        streamed = await withRetries(
          async (attempt) => {
            stream.restart();
            const result = await options.model.doStream({ ...call, abortSignal: attempt.signal });
            return readStream(result.stream, stream, attempt.touch);
          },
          { policy: options.policy, signal: request.signal, classify },
        );
      } catch (thrown) {
        if (request.signal.aborted) throw thrown;
        throw thrown instanceof GaveUp ? callFailed(options, thrown) : thrown;
      }
      const warnings = streamed.warnings.filter((warning) => !said.has(warning));
      for (const warning of warnings) said.add(warning);
      return toReply(request, streamed, warnings);
    },
  };
}

// ── The prompt ─────────────────────────────────────────────────────────────────────────────

/**
 * The conversation as the SDK's prompt. Call ids become ids every format accepts
 * (Anthropic's allow only letters, digits, `_` and `-`), the same for a call and its result.
 */
export function toPrompt(messages: readonly ModelMessage[]): LanguageModelV4Prompt {
  const prompt: LanguageModelV4Message[] = [];
  for (const message of messages) {
    switch (message.role) {
      case "system":
        prompt.push({ role: "system", content: message.content });
        break;
      case "user":
        prompt.push({ role: "user", content: [{ type: "text", text: message.content }] });
        break;
      case "assistant": {
        const text = message.output !== undefined ? JSON.stringify(message.output) : message.text;
        const content: Extract<LanguageModelV4Message, { role: "assistant" }>["content"] = [];
        if (text !== undefined && text !== "") content.push({ type: "text", text });
        for (const call of message.calls) {
          content.push({
            type: "tool-call",
            toolCallId: wireCallId(call.id),
            toolName: call.name,
            input: call.args,
          });
        }
        // A reply with nothing in it (an empty answer) is left out: formats refuse empty turns.
        if (content.length > 0) prompt.push({ role: "assistant", content });
        break;
      }
      case "tool": {
        const part = {
          type: "tool-result" as const,
          toolCallId: wireCallId(message.callId),
          toolName: message.name,
          output: toolOutput(message.content, message.isError),
        };
        // The results of one reply's calls go back together, as one tool message.
        const last = prompt.at(-1);
        if (last?.role === "tool") last.content.push(part);
        else prompt.push({ role: "tool", content: [part] });
        break;
      }
    }
  }
  return prompt;
}

/** `1.2` → `call_1_2`. */
export function wireCallId(id: string): string {
  return `call_${id.replace(/[^A-Za-z0-9_-]/g, "_")}`;
}

function toolOutput(content: unknown, isError: boolean): LanguageModelV4ToolResultOutput {
  if (typeof content === "string") return { type: isError ? "error-text" : "text", value: content };
  const value = (JSON.parse(JSON.stringify(content ?? null)) ?? null) as JSONValue;
  return { type: isError ? "error-json" : "json", value };
}

function toTool(fn: ModelFunction): LanguageModelV4FunctionTool {
  return {
    type: "function",
    name: fn.name,
    description: fn.description,
    inputSchema: fn.inputSchema as LanguageModelV4FunctionTool["inputSchema"],
  };
}

// ── The stream ─────────────────────────────────────────────────────────────────────────────

interface Streamed {
  readonly text: string;
  readonly calls: { readonly name: string; readonly args: unknown; readonly wireId: string }[];
  readonly usage: LanguageModelV4Usage | undefined;
  readonly finish: string | undefined;
  readonly warnings: string[];
  readonly response: { id?: string; model?: string };
}

/**
 * Sends the answer's text on as it comes. A retried call streams its answer again from the
 * start: what was already sent is not sent twice.
 */
class TextRelay {
  readonly #onText: ((delta: string) => void) | undefined;
  #sent = 0;
  #text = "";

  constructor(onText: ((delta: string) => void) | undefined) {
    this.#onText = onText;
  }

  restart(): void {
    this.#text = "";
  }

  add(delta: string): void {
    this.#text += delta;
    if (this.#onText === undefined || this.#text.length <= this.#sent) return;
    this.#onText(this.#text.slice(this.#sent));
    this.#sent = this.#text.length;
  }

  get text(): string {
    return this.#text;
  }
}

async function readStream(
  stream: ReadableStream<LanguageModelV4StreamPart>,
  relay: TextRelay,
  touch: () => void,
): Promise<Streamed> {
  const calls: { name: string; args: unknown; wireId: string }[] = [];
  const warnings: string[] = [];
  const response: { id?: string; model?: string } = {};
  let usage: LanguageModelV4Usage | undefined;
  let finish: string | undefined;
  for await (const part of stream as unknown as AsyncIterable<LanguageModelV4StreamPart>) {
    touch();
    switch (part.type) {
      case "stream-start":
        warnings.push(...part.warnings.map(warningText));
        break;
      case "text-delta":
        relay.add(part.delta);
        break;
      case "tool-call":
        if (part.providerExecuted !== true) {
          calls.push({ name: part.toolName, args: parseArgs(part.input), wireId: part.toolCallId });
        }
        break;
      case "response-metadata":
        if (part.id !== undefined) response.id = part.id;
        if (part.modelId !== undefined) response.model = part.modelId;
        break;
      case "finish":
        usage = part.usage;
        finish = part.finishReason.unified;
        break;
      case "error":
        throw classifyStreamError(part.error);
      default:
        break;
    }
  }
  if (finish === undefined || finish === "interrupted") {
    throw new AttemptFailure("the connection dropped before the answer was complete", { retryable: true });
  }
  return { text: relay.text, calls, usage, finish, warnings, response };
}

/** Arguments arrive as JSON text; text that is not JSON goes to the loop as it is, to be refused there. */
function parseArgs(input: string): unknown {
  if (input.trim() === "") return {};
  try {
    return JSON.parse(input);
  } catch {
    return input;
  }
}

function warningText(warning: SharedV4Warning): string {
  switch (warning.type) {
    case "unsupported":
    case "compatibility":
      return `the provider ${warning.type === "unsupported" ? "does not support" : "only emulates"} ${warning.feature}${warning.details === undefined ? "" : `: ${warning.details}`}`;
    case "deprecated":
      return `${warning.setting} is deprecated: ${warning.message}`;
    default:
      return "message" in warning ? String(warning.message) : JSON.stringify(warning);
  }
}

function toReply(request: ModelRequest, streamed: Streamed, warnings: string[]): ModelReply {
  const { text, calls, usage } = streamed;
  const inputTokens = usage?.inputTokens.total ?? sumDefined(usage?.inputTokens);
  const outputTokens = usage?.outputTokens.total;
  const cached = usage?.inputTokens.cacheRead;
  const written = usage?.inputTokens.cacheWrite;
  const said = text === "" && calls.length > 0 ? undefined : text;
  const output = request.outputSchema !== undefined && calls.length === 0 ? parseJson(text) : undefined;
  if (streamed.finish === "length") {
    warnings.push("the model stopped at its output token limit; the answer may be cut short");
  }
  return {
    ...(output === undefined ? { text: said } : { output }),
    calls,
    usage: {
      // A server that reports no usage is counted by estimate, so limits and budgets still hold.
      inputTokens: inputTokens ?? request.estimatedInputTokens,
      outputTokens: outputTokens ?? estimateValueTokens(text) + estimateValueTokens(calls),
      ...(cached === undefined || cached === 0 ? {} : { cachedInputTokens: cached }),
      ...(written === undefined || written === 0 ? {} : { cacheWriteInputTokens: written }),
    },
    ...(warnings.length === 0 ? {} : { warnings }),
    ...(Object.keys(streamed.response).length === 0 ? {} : { response: streamed.response }),
  };
}

function sumDefined(tokens: LanguageModelV4Usage["inputTokens"] | undefined): number | undefined {
  if (tokens === undefined) return undefined;
  const parts = [tokens.noCache, tokens.cacheRead, tokens.cacheWrite].filter((n) => n !== undefined);
  return parts.length === 0 ? undefined : parts.reduce((a, b) => a + b, 0);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

// ── Failures ───────────────────────────────────────────────────────────────────────────────

/** Error types servers send inside a stream that a retry may cure. */
const RETRYABLE_TYPES = new Set([
  "overloaded_error",
  "api_error",
  "rate_limit_error",
  "rate_limit_exceeded",
  "server_error",
  "internal_server_error",
  "service_unavailable",
]);

function classify(error: unknown): AttemptFailure {
  if (error instanceof AttemptFailure) return error;
  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    // A connection that drops while a successful response streams in arrives as a 2xx failure.
    if (status !== undefined && status < 300 && isDrop(error.cause)) {
      return new AttemptFailure(`the connection dropped mid-answer (${describe(error.cause)})`, {
        retryable: true,
      });
    }
    const retryable =
      status === undefined
        ? error.isRetryable
        : status === 408 || status === 409 || status === 429 || status >= 500;
    return new AttemptFailure(status === undefined ? error.message : `HTTP ${status}: ${error.message}`, {
      retryable,
      status,
      retryAfterMs: retryAfterMs(error.responseHeaders),
    });
  }
  if (isStreamError(error)) return classifyStreamError(error);
  if (isDrop(error))
    return new AttemptFailure(`the connection dropped (${describe(error)})`, { retryable: true });
  return new AttemptFailure(error instanceof Error ? error.message : String(error), { retryable: false });
}

function classifyStreamError(error: unknown): AttemptFailure {
  if (APICallError.isInstance(error) || !isStreamError(error)) return classify(error);
  const type = typeof error.type === "string" ? error.type : typeof error.code === "string" ? error.code : "";
  const retryable = error.isRetryable === true || RETRYABLE_TYPES.has(type);
  const message = typeof error.message === "string" ? error.message : JSON.stringify(error);
  return new AttemptFailure(`the server reported ${type === "" ? "an error" : type}: ${message}`, {
    retryable,
    status: typeof error.statusCode === "number" ? error.statusCode : undefined,
  });
}

interface StreamError {
  readonly type?: unknown;
  readonly code?: unknown;
  readonly message?: unknown;
  readonly isRetryable?: unknown;
  readonly statusCode?: unknown;
}

function isStreamError(error: unknown): error is StreamError {
  return typeof error === "object" && error !== null && !(error instanceof Error) && "message" in error;
}

const NETWORK_CODES = new Set(["ECONNRESET", "ECONNREFUSED", "EPIPE", "ETIMEDOUT", "UND_ERR_SOCKET"]);

/** A dropped or refused connection: fetch's TypeError (`fetch failed`, `terminated`) or a socket error code. */
function isDrop(error: unknown): boolean {
  for (let at = error, depth = 0; at !== undefined && at !== null && depth < 5; depth++) {
    if (at instanceof TypeError) return true;
    const code = (at as { code?: unknown }).code;
    if (typeof code === "string" && NETWORK_CODES.has(code)) return true;
    at = (at as { cause?: unknown }).cause;
  }
  return false;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The job's failure for a call that failed for good: what happened, where, and what to do. */
function callFailed(options: AiSdkModelOptions, gaveUp: GaveUp): Oz0Error {
  const { failure, attempts } = gaveUp;
  const tries = attempts === 1 ? "1 attempt" : `${attempts} attempts`;
  const retried = attempts - 1;
  const why =
    gaveUp.reason ??
    (!failure.retryable
      ? "a retry would not help"
      : retried === 0
        ? "retries are off for this provider"
        : `it was retried ${retried === 1 ? "once" : `${retried} times`}`);
  const help =
    failure.status === 401 || failure.status === 403
      ? ` The provider refused the key: ${options.keyHelp}.`
      : failure.status === 404
        ? " Check the model's name and the provider's base URL (oz0 provider list)."
        : "";
  // A server's message may be a whole response body: keep its start, cut after the keys are
  // out of it, so no part of one survives.
  const redactor = redactorOf(options.secrets);
  const clean = redactor.text(failure.message);
  const said = clean.length > 500 ? `${clean.slice(0, 500)}…` : clean.replace(/\.+$/, "");
  const message = redactor.text(
    `the model call to ${options.id} failed after ${tries} (${why}): ${said}.${help}`,
  );
  return new Oz0Error("MODEL_CALL_FAILED", message, {
    data: {
      model: options.id,
      attempts,
      retryable: failure.retryable,
      ...(failure.status === undefined ? {} : { status: failure.status }),
    },
  });
}
