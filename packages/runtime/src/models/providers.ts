// The built-in provider types, each over an AI SDK provider package: OpenAI's Responses API
// (`openai`), its Chat Completions API (`openai-chat`), Anthropic's Messages API
// (`anthropic`), and any server that speaks Chat Completions (`openai-compatible`: Ollama,
// vLLM, llama.cpp's server, LM Studio). Each names the environment variables that configure it
// and the longest function name its format accepts. The packages load on first use, so a
// command that calls no model never loads them.

import type { LanguageModelV4, SharedV4ProviderOptions } from "@ai-sdk/provider";
import { MODEL_NAME_LIMITS } from "@oz0/sdk";

export const PROVIDER_TYPES = ["openai", "openai-chat", "anthropic", "openai-compatible"] as const;
export type ProviderType = (typeof PROVIDER_TYPES)[number];

/** Where a built provider sends its calls, and with what key. */
export interface Endpoint {
  /** The provider's name in the tenant, as in `name:model`. */
  readonly name: string;
  readonly baseUrl: string | undefined;
  readonly apiKey: string | undefined;
  readonly fetch?: typeof globalThis.fetch | undefined;
  /** An openai-compatible server that takes the `json_schema` response format. */
  readonly structuredOutputs?: boolean | undefined;
}

export interface BuiltinProvider {
  readonly type: ProviderType;
  readonly displayName: string;
  /** The longest function name the wire format accepts. */
  readonly nameLimit: number;
  /** The environment variables the provider of this built-in name reads. */
  readonly env: { readonly apiKey: string; readonly baseUrl: string };
  readonly defaultUrl: string | undefined;
  /** A call without a key is refused before it is made. */
  readonly keyRequired: boolean;
  /** Options for every call: oz0 checks structured answers itself, so no strict schema mode. */
  readonly providerOptions: SharedV4ProviderOptions;
  /** Which files a tool's result hands the model as parts (left out: none, results go as JSON text). */
  readonly mediaParts?: (mediaType: string) => boolean;
  /** The SDK wraps a failed call's result in `{ error }` itself for this format. */
  readonly wrapsErrors?: boolean;
  build(endpoint: Endpoint, model: string): Promise<LanguageModelV4>;
}

export const BUILTIN_PROVIDERS: Readonly<Record<ProviderType, BuiltinProvider>> = {
  openai: {
    type: "openai",
    displayName: "OpenAI (Responses API)",
    nameLimit: MODEL_NAME_LIMITS.openai,
    env: { apiKey: "OPENAI_API_KEY", baseUrl: "OPENAI_BASE_URL" },
    defaultUrl: "https://api.openai.com/v1",
    keyRequired: true,
    providerOptions: { openai: { strictJsonSchema: false } },
    // The Responses API takes images (input_image) and PDF files (input_file) in a function's output.
    mediaParts: (mediaType) => mediaType.startsWith("image/") || mediaType === "application/pdf",
    wrapsErrors: true,
    build: async (endpoint, model) => (await openai(endpoint)).responses(model),
  },
  "openai-chat": {
    type: "openai-chat",
    displayName: "OpenAI (Chat Completions API)",
    nameLimit: MODEL_NAME_LIMITS.openai,
    env: { apiKey: "OPENAI_API_KEY", baseUrl: "OPENAI_BASE_URL" },
    defaultUrl: "https://api.openai.com/v1",
    keyRequired: true,
    providerOptions: { openai: { strictJsonSchema: false } },
    wrapsErrors: true,
    build: async (endpoint, model) => (await openai(endpoint)).chat(model),
  },
  anthropic: {
    type: "anthropic",
    displayName: "Anthropic (Messages API)",
    nameLimit: MODEL_NAME_LIMITS.anthropic,
    env: { apiKey: "ANTHROPIC_API_KEY", baseUrl: "ANTHROPIC_BASE_URL" },
    defaultUrl: "https://api.anthropic.com/v1",
    keyRequired: true,
    providerOptions: {},
    // The Messages API takes images and PDF documents in a tool result.
    mediaParts: (mediaType) => mediaType.startsWith("image/") || mediaType === "application/pdf",
    build: async (endpoint, model) => {
      const { createAnthropic } = await import("@ai-sdk/anthropic");
      return createAnthropic({
        ...(endpoint.baseUrl === undefined ? {} : { baseURL: endpoint.baseUrl }),
        ...(endpoint.apiKey === undefined ? {} : { apiKey: endpoint.apiKey }),
        ...(endpoint.fetch === undefined ? {} : { fetch: endpoint.fetch }),
      }).messages(model);
    },
  },
  "openai-compatible": {
    type: "openai-compatible",
    displayName: "OpenAI-compatible server (Chat Completions)",
    nameLimit: MODEL_NAME_LIMITS.openai,
    env: { apiKey: "OPENAI_COMPATIBLE_API_KEY", baseUrl: "OPENAI_COMPATIBLE_BASE_URL" },
    defaultUrl: undefined,
    keyRequired: false,
    providerOptions: { openaiCompatible: { strictJsonSchema: false } },
    build: async (endpoint, model) => {
      const { createOpenAICompatible } = await import("@ai-sdk/openai-compatible");
      return createOpenAICompatible({
        name: endpoint.name,
        baseURL: endpoint.baseUrl ?? "",
        includeUsage: true,
        supportsStructuredOutputs: endpoint.structuredOutputs === true,
        ...(endpoint.apiKey === undefined ? {} : { apiKey: endpoint.apiKey }),
        ...(endpoint.fetch === undefined ? {} : { fetch: endpoint.fetch }),
      }).chatModel(model);
    },
  },
};

export function isProviderType(value: string): value is ProviderType {
  return (PROVIDER_TYPES as readonly string[]).includes(value);
}

async function openai(endpoint: Endpoint) {
  const { createOpenAI } = await import("@ai-sdk/openai");
  return createOpenAI({
    ...(endpoint.baseUrl === undefined ? {} : { baseURL: endpoint.baseUrl }),
    ...(endpoint.apiKey === undefined ? {} : { apiKey: endpoint.apiKey }),
    ...(endpoint.fetch === undefined ? {} : { fetch: endpoint.fetch }),
  });
}
