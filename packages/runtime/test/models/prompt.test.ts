// The adapter's prompt across a job's steps: each message is converted once, when it is added,
// so a step's cost does not grow with the job; a message rewritten since is converted again.
import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4Prompt } from "@ai-sdk/provider";
import { describe, expect, test } from "vitest";
import {
  aiSdkModel,
  CALL_POLICY_DEFAULTS,
  Conversation,
  type ModelMessage,
  type ModelRequest,
} from "../../src/models/index.js";

/** A model that answers "ok" at once and keeps every prompt it was given. */
function recording(): { model: LanguageModelV4; prompts: LanguageModelV4Prompt[] } {
  const prompts: LanguageModelV4Prompt[] = [];
  const model = {
    specificationVersion: "v4",
    provider: "rec",
    modelId: "rec",
    supportedUrls: {},
    doGenerate: async () => {
      throw new Error("streams only");
    },
    doStream: async (options: LanguageModelV4CallOptions) => {
      prompts.push(options.prompt);
      const parts = [
        { type: "stream-start", warnings: [] },
        { type: "text-delta", id: "t", delta: "ok" },
        {
          type: "finish",
          finishReason: { unified: "stop", raw: "stop" },
          usage: { inputTokens: { total: 1 }, outputTokens: { total: 1 } },
        },
      ];
      return {
        stream: new ReadableStream({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  } as unknown as LanguageModelV4;
  return { model, prompts };
}

function modelOver(model: LanguageModelV4) {
  return aiSdkModel({
    id: "rec:rec",
    model,
    nameLimit: 64,
    policy: CALL_POLICY_DEFAULTS,
    secrets: [],
    keyHelp: "",
  });
}

const request = (
  step: number,
  messages: readonly ModelMessage[],
  conversation: Conversation,
): ModelRequest => ({
  step,
  messages,
  functions: [],
  estimatedInputTokens: 0,
  signal: new AbortController().signal,
  conversation,
});

/** A conversation of `steps` steps, one call and its result each. */
function conversation(steps: number): ModelMessage[] {
  const messages: ModelMessage[] = [
    { role: "system", content: "Be brief." },
    { role: "user", content: "go" },
  ];
  for (let step = 1; step <= steps; step++) {
    messages.push({ role: "assistant", calls: [{ id: `${step}.1`, name: "math__add", args: { a: step } }] });
    messages.push({
      role: "tool",
      callId: `${step}.1`,
      name: "math__add",
      content: step + 1,
      isError: false,
    });
  }
  return messages;
}

describe("the prompt of a job's steps", () => {
  test("a message is converted once, at the step that added it, not again at every later step", async () => {
    const { model, prompts } = recording();
    const adapter = modelOver(model);
    const ongoing = new Conversation();
    const messages = conversation(3);
    await adapter.generate(request(4, messages.slice(0, 6), ongoing));
    await adapter.generate(request(5, messages, ongoing));
    const [first, second] = prompts;
    expect(first).toHaveLength(6);
    expect(second).toHaveLength(8);
    // The same entries, not equal copies: the earlier messages were not converted again.
    for (let index = 0; index < 6; index++) expect(second![index]).toBe(first![index]);
    expect(second![7]).toEqual({
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: "call_3_1",
          toolName: "math__add",
          output: { type: "json", value: 4 },
        },
      ],
    });
  });

  test("a message a pre_llm_call handler rewrote is converted again, with the ones after it", async () => {
    const { model, prompts } = recording();
    const adapter = modelOver(model);
    const ongoing = new Conversation();
    const messages = conversation(2);
    await adapter.generate(request(3, messages, ongoing));
    const rewritten = [...messages];
    rewritten[3] = { role: "tool", callId: "1.1", name: "math__add", content: "[redacted]", isError: false };
    await adapter.generate(request(3, rewritten, ongoing));
    const [first, second] = prompts;
    expect(second).toHaveLength(6);
    for (let index = 0; index < 3; index++) expect(second![index]).toBe(first![index]);
    expect(second![3]).toMatchObject({
      role: "tool",
      content: [{ output: { type: "text", value: "[redacted]" } }],
    });
    expect(second![4]).toEqual(first![4]);
    // The prompt the model was given first is as it was.
    expect(first![3]).toMatchObject({ content: [{ output: { type: "json", value: 2 } }] });
  });

  test("the results of one reply's calls go back as one tool message, and an earlier prompt keeps its own", async () => {
    const { model, prompts } = recording();
    const adapter = modelOver(model);
    const ongoing = new Conversation();
    const messages: ModelMessage[] = [
      { role: "system", content: "s" },
      { role: "user", content: "u" },
      {
        role: "assistant",
        calls: [
          { id: "1.1", name: "f", args: {} },
          { id: "1.2", name: "f", args: {} },
        ],
      },
      { role: "tool", callId: "1.1", name: "f", content: 1, isError: false },
    ];
    await adapter.generate(request(2, messages, ongoing));
    await adapter.generate(
      request(
        2,
        [...messages, { role: "tool", callId: "1.2", name: "f", content: 2, isError: false }],
        ongoing,
      ),
    );
    const [first, second] = prompts;
    expect(first![3]).toMatchObject({ role: "tool", content: [{ toolCallId: "call_1_1" }] });
    expect(first![3]!.content).toHaveLength(1);
    expect(second).toHaveLength(4);
    expect(second![3]!.content).toHaveLength(2);
  });

  test("a request that carries no conversation has its prompt converted anew", async () => {
    const { model, prompts } = recording();
    const adapter = modelOver(model);
    const messages = conversation(1);
    const alone = { ...request(2, messages, new Conversation()), conversation: undefined };
    await adapter.generate(alone);
    await adapter.generate(alone);
    expect(prompts[1]).toEqual(prompts[0]);
    expect(prompts[1]![2]).not.toBe(prompts[0]![2]);
  });

  test("another job run's prompt is its own", async () => {
    const { model, prompts } = recording();
    const adapter = modelOver(model);
    const messages = conversation(1);
    await adapter.generate(request(2, messages, new Conversation()));
    await adapter.generate(request(2, messages, new Conversation()));
    expect(prompts[1]).toEqual(prompts[0]);
    expect(prompts[1]![2]).not.toBe(prompts[0]![2]);
  });
});

describe("a step's tools and stream", () => {
  /** A model whose stream is `parts`, keeping the tools of every call and whether its stream was cancelled. */
  function streaming(parts: readonly unknown[]) {
    const tools: unknown[] = [];
    const cancelled: boolean[] = [];
    const model = {
      specificationVersion: "v4",
      provider: "rec",
      modelId: "rec",
      supportedUrls: {},
      doGenerate: async () => {
        throw new Error("streams only");
      },
      doStream: async (options: LanguageModelV4CallOptions) => {
        tools.push(options.tools);
        const at = cancelled.push(false) - 1;
        return {
          stream: new ReadableStream({
            start(controller) {
              for (const part of parts) controller.enqueue(part);
              controller.close();
            },
            cancel() {
              cancelled[at] = true;
            },
          }),
        };
      },
    } as unknown as LanguageModelV4;
    return { model, tools, cancelled };
  }
  const ok = [
    { type: "stream-start", warnings: [] },
    { type: "text-delta", id: "t", delta: "ok" },
    {
      type: "finish",
      finishReason: { unified: "stop", raw: "stop" },
      usage: { inputTokens: { total: 1 }, outputTokens: { total: 1 } },
    },
  ];
  const add = { name: "math__add", description: "Add.", inputSchema: { type: "object" as const } };
  const sub = { name: "math__sub", description: "Subtract.", inputSchema: { type: "object" as const } };

  test("the same functions become the same tools at every call, each call with its own list", async () => {
    const { model, tools } = streaming(ok);
    const adapter = modelOver(model);
    const messages = conversation(0);
    const call = (functions: readonly (typeof add)[]) =>
      adapter.generate({ ...request(1, messages, new Conversation()), functions });
    await call([add]);
    await call([add]);
    await call([add, sub]);
    const [first, second, third] = tools as { name: string }[][];
    expect(first).toEqual([
      { type: "function", name: "math__add", description: "Add.", inputSchema: { type: "object" } },
    ]);
    expect(second).not.toBe(first);
    expect(second![0]).toBe(first![0]);
    expect(third!.map((tool) => tool.name)).toEqual(["math__add", "math__sub"]);
  });

  test("a stream read to its end is not cancelled, and one refused mid-way is", async () => {
    const read = streaming(ok);
    expect((await modelOver(read.model).generate(request(1, conversation(0), new Conversation()))).text).toBe(
      "ok",
    );
    expect(read.cancelled).toEqual([false]);
    const refused = streaming([
      { type: "stream-start", warnings: [] },
      { type: "error", error: { type: "invalid_request_error", message: "no" } },
      ...ok.slice(1),
    ]);
    const failed = modelOver(refused.model).generate(request(1, conversation(0), new Conversation()));
    await expect(failed).rejects.toThrow("invalid_request_error");
    expect(refused.cancelled).toEqual([true]);
  });
});
