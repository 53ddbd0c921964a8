// OpenAI's Responses wire format (`POST /v1/responses`): named SSE events from
// `response.created` through output items (a message with `output_text` deltas, function calls
// with argument deltas) to `response.completed`, which carries the usage.
import type { FormatWriter } from "./server.js";
import { pieces, sse, startStream } from "./server.js";

let counter = 0;

export const writeOpenAIResponses: FormatWriter = (res, reply, request, options) => {
  const id = `resp_${++counter}`;
  const model = String(request.body.model ?? "fake");
  let sequence = 0;
  const send = (type: string, data: Record<string, unknown>) =>
    sse(res, { type, sequence_number: sequence++, ...data }, type);
  const response = (status: string, extra: Record<string, unknown> = {}) => ({
    id,
    object: "response",
    created_at: 1_700_000_000,
    model,
    status,
    output: [],
    ...extra,
  });
  startStream(res);
  send("response.created", { response: response("in_progress") });
  send("response.in_progress", { response: response("in_progress") });
  if ("streamError" in reply) {
    send("error", { code: reply.streamError, message: reply.message ?? reply.streamError, param: null });
    res.end();
    return;
  }
  const output: Record<string, unknown>[] = [];
  let index = 0;
  if (reply.text !== undefined) {
    const itemId = `msg_${counter}`;
    send("response.output_item.added", {
      output_index: index,
      item: { type: "message", id: itemId, status: "in_progress", role: "assistant", content: [] },
    });
    send("response.content_part.added", {
      item_id: itemId,
      output_index: index,
      content_index: 0,
      part: { type: "output_text", text: "", annotations: [] },
    });
    for (const piece of pieces(reply.text)) {
      send("response.output_text.delta", {
        item_id: itemId,
        output_index: index,
        content_index: 0,
        delta: piece,
        logprobs: [],
      });
    }
    if (options.stopAfterText) return;
    const part = { type: "output_text", text: reply.text, annotations: [] };
    send("response.output_text.done", {
      item_id: itemId,
      output_index: index,
      content_index: 0,
      text: reply.text,
    });
    send("response.content_part.done", { item_id: itemId, output_index: index, content_index: 0, part });
    const item = { type: "message", id: itemId, status: "completed", role: "assistant", content: [part] };
    send("response.output_item.done", { output_index: index, item });
    output.push(item);
    index += 1;
  }
  for (const call of reply.calls ?? []) {
    const itemId = `fc_${counter}_${index}`;
    const args = JSON.stringify(call.args);
    const base = { type: "function_call", id: itemId, call_id: `call_${counter}_${index}`, name: call.name };
    send("response.output_item.added", {
      output_index: index,
      item: { ...base, arguments: "", status: "in_progress" },
    });
    send("response.function_call_arguments.delta", { item_id: itemId, output_index: index, delta: args });
    send("response.function_call_arguments.done", { item_id: itemId, output_index: index, arguments: args });
    const item = { ...base, arguments: args, status: "completed" };
    send("response.output_item.done", { output_index: index, item });
    output.push(item);
    index += 1;
  }
  const usage = reply.usage ?? { input: 10, output: 5 };
  send("response.completed", {
    response: response("completed", {
      output,
      usage: {
        input_tokens: usage.input,
        input_tokens_details: { cached_tokens: usage.cached ?? 0 },
        output_tokens: usage.output,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: usage.input + usage.output,
      },
    }),
  });
  res.end();
};
