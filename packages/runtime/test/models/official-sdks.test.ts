// The fake model servers the provider tests run against are only worth what their wire shapes
// are: here the official clients (`openai`, `@anthropic-ai/sdk`) stream from each of them and
// assemble the answer with their own stream helpers, which refuse events out of order or of a
// shape they do not know. A fake that drifts from the real API fails here, not in production.
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeModelServer, type WireFormat } from "./fake-servers/server.js";
import { KEY } from "./helpers.js";

const servers = new Map<WireFormat, FakeModelServer>();
beforeAll(async () => {
  for (const format of ["openai-responses", "openai-chat", "anthropic"] as const) {
    servers.set(format, await FakeModelServer.start(format, { apiKey: KEY }));
  }
});
afterAll(async () => {
  for (const server of servers.values()) await server.close();
});

const fake = (format: WireFormat) => servers.get(format)!;
const answer = {
  text: "billing queue",
  calls: [{ name: "tickets__lookup", args: { id: 7 } }],
  usage: { input: 120, output: 7, cached: 100 },
};
const lookup = {
  name: "tickets__lookup",
  description: "Look a ticket up by id.",
  parameters: { type: "object" as const, properties: { id: { type: "number" } }, required: ["id"] },
};

describe("the fake model servers, read by the official SDKs", () => {
  it("OpenAI's Responses stream assembles, in the openai SDK, into a response with the text, the call and the usage", async () => {
    const server = fake("openai-responses").reply(answer);
    const client = new OpenAI({ apiKey: KEY, baseURL: server.url, maxRetries: 0 });
    const stream = client.responses.stream({
      model: "gpt-4.1",
      input: "ticket 7",
      tools: [{ type: "function", strict: false, ...lookup }],
    });
    const texts: string[] = [];
    stream.on("response.output_text.delta", (event) => texts.push(event.delta));
    const response: OpenAI.Responses.Response = await stream.finalResponse();
    expect(response.status).toBe("completed");
    expect(response.output_text).toBe("billing queue");
    expect(texts.join("")).toBe("billing queue");
    const call = response.output.find((item) => item.type === "function_call");
    expect(call).toMatchObject({ name: "tickets__lookup", arguments: '{"id":7}' });
    expect(call?.call_id).toMatch(/^call_/);
    expect(response.usage).toMatchObject({
      input_tokens: 120,
      output_tokens: 7,
      input_tokens_details: { cached_tokens: 100 },
    });
  });

  it("OpenAI's Chat Completions stream assembles, in the openai SDK, into a completion with the text, the call and the usage", async () => {
    const server = fake("openai-chat").reply(answer);
    const client = new OpenAI({ apiKey: KEY, baseURL: server.url, maxRetries: 0 });
    const stream = client.chat.completions.stream({
      model: "gpt-4.1",
      messages: [{ role: "user", content: "ticket 7" }],
      tools: [{ type: "function", function: lookup }],
      stream_options: { include_usage: true },
    });
    const completion: OpenAI.Chat.ChatCompletion = await stream.finalChatCompletion();
    const message = completion.choices[0]?.message;
    expect(message?.content).toBe("billing queue");
    const call = message?.tool_calls?.[0];
    expect(call?.type === "function" ? call.function : undefined).toEqual({
      name: "tickets__lookup",
      arguments: '{"id":7}',
    });
    expect(completion.usage).toMatchObject({ prompt_tokens: 120, completion_tokens: 7 });
  });

  it("Anthropic's Messages stream assembles, in @anthropic-ai/sdk, into a message with the text, the tool use and the usage", async () => {
    const server = fake("anthropic").reply(answer);
    const client = new Anthropic({ apiKey: KEY, baseURL: server.url.replace(/\/v1$/, ""), maxRetries: 0 });
    const stream = client.messages.stream({
      model: "claude-sonnet-4-5",
      max_tokens: 100,
      messages: [{ role: "user", content: "ticket 7" }],
      tools: [{ name: lookup.name, description: lookup.description, input_schema: lookup.parameters }],
    });
    const message: Anthropic.Message = await stream.finalMessage();
    expect(message.content[0]).toMatchObject({ type: "text", text: "billing queue" });
    expect(message.content.find((block) => block.type === "tool_use")).toMatchObject({
      name: "tickets__lookup",
      input: { id: 7 },
    });
    expect(message.stop_reason).toBe("tool_use");
    expect(message.usage).toMatchObject({ output_tokens: 7, cache_read_input_tokens: 100 });
  });
});
