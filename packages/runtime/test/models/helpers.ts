// What the provider tests share: model requests, a model context over settings written in the
// test, and the three wire formats with the provider settings that point at each fake server.
import {
  type ModelContext,
  type ModelFunction,
  type ModelMessage,
  type ModelRequest,
  type ModelSources,
  modelResolver,
} from "../../src/models/index.js";
import { fixture } from "../jobs/dir-source.js";
import type { FakeModelServer, WireFormat } from "./fake-servers/server.js";

export const lookup: ModelFunction = {
  name: "tickets__lookup",
  description: "Look a ticket up by id.",
  inputSchema: { type: "object", properties: { id: { type: "integer" } }, required: ["id"] },
};

export function request(overrides: Partial<ModelRequest> = {}): ModelRequest {
  const messages: ModelMessage[] = [
    { role: "system", content: "You sort tickets." },
    { role: "user", content: "ticket 7" },
  ];
  return {
    step: 1,
    messages,
    functions: [lookup],
    estimatedInputTokens: 12,
    signal: new AbortController().signal,
    ...overrides,
  };
}

export function context(settings: Record<string, unknown> = {}): ModelContext {
  return { tenant: "default", pluginDir: fixture("helpdesk"), setting: async (key) => settings[key] };
}

/** Each wire format, the provider that speaks it, and the settings that point it at a server. */
export const FORMATS: readonly {
  readonly format: WireFormat;
  readonly provider: string;
  readonly model: string;
  /** The longest function name the format accepts. */
  readonly nameLimit: number;
}[] = [
  { format: "openai-responses", provider: "openai", model: "gpt-4.1", nameLimit: 64 },
  { format: "openai-chat", provider: "openai-chat", model: "gpt-4.1", nameLimit: 64 },
  { format: "openai-chat", provider: "openai-compatible", model: "qwen2.5:7b", nameLimit: 64 },
  { format: "anthropic", provider: "anthropic", model: "claude-sonnet-4-5", nameLimit: 128 },
];

export const KEY = "sk-test-0123456789abcdefghijklmnop";

/** Settings that send `provider` to `server` with a key read from OZ0_TEST_KEY, plus `extra`. */
export function pointedAt(
  server: FakeModelServer,
  provider: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    [`provider.${provider}`]: { baseUrl: server.url, apiKeyEnv: "OZ0_TEST_KEY" },
    ...extra,
  };
}

/**
 * A call's timeout no fake server's answer comes near on any machine, however loaded; a test of
 * the timeout sets a short one against a server that never answers.
 */
export const UNHURRIED_TIMEOUT_MS = 600_000;

/** A resolver that reads keys from a test environment and retries at once. */
export function resolverFor(sources: ModelSources = {}) {
  return modelResolver({
    env: { OZ0_TEST_KEY: KEY },
    policy: { baseDelayMs: 5, maxDelayMs: 20, timeoutMs: UNHURRIED_TIMEOUT_MS },
    ...sources,
  });
}
