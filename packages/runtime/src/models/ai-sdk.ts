// The adapter from an AI SDK language model (the provider layer: `doStream`) to the model the
// agent loop calls: one request is one model call, streamed, with no tool run by the SDK; the
// loop dispatches the calls itself. The conversation becomes the SDK's prompt, the stream
// becomes text (sent on as it comes), function calls and usage, and a failed call is retried
// as retry.ts says, then fails with MODEL_CALL_FAILED, its text free of any key. A server that
// cannot stream is called once per request instead; a tool's images and files go to formats
// that take them as parts of the result.

import {
  APICallError,
  type JSONValue,
  type LanguageModelV4,
  type LanguageModelV4CallOptions,
  type LanguageModelV4Content,
  type LanguageModelV4FunctionTool,
  type LanguageModelV4Message,
  type LanguageModelV4Prompt,
  type LanguageModelV4StreamPart,
  type LanguageModelV4ToolResultOutput,
  type LanguageModelV4Usage,
  type SharedV4ProviderOptions,
  type SharedV4Warning,
} from "@ai-sdk/provider";
import { type ModelOptions, Oz0Error } from "@oz0/sdk";
import { OPTION_FEATURES, type RequestOptionName, type StructuredOutput } from "./options.js";
import { redactorOf } from "./redact.js";
import { AttemptFailure, type CallPolicy, GaveUp, retryAfterMs, withRetries } from "./retry.js";
import { estimateValueTokens } from "./tokens.js";
import type { LanguageModel, ModelFunction, ModelMessage, ModelReply, ModelRequest } from "./types.js";

type ResponseSchema = Extract<
  NonNullable<LanguageModelV4CallOptions["responseFormat"]>,
  { type: "json" }
>["schema"];

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
  /** The request options' call settings (temperature, headers, …), the same in every call. */
  readonly settings?: Partial<LanguageModelV4CallOptions> | undefined;
  /**
   * The call settings of one call's own request options (`ModelRequest.settings`), checked
   * against what the provider honours; left out, a call that has some is refused.
   */
  readonly requestSettings?: ((settings: ModelOptions) => Partial<LanguageModelV4CallOptions>) | undefined;
  /** Where each request option was set: a call whose provider drops one is refused, naming it. */
  readonly optionsFrom?: Readonly<Partial<Record<RequestOptionName, string>>> | undefined;
  /** False for a server that cannot stream (some OpenAI-compatible ones cannot stream tool calls). */
  readonly stream?: boolean | undefined;
  /** `prompt`: the output schema goes in the prompt and the retry message, not a response format. */
  readonly structuredOutput?: StructuredOutput | undefined;
  /** Which files a tool's result may hand the model as parts: `image/png` → whether it may. */
  readonly mediaParts?: ((mediaType: string) => boolean) | undefined;
  /** The provider wraps a failed call's result in `{ error }` itself (OpenAI's formats do). */
  readonly wrapsErrors?: boolean | undefined;
  readonly provider?: LanguageModel["provider"];
}

/** A model the loop can call, over an AI SDK provider's language model. */
export function aiSdkModel(options: AiSdkModelOptions): LanguageModel {
  const said = new Set<string>();
  const dropped = droppedOption(options);
  // One prompt per conversation (a job run's, which its requests carry): each step converts
  // only what was added. This key is this model's own place in the conversation.
  const mine = {};
  const builder = () => new PromptBuilder({ media: options.mediaParts, wrapsErrors: options.wrapsErrors });
  const tools = new ToolList();
  return {
    id: options.id,
    nameLimit: options.nameLimit,
    ...(options.provider === undefined ? {} : { provider: options.provider }),
    generate: async (request) => {
      const inPrompt = options.structuredOutput === "prompt" && request.outputSchema !== undefined;
      const prompt = request.conversation?.keep(mine, builder) ?? builder();
      const cap = lowest(options.settings?.maxOutputTokens, request.maxOutputTokens);
      const call: LanguageModelV4CallOptions = {
        ...options.settings,
        ...(cap === undefined ? {} : { maxOutputTokens: cap }),
        prompt: prompt.build(request.messages, inPrompt ? schemaText(request.outputSchema) : undefined),
        ...(request.functions.length === 0
          ? {}
          : { tools: tools.of(request.functions), toolChoice: { type: "auto" } }),
        ...(request.outputSchema === undefined || inPrompt
          ? {}
          : {
              responseFormat: {
                type: "json",
                // The provider layer types the schema as mutable JSON Schema; it only reads it.
                schema: request.outputSchema as ResponseSchema,
                name: "output",
              },
            }),
        ...(options.providerOptions === undefined ? {} : { providerOptions: options.providerOptions }),
        ...(request.settings === undefined ? {} : ownSettings(options, request.settings)),
      };
      const stream = new TextRelay(request.onText);
      let streamed: Streamed;
      try {
        streamed = await withRetries(
          async (attempt) => {
            stream.restart();
            if (options.stream === false) {
              const result = await options.model.doGenerate({ ...call, abortSignal: attempt.signal });
              return readResult(result, stream, dropped);
            }
            const result = await options.model.doStream({ ...call, abortSignal: attempt.signal });
            return readStream(result.stream, stream, attempt.touch, dropped);
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

const schemaTexts = new WeakMap<object, string>();

/** The output schema as the prompt states it, once per schema. */
function schemaText(schema: object | undefined): string | undefined {
  if (schema === undefined) return undefined;
  let text = schemaTexts.get(schema);
  if (text === undefined) {
    text = JSON.stringify(schema);
    schemaTexts.set(schema, text);
  }
  return text;
}

/**
 * Throws when a provider's warnings say it dropped a request option oz0 set (a reasoning model
 * takes no temperature): the option is refused, naming where it was set, never ignored.
 */
function droppedOption(options: AiSdkModelOptions): (warnings: readonly SharedV4Warning[]) => void {
  const from = options.optionsFrom ?? {};
  return (warnings) => {
    for (const warning of warnings) {
      if (warning.type !== "unsupported" && warning.type !== "compatibility") continue;
      const option = OPTION_FEATURES[warning.feature];
      if (option === undefined || from[option] === undefined) continue;
      const why = warning.details === undefined ? "the provider does not support it" : warning.details;
      throw new AttemptFailure(
        `${options.id} cannot honour ${option}, set by ${from[option]} (${why}); remove ${option} there, or choose another model`,
        { retryable: false },
      );
    }
  };
}

// ── The prompt ─────────────────────────────────────────────────────────────────────────────

/** How a model's prompt is built beyond the conversation. */
export interface PromptShape {
  /** Which files a tool's result may hand the model as parts; left out, none: results are JSON text. */
  readonly media?: ((mediaType: string) => boolean) | undefined;
  /** The output schema's text, for a server told it in the prompt (and in each retry message). */
  readonly schema?: string | undefined;
  /** The format wraps a failure's result in `{ error }` itself, so it gets what is inside. */
  readonly wrapsErrors?: boolean | undefined;
}

/**
 * The conversation as the SDK's prompt. Call ids become ids every format accepts
 * (Anthropic's allow only letters, digits, `_` and `-`), the same for a call and its result.
 */
export function toPrompt(messages: readonly ModelMessage[], shape: PromptShape = {}): LanguageModelV4Prompt {
  const { schema, ...rest } = shape;
  return new PromptBuilder(rest).build(messages, schema);
}

/** What the prompt stood at after one message: its length and its last entry. */
interface Mark {
  readonly length: number;
  readonly last: LanguageModelV4Message | undefined;
}

/**
 * One conversation's prompt, converted a message at a time and kept: a job's history only
 * grows, so a step converts only the messages added since the last, and a step costs the same
 * at every length of the job. A message that is not the one converted at its place (a
 * pre_llm_call handler rewrote it) is converted again, with every message after it. Entries
 * are never changed once handed out: a tool result joining its reply's group makes a new group.
 */
export class PromptBuilder {
  readonly #shape: Omit<PromptShape, "schema">;
  #schema: string | undefined;
  #messages: ModelMessage[] = [];
  #marks: Mark[] = [];
  #prompt: LanguageModelV4Message[] = [];
  /** The list last built from: the job's conversation, which only grows. */
  #source: readonly ModelMessage[] | undefined;

  constructor(shape: Omit<PromptShape, "schema"> = {}) {
    this.#shape = shape;
  }

  /** The prompt of `messages`, with the output schema told in it when `schema` is given. */
  build(messages: readonly ModelMessage[], schema?: string): LanguageModelV4Prompt {
    const known = this.#messages;
    let kept = 0;
    if (schema === this.#schema) kept = keptPrefix(known, messages, this.#source);
    this.#source = messages;
    if (kept < known.length) this.#rollBack(kept);
    this.#schema = schema;
    const shape: PromptShape = { ...this.#shape, schema };
    for (let index = kept; index < messages.length; index++) {
      const message = messages[index]!;
      appendMessage(this.#prompt, message, shape);
      known.push(message);
      this.#marks.push({ length: this.#prompt.length, last: this.#prompt.at(-1) });
    }
    // A copy: the provider may keep the prompt it was given, and this one grows.
    return this.#prompt.slice();
  }

  #rollBack(kept: number): void {
    this.#messages.length = kept;
    this.#marks.length = kept;
    const mark = this.#marks[kept - 1];
    if (mark === undefined) {
      this.#prompt = [];
      return;
    }
    this.#prompt.length = mark.length;
    if (mark.last !== undefined) this.#prompt[mark.length - 1] = mark.last;
  }
}

/**
 * How many of the messages `known` holds start `messages` too. The conversation's own list only
 * grows, so when it is the list seen last, its last known message in place says it all; another
 * list (one a pre_llm_call handler made) is compared message by message.
 */
export function keptPrefix(
  known: readonly ModelMessage[],
  messages: readonly ModelMessage[],
  source: readonly ModelMessage[] | undefined,
): number {
  const limit = Math.min(known.length, messages.length);
  if (
    messages === source &&
    limit === known.length &&
    (limit === 0 || messages[limit - 1] === known[limit - 1])
  ) {
    return limit;
  }
  let kept = 0;
  while (kept < limit && known[kept] === messages[kept]) kept += 1;
  return kept;
}

/** Adds one message of the conversation to the prompt. */
function appendMessage(prompt: LanguageModelV4Message[], message: ModelMessage, shape: PromptShape): void {
  const schema = shape.schema;
  switch (message.role) {
    case "system":
      prompt.push({ role: "system", content: message.content });
      // The schema follows the instructions, once, where a server without response formats reads it.
      if (schema !== undefined && prompt.length === 1) {
        prompt.push({ role: "system", content: schemaInstruction(schema) });
      }
      return;
    case "user":
      prompt.push({
        role: "user",
        content: [
          {
            type: "text",
            text:
              schema !== undefined && message.rejected === true
                ? `${message.content} ${schemaInstruction(schema)}`
                : message.content,
          },
        ],
      });
      return;
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
      return;
    }
    case "tool": {
      const part = {
        type: "tool-result" as const,
        toolCallId: wireCallId(message.callId),
        toolName: message.name,
        output: toolOutput(message.content, message.isError, shape),
      };
      // The results of one reply's calls go back together, as one tool message.
      const last = prompt.at(-1);
      if (last?.role === "tool")
        prompt[prompt.length - 1] = { role: "tool", content: [...last.content, part] };
      else prompt.push({ role: "tool", content: [part] });
      return;
    }
  }
}

function schemaInstruction(schema: string): string {
  return `Answer with only a JSON value, no other text, that matches this JSON Schema: ${schema}`;
}

/** `1.2` → `call_1_2`. */
export function wireCallId(id: string): string {
  return `call_${id.replace(/[^A-Za-z0-9_-]/g, "_")}`;
}

/**
 * A function's result as the format's tool result. A failure (`{ error: { code, message } }`)
 * reaches the model wrapped once: a format that wraps failures in `{ error }` itself gets what
 * is inside.
 */
function toolOutput(content: unknown, isError: boolean, shape: PromptShape): LanguageModelV4ToolResultOutput {
  if (typeof content === "string") return { type: isError ? "error-text" : "text", value: content };
  if (isError && shape.wrapsErrors === true && isErrorEnvelope(content)) {
    const inner = content.error;
    if (typeof inner === "string") return { type: "error-text", value: inner };
    return { type: "error-json", value: (JSON.parse(JSON.stringify(inner ?? null)) ?? null) as JSONValue };
  }
  if (!isError && shape.media !== undefined) {
    const parts = mediaParts(content, shape.media);
    if (parts !== undefined) return { type: "content", value: parts };
  }
  const value = (JSON.parse(JSON.stringify(content ?? null)) ?? null) as JSONValue;
  return { type: "json", value };
}

function isErrorEnvelope(content: unknown): content is { error: unknown } {
  if (typeof content !== "object" || content === null || Array.isArray(content)) return false;
  for (const key in content) if (key !== "error") return false;
  return "error" in content;
}

type ContentPart = Extract<LanguageModelV4ToolResultOutput, { type: "content" }>["value"][number];

/**
 * An MCP-shaped result (`{ content: [blocks], structuredContent? }`) with an image or a file the
 * format takes, as parts: text as text, each image or file (base64 `data` or a `resource`'s
 * `blob`) as a file part, anything else as its JSON text. Undefined when nothing in it is a
 * file the format takes, so the result goes as JSON.
 */
function mediaParts(content: unknown, media: (mediaType: string) => boolean): ContentPart[] | undefined {
  if (typeof content !== "object" || content === null) return undefined;
  const blocks = (content as { content?: unknown }).content;
  if (!Array.isArray(blocks)) return undefined;
  let files = 0;
  const parts: ContentPart[] = [];
  for (const block of blocks as unknown[]) {
    const file = fileOf(block);
    if (file !== undefined && media(file.mediaType)) {
      files += 1;
      parts.push({
        type: "file",
        data: { type: "data", data: file.data },
        mediaType: file.mediaType,
        ...(file.filename === undefined ? {} : { filename: file.filename }),
      });
    } else if (isTextBlock(block)) {
      parts.push({ type: "text", text: block.text });
    } else {
      parts.push({ type: "text", text: JSON.stringify(block) });
    }
  }
  if (files === 0) return undefined;
  const structured = (content as { structuredContent?: unknown }).structuredContent;
  if (structured !== undefined) parts.push({ type: "text", text: JSON.stringify(structured) });
  return parts;
}

function isTextBlock(block: unknown): block is { type: "text"; text: string } {
  return (
    typeof block === "object" &&
    block !== null &&
    (block as { type?: unknown }).type === "text" &&
    typeof (block as { text?: unknown }).text === "string"
  );
}

/** An image block's or an embedded resource's base64 data, with its media type. */
function fileOf(block: unknown): { data: string; mediaType: string; filename?: string } | undefined {
  if (typeof block !== "object" || block === null) return undefined;
  const { type, data, mimeType, resource } = block as Record<string, unknown>;
  if (type === "image" && typeof data === "string" && typeof mimeType === "string") {
    return { data, mediaType: mimeType };
  }
  if (type === "resource" && typeof resource === "object" && resource !== null) {
    const { blob, mimeType: resourceType, uri } = resource as Record<string, unknown>;
    if (typeof blob === "string" && typeof resourceType === "string") {
      const name = typeof uri === "string" ? uri.split("/").at(-1) : undefined;
      return {
        data: blob,
        mediaType: resourceType,
        ...(name === undefined || name === "" ? {} : { filename: name }),
      };
    }
  }
  return undefined;
}

/**
 * The functions as the provider's tools, converted again only when the list is not the one of
 * the last call: a job offers the same functions at every step. Each call gets its own copy of
 * the list; the tools in it are never changed once handed out.
 */
class ToolList {
  #functions: readonly ModelFunction[] = [];
  #tools: LanguageModelV4FunctionTool[] = [];

  of(functions: readonly ModelFunction[]): LanguageModelV4FunctionTool[] {
    const known = this.#functions;
    if (functions.length !== known.length || functions.some((fn, index) => fn !== known[index])) {
      this.#functions = functions.slice();
      this.#tools = functions.map(toTool);
    }
    return this.#tools.slice();
  }
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
  dropped: (warnings: readonly SharedV4Warning[]) => void,
): Promise<Streamed> {
  const calls: { name: string; args: unknown; wireId: string }[] = [];
  const warnings: string[] = [];
  const response: { id?: string; model?: string } = {};
  let usage: LanguageModelV4Usage | undefined;
  let finish: string | undefined;
  // The stream's reader, not its async iterator: the iterator wraps every read in promises of
  // its own. Left early (a part refused), the stream is cancelled, as `for await` would.
  const reader = stream.getReader();
  let read = false;
  try {
    for (;;) {
      const next = await reader.read();
      if (next.done) break;
      const part = next.value;
      touch();
      switch (part.type) {
        case "stream-start":
          dropped(part.warnings);
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
    read = true;
  } finally {
    if (read) reader.releaseLock();
    else await reader.cancel().catch(() => undefined);
  }
  if (finish === undefined || finish === "interrupted") {
    throw new AttemptFailure("the connection dropped before the answer was complete", { retryable: true });
  }
  return { text: relay.text, calls, usage, finish, warnings, response };
}

/** The answer of a call that did not stream, read as a streamed one would be. */
function readResult(
  result: Awaited<ReturnType<LanguageModelV4["doGenerate"]>>,
  relay: TextRelay,
  dropped: (warnings: readonly SharedV4Warning[]) => void,
): Streamed {
  dropped(result.warnings);
  const calls: { name: string; args: unknown; wireId: string }[] = [];
  for (const part of result.content as readonly LanguageModelV4Content[]) {
    if (part.type === "text") relay.add(part.text);
    else if (part.type === "tool-call" && part.providerExecuted !== true) {
      calls.push({ name: part.toolName, args: parseArgs(part.input), wireId: part.toolCallId });
    }
  }
  const response: { id?: string; model?: string } = {};
  if (result.response?.id !== undefined) response.id = result.response.id;
  if (result.response?.modelId !== undefined) response.model = result.response.modelId;
  return {
    text: relay.text,
    calls,
    usage: result.usage,
    finish: result.finishReason.unified,
    warnings: result.warnings.map(warningText),
    response,
  };
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
    ...(streamed.finish === "length" ? { cutShort: true } : {}),
  };
}

function lowest(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined ? b : b === undefined ? a : Math.min(a, b);
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

/** One call's own request options as call settings, over the model's: its provider options merged, provider by provider. */
function ownSettings(
  options: AiSdkModelOptions,
  settings: ModelOptions,
): Partial<LanguageModelV4CallOptions> {
  if (Object.keys(settings).length === 0) return {};
  if (options.requestSettings === undefined) {
    throw new Oz0Error(
      "MODEL_NOT_CONFIGURED",
      `model ${options.id} takes no request options for one call; the settings a pre_llm_call handler set (${Object.keys(settings).join(", ")}) cannot be honoured.`,
      { data: { alias: options.id, option: Object.keys(settings)[0] ?? "" } },
    );
  }
  const { providerOptions, ...rest } = options.requestSettings(settings);
  if (providerOptions === undefined) return rest;
  const merged: Record<string, unknown> = { ...options.providerOptions };
  for (const [name, value] of Object.entries(providerOptions)) {
    merged[name] = { ...(merged[name] as object | undefined), ...value };
  }
  return { ...rest, providerOptions: merged as LanguageModelV4CallOptions["providerOptions"] };
}
