// Anthropic's Messages wire format (`POST /v1/messages`): named SSE events, `message_start`
// with the input usage, content blocks (text deltas, tool_use with `input_json_delta`),
// `message_delta` with the stop reason and output usage, then `message_stop`.
import type { FormatWriter } from "./server.js";
import { pieces, sse, startStream } from "./server.js";

let counter = 0;

export const writeAnthropic: FormatWriter = (res, reply, request, options) => {
  const id = `msg_${++counter}`;
  const model = String(request.body.model ?? "fake");
  const send = (type: string, data: Record<string, unknown>) => sse(res, { type, ...data }, type);
  const usage = "streamError" in reply ? { input: 1, output: 0 } : (reply.usage ?? { input: 10, output: 5 });
  startStream(res);
  send("message_start", {
    message: {
      id,
      type: "message",
      role: "assistant",
      content: [],
      model,
      stop_reason: null,
      stop_sequence: null,
      usage: {
        input_tokens: usage.input - (usage.cached ?? 0) - (usage.written ?? 0),
        cache_read_input_tokens: usage.cached ?? 0,
        cache_creation_input_tokens: usage.written ?? 0,
        output_tokens: 1,
      },
    },
  });
  send("ping", {});
  if ("streamError" in reply) {
    send("error", { error: { type: reply.streamError, message: reply.message ?? reply.streamError } });
    res.end();
    return;
  }
  let index = 0;
  if (reply.text !== undefined) {
    send("content_block_start", { index, content_block: { type: "text", text: "" } });
    for (const piece of pieces(reply.text)) {
      send("content_block_delta", { index, delta: { type: "text_delta", text: piece } });
    }
    if (options.stopAfterText) return;
    send("content_block_stop", { index });
    index += 1;
  }
  for (const call of reply.calls ?? []) {
    const args = JSON.stringify(call.args);
    const half = Math.floor(args.length / 2);
    send("content_block_start", {
      index,
      content_block: { type: "tool_use", id: `toolu_${counter}_${index}`, name: call.name, input: {} },
    });
    send("content_block_delta", {
      index,
      delta: { type: "input_json_delta", partial_json: args.slice(0, half) },
    });
    send("content_block_delta", {
      index,
      delta: { type: "input_json_delta", partial_json: args.slice(half) },
    });
    send("content_block_stop", { index });
    index += 1;
  }
  send("message_delta", {
    delta: { stop_reason: (reply.calls ?? []).length > 0 ? "tool_use" : "end_turn", stop_sequence: null },
    usage: { output_tokens: usage.output },
  });
  send("message_stop", {});
  res.end();
};
