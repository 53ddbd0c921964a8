// Request options on the wire: what an alias and an agent set (temperature, top_p, max tokens,
// reasoning effort, stop sequences, headers, store) arrives in each format's own fields, an
// option the provider cannot honour is refused, a server that cannot stream gets whole calls,
// and structured answers are asked of OpenAI-compatible servers as they are configured to take.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ModelMessage } from "../../src/models/index.js";
import { FakeModelServer, type WireFormat } from "./fake-servers/server.js";
import { context, KEY, pointedAt, request, resolverFor } from "./helpers.js";

const resolve = resolverFor();

const servers = new Map<WireFormat, FakeModelServer>();
beforeAll(async () => {
  for (const format of ["openai-responses", "openai-chat", "anthropic"] as const) {
    servers.set(format, await FakeModelServer.start(format, { apiKey: KEY }));
  }
});
afterAll(async () => {
  for (const server of servers.values()) await server.close();
});

function server(format: WireFormat): FakeModelServer {
  return servers.get(format)!;
}

/** Settings with alias `fast` mapped to `target` with `options`, its provider pointed at the format's server. */
function aliased(format: WireFormat, provider: string, target: string, options?: Record<string, unknown>) {
  return context(
    pointedAt(server(format), provider, {
      "model.fast": options === undefined ? target : { model: target, options },
    }),
  );
}

const failing: ModelMessage[] = [
  { role: "system", content: "You sort tickets." },
  { role: "user", content: "ticket 7" },
  { role: "assistant", calls: [{ id: "1.1", name: "tickets__lookup", args: { id: 7 } }] },
  {
    role: "tool",
    callId: "1.1",
    name: "tickets__lookup",
    content: { error: { code: "TOOL_FAILED", message: "the ticket store is down" } },
    isError: true,
  },
];

describe("request options", () => {
  it("an alias's and an agent's options arrive in Chat Completions' fields, the agent's over the alias's", async () => {
    const chat = server("openai-chat");
    chat.reply({ text: "ok" });
    const model = await resolve(
      { use: "fast", options: { temperature: 0.1, headers: { "X-Agent": "triage" } } },
      aliased("openai-chat", "openai-compatible", "openai-compatible:qwen2.5:7b", {
        temperature: 0.9,
        top_p: 0.5,
        max_tokens: 300,
        reasoning_effort: "low",
        stop: ["END"],
        headers: { "X-Team": "support", "X-Agent": "alias" },
      }),
    );
    await model.generate(request());
    const sent = chat.requests.at(-1)!;
    expect(sent.body).toMatchObject({
      temperature: 0.1,
      top_p: 0.5,
      max_tokens: 300,
      reasoning_effort: "low",
      stop: ["END"],
    });
    expect(sent.headers["x-team"]).toBe("support");
    expect(sent.headers["x-agent"]).toBe("triage");
  });

  it("a request's own token cap (an MCP server's sampling maxTokens) is sent when lower than the alias's max_tokens, and the alias's when it is lower", async () => {
    // A server of its own, so the shared servers' reply counts stay the other tests'.
    const chat = await FakeModelServer.start("openai-chat", { apiKey: KEY });
    try {
      const at = (options?: Record<string, unknown>) =>
        context(
          pointedAt(chat, "openai-compatible", {
            "model.fast":
              options === undefined
                ? "openai-compatible:qwen2.5:7b"
                : { model: "openai-compatible:qwen2.5:7b", options },
          }),
        );
      const model = await resolve({ use: "fast" }, at({ max_tokens: 300 }));
      chat.reply({ text: "ok" });
      await model.generate(request({ maxOutputTokens: 40 }));
      expect(chat.requests.at(-1)?.body).toMatchObject({ max_tokens: 40 });
      chat.reply({ text: "ok" });
      await model.generate(request({ maxOutputTokens: 4000 }));
      expect(chat.requests.at(-1)?.body).toMatchObject({ max_tokens: 300 });
      const uncapped = await resolve({ use: "fast" }, at());
      chat.reply({ text: "ok" });
      await uncapped.generate(request({ maxOutputTokens: 64 }));
      expect(chat.requests.at(-1)?.body).toMatchObject({ max_tokens: 64 });
    } finally {
      await chat.close();
    }
  });

  it("store and reasoning effort reach OpenAI's Responses API", async () => {
    const responses = server("openai-responses");
    responses.reply({ text: "ok" });
    const model = await resolve(
      { use: "fast" },
      aliased("openai-responses", "openai", "openai:o4-mini", {
        store: false,
        reasoning_effort: "high",
        max_tokens: 500,
      }),
    );
    await model.generate(request());
    expect(responses.requests.at(-1)!.body).toMatchObject({
      store: false,
      reasoning: { effort: "high" },
      max_output_tokens: 500,
    });
  });

  it("temperature, top_p, stop and max tokens reach Anthropic's Messages API", async () => {
    const anthropic = server("anthropic");
    anthropic.reply({ text: "ok" });
    const model = await resolve(
      { use: "fast", options: { stop: ["###"] } },
      aliased("anthropic", "anthropic", "anthropic:claude-sonnet-4-5", { temperature: 0.3, max_tokens: 700 }),
    );
    await model.generate(request());
    expect(anthropic.requests.at(-1)!.body).toMatchObject({
      temperature: 0.3,
      max_tokens: 700,
      stop_sequences: ["###"],
    });
  });

  it("an option the provider's format lacks is refused when the model is resolved, naming where it was set", async () => {
    const before = server("openai-responses").requests.length;
    await expect(
      resolve(
        { use: "fast", options: { stop: ["END"] } },
        aliased("openai-responses", "openai", "openai:gpt-4.1"),
      ),
    ).rejects.toMatchObject({
      code: "MODEL_NOT_CONFIGURED",
      message: expect.stringMatching(
        /cannot honour stop, set by the agent's model\.options: OpenAI's Responses API has no stop sequences/,
      ),
    });
    await expect(
      resolve(
        { use: "fast" },
        aliased("anthropic", "anthropic", "anthropic:claude-sonnet-4-5", { store: true }),
      ),
    ).rejects.toMatchObject({
      code: "MODEL_NOT_CONFIGURED",
      message: expect.stringContaining("store, set by alias fast"),
    });
    expect(server("openai-responses").requests.length).toBe(before);
  });

  it("an option the provider drops for this model fails the call, never goes unheeded", async () => {
    const responses = server("openai-responses");
    responses.reply({ text: "an answer made without the temperature asked for" });
    const model = await resolve(
      { use: "fast" },
      aliased("openai-responses", "openai", "openai:o3", { temperature: 0.2 }),
    );
    await expect(model.generate(request())).rejects.toMatchObject({
      code: "MODEL_CALL_FAILED",
      message: expect.stringMatching(
        /openai:o3 cannot honour temperature, set by alias fast \(.*reasoning models.*\); remove temperature there/,
      ),
      data: { retryable: false, attempts: 1 },
    });
  });

  it("a reasoning effort asked of a model without reasoning fails the call, never goes unheeded", async () => {
    const responses = server("openai-responses");
    responses.reply({ text: "an answer made without reasoning" });
    const model = await resolve(
      { use: "fast", options: { reasoning_effort: "high" } },
      aliased("openai-responses", "openai", "openai:gpt-4.1"),
    );
    await expect(model.generate(request())).rejects.toMatchObject({
      code: "MODEL_CALL_FAILED",
      message: expect.stringContaining(
        "openai:gpt-4.1 cannot honour reasoning_effort, set by the agent's model.options (reasoningEffort is not supported for non-reasoning models)",
      ),
    });
  });
});

describe("streaming", () => {
  it("an alias set not to stream makes each call whole, and still returns text and calls", async () => {
    const chat = server("openai-chat");
    chat.reply({
      text: "looking",
      calls: [{ name: "tickets__lookup", args: { id: 7 } }],
      usage: { input: 40, output: 9 },
    });
    const model = await resolve(
      { use: "fast" },
      aliased("openai-chat", "openai-compatible", "openai-compatible:llama3", { stream: false }),
    );
    const pieces: string[] = [];
    const reply = await model.generate(request({ onText: (delta) => pieces.push(delta) }));
    expect(chat.requests.at(-1)!.body.stream).not.toBe(true);
    expect(reply.calls).toEqual([
      { name: "tickets__lookup", args: { id: 7 }, wireId: expect.stringMatching(/^call_\d+_0$/) },
    ]);
    expect(reply.text).toBe("looking");
    expect(pieces).toEqual(["looking"]);
    expect(reply.usage).toMatchObject({ inputTokens: 40, outputTokens: 9 });
  });

  it("a provider set not to stream makes whole calls for every alias on it", async () => {
    const chat = server("openai-chat");
    chat.reply({ text: "ok" });
    const settings = {
      "provider.ollama": {
        type: "openai-compatible",
        baseUrl: chat.url,
        apiKeyEnv: "OZ0_TEST_KEY",
        stream: false,
      },
      "model.fast": "ollama:qwen2.5:7b",
    };
    const model = await resolve({ use: "fast" }, context(settings));
    await model.generate(request());
    expect(chat.requests.at(-1)!.body.stream).not.toBe(true);
  });
});

describe("structured output on OpenAI-compatible servers", () => {
  const schema = {
    type: "object",
    properties: { queue: { type: "string" } },
    required: ["queue"],
  } as const;

  it("a server set to json_schema gets the schema as its response format", async () => {
    const chat = server("openai-chat");
    chat.reply({ text: '{"queue":"billing"}' });
    const model = await resolve(
      { use: "fast" },
      aliased("openai-chat", "openai-compatible", "openai-compatible:qwen2.5:7b", {
        structured_output: "json_schema",
      }),
    );
    const reply = await model.generate(request({ functions: [], outputSchema: schema }));
    expect(chat.requests.at(-1)!.body.response_format).toMatchObject({
      type: "json_schema",
      json_schema: { schema: { properties: { queue: { type: "string" } } } },
    });
    expect(reply.output).toEqual({ queue: "billing" });
  });

  it("any other server gets the schema in the prompt and in the retry message, and no response format", async () => {
    const chat = server("openai-chat");
    chat.reply({ text: '{"queue":"billing"}' });
    const model = await resolve(
      { use: "fast" },
      aliased("openai-chat", "openai-compatible", "openai-compatible:qwen2.5:7b"),
    );
    await model.generate(
      request({
        functions: [],
        outputSchema: schema,
        messages: [
          { role: "system", content: "You sort tickets." },
          { role: "user", content: "ticket 7" },
          { role: "assistant", calls: [], text: "billing" },
          { role: "user", content: "Your answer does not match the output schema: …", rejected: true },
        ],
      }),
    );
    const body = chat.requests.at(-1)!.body;
    expect(body.response_format).toBeUndefined();
    const messages = body.messages as { role: string; content: unknown }[];
    const schemaText = JSON.stringify(schema);
    expect(
      messages.filter((message) => message.role === "system").map((message) => message.content),
    ).toContain(`Answer with only a JSON value, no other text, that matches this JSON Schema: ${schemaText}`);
    expect(String(messages.at(-1)!.content)).toContain(schemaText);
  });

  it("structured_output set for a provider that asks for the schema its own way is refused", async () => {
    await expect(
      resolve(
        { use: "fast" },
        aliased("openai-chat", "openai-chat", "openai-chat:gpt-4.1", { structured_output: "prompt" }),
      ),
    ).rejects.toMatchObject({
      code: "MODEL_NOT_CONFIGURED",
      message: expect.stringContaining("openai-compatible servers only"),
    });
  });
});

describe("tool results", () => {
  it.each([
    ["openai-responses", "openai", "openai:gpt-4.1"],
    ["openai-chat", "openai-chat", "openai-chat:gpt-4.1"],
    ["openai-chat", "openai-compatible", "openai-compatible:qwen2.5:7b"],
    ["anthropic", "anthropic", "anthropic:claude-sonnet-4-5"],
  ] as const)("a tool's failure reaches %s (%s) wrapped once", async (format, provider, target) => {
    const fake = server(format);
    fake.reply({ text: "sorry" });
    const model = await resolve({ use: target }, context(pointedAt(fake, provider)));
    await model.generate(request({ step: 2, messages: failing }));
    const sent = JSON.stringify(fake.requests.at(-1)!.body);
    const once = JSON.stringify(
      JSON.stringify({ error: { code: "TOOL_FAILED", message: "the ticket store is down" } }),
    );
    expect(sent).toContain(once.slice(1, -1));
    expect(sent).not.toContain('{\\"error\\":{\\"error\\"');
  });

  const png = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex").toString("base64");
  const withImage: ModelMessage[] = [
    { role: "system", content: "You read screenshots." },
    { role: "user", content: "what does the screen say?" },
    { role: "assistant", calls: [{ id: "1.1", name: "screen__shot", args: {} }] },
    {
      role: "tool",
      callId: "1.1",
      name: "screen__shot",
      content: {
        content: [
          { type: "text", text: "the login page" },
          { type: "image", data: png, mimeType: "image/png" },
        ],
      },
      isError: false,
    },
  ];

  it("a tool's image reaches OpenAI's Responses API as an input_image part, not as base64 in JSON text", async () => {
    const responses = server("openai-responses");
    responses.reply({ text: "it says log in" });
    const model = await resolve({ use: "openai:gpt-4.1" }, context(pointedAt(responses, "openai")));
    await model.generate(request({ step: 2, messages: withImage }));
    const input = responses.requests.at(-1)!.body.input as Record<string, unknown>[];
    const output = input.find((item) => item.type === "function_call_output")?.output;
    expect(output).toEqual([
      { type: "input_text", text: "the login page" },
      expect.objectContaining({ type: "input_image", image_url: `data:image/png;base64,${png}` }),
    ]);
  });

  it("a tool's image reaches Anthropic's Messages API as an image block of the tool result", async () => {
    const anthropic = server("anthropic");
    anthropic.reply({ text: "it says log in" });
    const model = await resolve(
      { use: "anthropic:claude-sonnet-4-5" },
      context(pointedAt(anthropic, "anthropic")),
    );
    await model.generate(request({ step: 2, messages: withImage }));
    const messages = anthropic.requests.at(-1)!.body.messages as { content: Record<string, unknown>[] }[];
    const result = messages.at(-1)!.content.find((block) => block.type === "tool_result");
    expect(result?.content).toEqual([
      { type: "text", text: "the login page" },
      { type: "image", source: { type: "base64", media_type: "image/png", data: png } },
    ]);
  });

  const pdf = Buffer.from("%PDF-1.4\n%%EOF\n").toString("base64");
  const withFile: ModelMessage[] = [
    { role: "system", content: "You read invoices." },
    { role: "user", content: "what is the total?" },
    { role: "assistant", calls: [{ id: "1.1", name: "files__read", args: {} }] },
    {
      role: "tool",
      callId: "1.1",
      name: "files__read",
      content: {
        content: [
          { type: "text", text: "the invoice" },
          {
            type: "resource",
            resource: { uri: "file:///srv/invoice.pdf", mimeType: "application/pdf", blob: pdf },
          },
        ],
      },
      isError: false,
    },
  ];

  it("a tool's PDF reaches OpenAI's Responses API as an input_file part", async () => {
    const responses = server("openai-responses");
    responses.reply({ text: "12 euros" });
    const model = await resolve({ use: "openai:gpt-4.1" }, context(pointedAt(responses, "openai")));
    await model.generate(request({ step: 2, messages: withFile }));
    const input = responses.requests.at(-1)!.body.input as Record<string, unknown>[];
    const output = input.find((item) => item.type === "function_call_output")?.output;
    expect(output).toEqual([
      { type: "input_text", text: "the invoice" },
      expect.objectContaining({ type: "input_file", file_data: `data:application/pdf;base64,${pdf}` }),
    ]);
  });

  it("a tool's PDF reaches Anthropic's Messages API as a document block of the tool result", async () => {
    const anthropic = server("anthropic");
    anthropic.reply({ text: "12 euros" });
    const model = await resolve(
      { use: "anthropic:claude-sonnet-4-5" },
      context(pointedAt(anthropic, "anthropic")),
    );
    await model.generate(request({ step: 2, messages: withFile }));
    const messages = anthropic.requests.at(-1)!.body.messages as { content: Record<string, unknown>[] }[];
    const result = messages.at(-1)!.content.find((block) => block.type === "tool_result");
    expect(result?.content).toEqual([
      { type: "text", text: "the invoice" },
      expect.objectContaining({
        type: "document",
        source: { type: "base64", media_type: "application/pdf", data: pdf },
      }),
    ]);
  });

  it("a tool's image reaches Chat Completions, whose tool messages take text only, as the result's JSON", async () => {
    const chat = server("openai-chat");
    chat.reply({ text: "it says log in" });
    const model = await resolve({ use: "openai-chat:gpt-4.1" }, context(pointedAt(chat, "openai-chat")));
    await model.generate(request({ step: 2, messages: withImage }));
    const messages = chat.requests.at(-1)!.body.messages as { role: string; content: unknown }[];
    const tool = messages.find((message) => message.role === "tool");
    expect(typeof tool?.content).toBe("string");
    expect(JSON.parse(String(tool?.content))).toEqual({
      content: [
        { type: "text", text: "the login page" },
        { type: "image", data: png, mimeType: "image/png" },
      ],
    });
  });
});
