// A model call as hooks see it and back: the loop's messages and functions become the
// catalogue's HookMessage and FunctionDescription, its reply a ModelResponse; what a handler
// returns is read back leniently, keeping what it did not change.
import type { HookPayload } from "@oz0/sdk";
import {
  keptPrefix,
  type ModelCall,
  type ModelFunction,
  type ModelMessage,
  type ModelReply,
} from "../models/index.js";

type HookMessage = HookPayload<"pre_llm_call">["messages"][number];
type FunctionDescription = HookPayload<"pre_llm_call">["tools"][number];
type ModelResponse = HookPayload<"post_llm_call">["response"];

/**
 * A message with a `content`: text for system and user messages, the answer's text (or
 * null) for an assistant, the result for a tool; the other fields of the loop's message stay.
 */
function hookMessage(message: ModelMessage): HookMessage {
  return message.role === "assistant" ? { ...message, content: message.text ?? null } : message;
}

/**
 * One job run's messages as hooks see them, kept between steps: the history only grows, so a
 * step turns only the messages added since into hook messages, and a step costs the same at
 * every length of the job. Each call hands out a new list, so a handler that changes its list
 * changes nothing kept here. A message not the one seen at its place is turned again.
 */
export class HookMessages {
  #messages: ModelMessage[] = [];
  #views: HookMessage[] = [];
  #source: readonly ModelMessage[] | undefined;

  of(messages: readonly ModelMessage[]): HookMessage[] {
    const known = this.#messages;
    const kept = keptPrefix(known, messages, this.#source);
    this.#source = messages;
    known.length = kept;
    this.#views.length = kept;
    for (let index = kept; index < messages.length; index++) {
      const message = messages[index]!;
      known.push(message);
      // Frozen, as the payload is: a view is handed out again at every later step.
      this.#views.push(
        message.role === "assistant" ? Object.freeze(hookMessage(message)) : hookMessage(message),
      );
    }
    return this.#views.slice();
  }
}

/** Messages a handler returned, as the loop's: what cannot be read as one is an error. */
export function modelMessages(messages: readonly unknown[]): ModelMessage[] {
  return messages.map((value, index) => {
    const message = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>;
    switch (message.role) {
      case "system":
        return { role: message.role, content: asText(message.content) };
      case "user":
        // A retry message for a structured answer stays one, so a server told the schema in the prompt is told it again.
        return {
          role: message.role,
          content: asText(message.content),
          ...(message.rejected === true ? { rejected: true } : {}),
        };
      case "assistant":
        return {
          role: "assistant",
          text: typeof message.content === "string" ? message.content : (message.text as string | undefined),
          calls: Array.isArray(message.calls) ? (message.calls as ModelCall[]) : [],
          ...(message.output === undefined ? {} : { output: message.output }),
        };
      case "tool":
        return {
          role: "tool",
          callId: String(message.callId ?? ""),
          name: String(message.name ?? ""),
          content: message.content,
          isError: message.isError === true,
        };
      default:
        throw new Error(
          `pre_llm_call: message ${index} a handler returned has role ${JSON.stringify(message.role)}; a message's role is system, user, assistant or tool`,
        );
    }
  });
}

export function functionDescriptions(
  functions: readonly ModelFunction[],
  addressOf: (name: string) => string,
): FunctionDescription[] {
  return functions.map((fn) => ({
    name: fn.name,
    address: addressOf(fn.name),
    description: fn.description,
    inputSchema: fn.inputSchema,
  }));
}

/**
 * The functions a handler kept, in its order. A model is only offered functions the agent may
 * call, so a name the job does not offer is left out, and a kept function keeps its schema.
 */
export function keptFunctions(
  offered: readonly ModelFunction[],
  tools: readonly { readonly name?: unknown; readonly description?: unknown }[],
): ModelFunction[] {
  const byName = new Map(offered.map((fn) => [fn.name, fn]));
  const kept: ModelFunction[] = [];
  for (const tool of tools) {
    const fn = byName.get(String(tool.name));
    if (fn === undefined) continue;
    kept.push(typeof tool.description === "string" ? { ...fn, description: tool.description } : fn);
  }
  return kept;
}

export function modelResponse(step: number, reply: ModelReply): ModelResponse {
  return {
    ...(reply.text === undefined ? {} : { text: reply.text }),
    toolCalls: reply.calls.map((call, index) => ({
      callId: `${step}.${index + 1}`,
      name: call.name,
      args: (call.args ?? {}) as Readonly<Record<string, unknown>>,
    })),
    ...(reply.output === undefined ? {} : { output: reply.output }),
    finishReason: reply.calls.length > 0 ? "tool_calls" : "stop",
    usage: { inputTokens: reply.usage.inputTokens, outputTokens: reply.usage.outputTokens },
  };
}

/** The reply with a handler's response: its text, calls and answer; usage stays as measured. */
export function replyWith(reply: ModelReply, response: ModelResponse): ModelReply {
  const calls = Array.isArray(response.toolCalls)
    ? response.toolCalls.map((call) => ({ name: String(call.name), args: call.args ?? {} }))
    : reply.calls;
  const { text: _text, output: _output, ...rest } = reply;
  return {
    ...rest,
    calls,
    ...(response.text === undefined ? {} : { text: response.text }),
    ...(response.output === undefined ? {} : { output: response.output }),
  };
}

function asText(content: unknown): string {
  return typeof content === "string" ? content : JSON.stringify(content ?? "");
}
