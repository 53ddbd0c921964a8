// Request options (temperature, top_p, max_tokens, reasoning effort, stop sequences, extra
// headers, OpenAI's `store`) and a server's call settings (streaming, how structured answers
// are asked for): read from an alias (`oz0 model set … --temperature 0.2`), a provider
// (`oz0 provider set … --no-stream`) and an agent's `model.options`, merged (the agent's over
// the alias's, header by header; the alias's over the provider's), checked against what the
// provider's wire format can honour, and turned into the AI SDK call's settings once per model.
// An option a provider cannot honour is refused with where it was set, never dropped.
import type { LanguageModelV4CallOptions, SharedV4ProviderOptions } from "@ai-sdk/provider";
import {
  type AliasOptions,
  aliasOptionsSchema,
  type ModelOptions,
  Oz0Error,
  type STRUCTURED_OUTPUT_MODES,
} from "@oz0/sdk";
import type { ProviderType } from "./providers.js";

export type RequestOptionName = keyof ModelOptions;
export type StructuredOutput = (typeof STRUCTURED_OUTPUT_MODES)[number];

/** Where a model's options were set, for the messages that refuse one. */
export interface OptionSources {
  /** `alias fast`, or undefined for a model named directly. */
  readonly alias?: string | undefined;
  readonly aliasOptions?: AliasOptions | undefined;
  /** The provider's settings (`oz0 provider set`). */
  readonly provider?:
    | { readonly stream?: boolean; readonly structured_output?: StructuredOutput }
    | undefined;
  /** The agent's (or its plugin's) `model.options`. */
  readonly agentOptions?: ModelOptions | undefined;
}

/** The options of one model, merged, with where each request option came from. */
export interface MergedOptions {
  readonly request: ModelOptions;
  readonly from: Readonly<Partial<Record<RequestOptionName, string>>>;
  readonly stream: boolean;
  /** Set only for a server that offers the choice (openai-compatible). */
  readonly structuredOutput?: StructuredOutput;
}

/** The kind of provider, for what it honours: a built-in type, a plugin's, or the offline test model. */
export type ProviderKind = ProviderType | "plugin" | "test";

const STANDARD: readonly RequestOptionName[] = [
  "temperature",
  "top_p",
  "max_tokens",
  "reasoning_effort",
  "stop",
  "headers",
];

/**
 * The request options each kind of provider honours. OpenAI's Responses API has no stop
 * sequences; `store` is OpenAI's alone; a plugin's provider gets the AI SDK's standard settings.
 * The offline test model answers from its script whatever is set, so it takes them all.
 */
const HONOURED: Readonly<Record<ProviderKind, ReadonlySet<RequestOptionName>>> = {
  openai: new Set(["temperature", "top_p", "max_tokens", "reasoning_effort", "headers", "store"]),
  "openai-chat": new Set([...STANDARD, "store"]),
  anthropic: new Set(STANDARD),
  "openai-compatible": new Set(STANDARD),
  plugin: new Set(STANDARD),
  test: new Set([...STANDARD, "store"]),
};

const WHY_NOT: Partial<Record<RequestOptionName, string>> = {
  stop: "OpenAI's Responses API has no stop sequences (openai-chat:<model> has)",
  store: "store is OpenAI's (the openai and openai-chat providers)",
};

/** The server's default for structured answers: openai-compatible servers get the schema in the prompt unless told they take json_schema. */
const DEFAULT_STRUCTURED: StructuredOutput = "prompt";

/**
 * Merges a model's options and checks the provider honours each; throws MODEL_NOT_CONFIGURED
 * naming the option, where it was set and how to fix it.
 */
export function mergeOptions(kind: ProviderKind, model: string, sources: OptionSources): MergedOptions {
  const alias = sources.aliasOptions ?? {};
  const agent = sources.agentOptions ?? {};
  const aliasName = sources.alias === undefined ? undefined : `alias ${sources.alias}`;
  const request: Record<string, unknown> = {};
  const from: Partial<Record<RequestOptionName, string>> = {};
  for (const [key, value] of Object.entries(alias) as [string, unknown][]) {
    if (key === "stream" || key === "structured_output" || value === undefined) continue;
    request[key] = value;
    from[key as RequestOptionName] = aliasName ?? "the alias";
  }
  for (const [key, value] of Object.entries(agent) as [RequestOptionName, unknown][]) {
    if (value === undefined) continue;
    request[key] =
      key === "headers" ? mergeHeaders(request.headers as Record<string, string>, agent.headers) : value;
    from[key] = "the agent's model.options";
  }
  const honoured = HONOURED[kind];
  for (const key of Object.keys(request) as RequestOptionName[]) {
    if (honoured.has(key)) continue;
    throw new Oz0Error(
      "MODEL_NOT_CONFIGURED",
      `model ${model} cannot honour ${key}, set by ${from[key]}: ${WHY_NOT[key] ?? `the ${kind} provider has no ${key}`}. ` +
        `Remove ${key} there, or choose a model whose provider has it.`,
      { data: { alias: sources.alias ?? model, option: key } },
    );
  }
  const temperature = request.temperature as number | undefined;
  if (kind === "anthropic" && temperature !== undefined && temperature > 1) {
    throw new Oz0Error(
      "MODEL_NOT_CONFIGURED",
      `model ${model} cannot honour temperature ${temperature}, set by ${from.temperature}: Anthropic's temperature is from 0 to 1. Set one in that range there.`,
      { data: { alias: sources.alias ?? model, option: "temperature" } },
    );
  }
  const stream = alias.stream ?? sources.provider?.stream ?? true;
  const structured = alias.structured_output ?? sources.provider?.structured_output;
  if (kind === "test" && (alias.stream !== undefined || alias.structured_output !== undefined)) {
    throw new Oz0Error(
      "MODEL_NOT_CONFIGURED",
      `model ${model} is the offline test model, which calls no server: stream and structured_output do not apply to it (${aliasName ?? "the alias"}).`,
      {
        data: {
          alias: sources.alias ?? model,
          option: alias.stream !== undefined ? "stream" : "structured_output",
        },
      },
    );
  }
  if (structured !== undefined && kind !== "openai-compatible") {
    throw new Oz0Error(
      "MODEL_NOT_CONFIGURED",
      `model ${model}: structured_output applies to openai-compatible servers only; the ${kind} provider asks for the schema its own way. ` +
        `Remove it from ${alias.structured_output !== undefined ? (aliasName ?? "the alias") : "the provider"}.`,
      { data: { alias: sources.alias ?? model, option: "structured_output" } },
    );
  }
  return {
    request: request as ModelOptions,
    from,
    stream,
    ...(kind === "openai-compatible" ? { structuredOutput: structured ?? DEFAULT_STRUCTURED } : {}),
  };
}

/** The alias's headers with the agent's over them, a name in any case replacing the same name. */
function mergeHeaders(
  alias: Readonly<Record<string, string>> | undefined,
  agent: Readonly<Record<string, string>> | undefined,
): Record<string, string> {
  const names = new Set(Object.keys(agent ?? {}).map((name) => name.toLowerCase()));
  const kept = Object.entries(alias ?? {}).filter(([name]) => !names.has(name.toLowerCase()));
  return { ...Object.fromEntries(kept), ...agent };
}

/**
 * The AI SDK call settings of the request options: computed once per model, spread into every
 * call. OpenAI's formats get the reasoning effort as their own option, which the SDK reports
 * when a model has no reasoning (the portable setting it drops without a word).
 */
export function callSettings(
  kind: ProviderKind,
  request: ModelOptions,
): Pick<
  LanguageModelV4CallOptions,
  "temperature" | "topP" | "maxOutputTokens" | "reasoning" | "stopSequences" | "headers"
> & { providerOptions?: SharedV4ProviderOptions } {
  const openai = kind === "openai" || kind === "openai-chat";
  const own = {
    ...(openai && request.store !== undefined ? { store: request.store } : {}),
    ...(openai && request.reasoning_effort !== undefined
      ? { reasoningEffort: request.reasoning_effort }
      : {}),
  };
  return {
    ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    ...(request.top_p === undefined ? {} : { topP: request.top_p }),
    ...(request.max_tokens === undefined ? {} : { maxOutputTokens: request.max_tokens }),
    ...(request.reasoning_effort === undefined || openai ? {} : { reasoning: request.reasoning_effort }),
    ...(request.stop === undefined ? {} : { stopSequences: [...request.stop] }),
    ...(request.headers === undefined ? {} : { headers: { ...request.headers } }),
    ...(Object.keys(own).length === 0 ? {} : { providerOptions: { openai: own } }),
  };
}

/** The AI SDK warning features that name each request option, to refuse a call whose provider dropped one. */
export const OPTION_FEATURES: Readonly<Record<string, RequestOptionName>> = {
  temperature: "temperature",
  topP: "top_p",
  maxOutputTokens: "max_tokens",
  reasoning: "reasoning_effort",
  reasoningEffort: "reasoning_effort",
  stopSequences: "stop",
  store: "store",
};

/**
 * Checks an alias's options as `oz0 model set` gets them: unknown options and values out of
 * range are refused with INVALID_INPUT, naming each.
 */
export function checkAliasOptions(options: unknown): AliasOptions {
  const checked = aliasOptionsSchema.safeParse(options);
  if (checked.success) return checked.data;
  const issues = checked.error.issues.flatMap((issue) =>
    // A header name's problem is nested in the record's issue.
    (issue.code === "invalid_key" ? (issue.issues[0]?.message ?? issue.message) : issue.message)
      .split("\n")
      .map((message) => ({ path: issue.path.map(String).join(".") || "options", message })),
  );
  throw new Oz0Error(
    "INVALID_INPUT",
    `${issues
      .map((issue) => (issue.path === "options" ? issue.message : `${issue.path}: ${issue.message}`))
      .join("; ")
      .replace(/[^.?!]$/, "$&.")}`,
    { data: { issues } },
  );
}
