// OpenAI's Chat Completions wire format (`POST /v1/chat/completions`), which Ollama, vLLM,
// llama.cpp's server and LM Studio also speak: `data:` chunks of `chat.completion.chunk`,
// tool calls as indexed deltas, the usage in a last chunk with no choices, then `[DONE]`; a
// request with `stream` off gets one `chat.completion` body.
import type { FormatWriter } from "./server.js";
import { pieces, sse, startStream } from "./server.js";

let counter = 0;

export const writeOpenAIChat: FormatWriter = (res, reply, request, options) => {
  const id = `chatcmpl-${++counter}`;
  const model = String(request.body.model ?? "fake");
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
    id,
    object: "chat.completion.chunk",
    created: 1_700_000_000,
    model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  if (request.body.stream !== true) {
    // A call that does not stream gets the whole completion as one JSON body.
    if ("streamError" in reply) {
      res.writeHead(500, { "content-type": "application/json" });
      res.end(
        JSON.stringify({ error: { message: reply.message ?? reply.streamError, type: reply.streamError } }),
      );
      return;
    }
    const usage = reply.usage ?? { input: 10, output: 5 };
    const calls = reply.calls ?? [];
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        id,
        object: "chat.completion",
        created: 1_700_000_000,
        model,
        choices: [
          {
            index: 0,
            message: {
              role: "assistant",
              content: reply.text ?? null,
              ...(calls.length === 0
                ? {}
                : {
                    tool_calls: calls.map((call, index) => ({
                      id: `call_${counter}_${index}`,
                      type: "function",
                      function: { name: call.name, arguments: JSON.stringify(call.args) },
                    })),
                  }),
            },
            finish_reason: calls.length > 0 ? "tool_calls" : "stop",
          },
        ],
        usage: {
          prompt_tokens: usage.input,
          completion_tokens: usage.output,
          total_tokens: usage.input + usage.output,
        },
      }),
    );
    return;
  }
  startStream(res);
  if ("streamError" in reply) {
    sse(res, { error: { message: reply.message ?? reply.streamError, type: reply.streamError } });
    res.end();
    return;
  }
  sse(res, chunk({ role: "assistant", content: "" }));
  for (const piece of pieces(reply.text ?? "")) sse(res, chunk({ content: piece }));
  if (options.stopAfterText) return;
  (reply.calls ?? []).forEach((call, index) => {
    const args = JSON.stringify(call.args);
    const half = Math.floor(args.length / 2);
    sse(
      res,
      chunk({
        tool_calls: [
          {
            index,
            id: `call_${counter}_${index}`,
            type: "function",
            function: { name: call.name, arguments: "" },
          },
        ],
      }),
    );
    sse(res, chunk({ tool_calls: [{ index, function: { arguments: args.slice(0, half) } }] }));
    sse(res, chunk({ tool_calls: [{ index, function: { arguments: args.slice(half) } }] }));
  });
  sse(res, chunk({}, (reply.calls ?? []).length > 0 ? "tool_calls" : "stop"));
  const usage = reply.usage ?? { input: 10, output: 5 };
  sse(res, {
    id,
    object: "chat.completion.chunk",
    created: 1_700_000_000,
    model,
    choices: [],
    usage: {
      prompt_tokens: usage.input,
      completion_tokens: usage.output,
      total_tokens: usage.input + usage.output,
      prompt_tokens_details: { cached_tokens: usage.cached ?? 0 },
    },
  });
  res.write("data: [DONE]\n\n");
  res.end();
};
