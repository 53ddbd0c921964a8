// The SDK's model for a job: each `getResponse` is one model step of the job. The SDK's request
// (its instructions, input items and tools) becomes oz0's messages and functions, the step goes
// through `session.callModel`, and oz0's reply comes back as the SDK's output items: the text
// as an assistant message, each call as a function call under oz0's call id.
import type {
  AgentInputItem,
  AgentOutputItem,
  Model,
  ModelRequest,
  ModelResponse,
  StreamEvent,
} from "@openai/agents-core";
import { Usage } from "@openai/agents-core";
import type { ModelFunction, ModelMessage } from "../../models/index.js";
import { type RunState, UNOFFERED } from "./state.js";

type Assistant = Extract<ModelMessage, { role: "assistant" }>;

export class JobModel implements Model {
  readonly #state: RunState;

  constructor(state: RunState) {
    this.#state = state;
  }

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const state = this.#state;
    const reply = await state.guard(() =>
      state.session.callModel({ messages: this.#messages(request), functions: this.#functions(request) }),
    );
    state.last = reply;
    const output: AgentOutputItem[] = [];
    const text = reply.text ?? (reply.output === undefined ? undefined : JSON.stringify(reply.output));
    // A reply of no calls is the SDK's final output, whatever its text: an empty one ends the run too.
    if ((text !== undefined && text !== "") || reply.calls.length === 0) {
      output.push({
        type: "message",
        role: "assistant",
        status: "completed",
        content: [{ type: "output_text", text: text ?? "" }],
      });
    }
    const offered = new Set(state.session.functions.map((fn) => fn.name));
    for (const call of reply.calls) {
      state.calls.set(call.id, call);
      output.push({
        type: "function_call",
        callId: call.id,
        name: offered.has(call.name) ? call.name : UNOFFERED,
        arguments: JSON.stringify(call.args ?? {}),
        status: "completed",
      });
    }
    const usage = reply.usage;
    return {
      // A replayed reply's tokens were counted when it was made.
      usage: new Usage({
        requests: 1,
        inputTokens: reply.replayed ? 0 : (usage?.inputTokens ?? 0),
        outputTokens: reply.replayed ? 0 : (usage?.outputTokens ?? 0),
        totalTokens: reply.replayed ? 0 : (usage?.inputTokens ?? 0) + (usage?.outputTokens ?? 0),
      }),
      output,
      responseId: `${state.session.job}:${reply.step}`,
    };
  }

  // The runtime runs the SDK without streaming; oz0 streams a reply's text to its listeners itself.
  // biome-ignore lint/correctness/useYield: it refuses before yielding anything
  async *getStreamedResponse(): AsyncIterable<StreamEvent> {
    throw new Error("runtime openai-agents runs the OpenAI Agents SDK without streaming");
  }

  /** The functions the SDK offers this turn, as the job knows them. */
  #functions(request: ModelRequest): ModelFunction[] {
    const known = new Map(this.#state.session.functions.map((fn) => [fn.name, fn]));
    const tools = request.tools.filter((offered) => offered.name !== UNOFFERED);
    return tools.map((offered) => {
      const fn = offered.type === "function" ? known.get(offered.name) : undefined;
      if (fn === undefined) {
        throw new Error(
          `the OpenAI Agents SDK offered the model ${offered.type} tool ${offered.name}, which is not one of the agent's functions`,
        );
      }
      return fn;
    });
  }

  /** The SDK's conversation as oz0's messages: each call and result under its oz0 id. */
  #messages(request: ModelRequest): ModelMessage[] {
    const state = this.#state;
    const messages: ModelMessage[] = [];
    if (request.systemInstructions !== undefined && request.systemInstructions !== "") {
      messages.push({ role: "system", content: request.systemInstructions });
    }
    const items: AgentInputItem[] =
      typeof request.input === "string" ? [{ role: "user", content: request.input }] : request.input;
    for (const item of items) {
      const type = (item as { type?: string }).type ?? "message";
      if (type === "message" && "role" in item) {
        const text = textOf(item.content);
        if (item.role === "system") messages.push({ role: "system", content: text });
        else if (item.role === "user") messages.push({ role: "user", content: text });
        else messages.push({ role: "assistant", text, calls: [] });
      } else if (item.type === "function_call") {
        const call = state.calls.get(item.callId) ?? {
          id: item.callId,
          name: item.name,
          args: JSON.parse(item.arguments || "{}") as unknown,
        };
        const last = messages.at(-1);
        if (last?.role === "assistant") messages[messages.length - 1] = withCall(last, call);
        else messages.push({ role: "assistant", calls: [call] });
      } else if (item.type === "function_call_result") {
        const result = state.results.get(item.callId);
        if (result === undefined) {
          throw new Error(
            `the OpenAI Agents SDK sent a result for call ${item.callId}, which the job did not run`,
          );
        }
        messages.push({
          role: "tool",
          callId: item.callId,
          name: state.calls.get(item.callId)?.name ?? item.name,
          content: result.ok ? result.result : { error: result.error },
          isError: !result.ok,
        });
      } else {
        throw new Error(
          `the OpenAI Agents SDK sent a ${type} item, which runtime openai-agents does not carry`,
        );
      }
    }
    return messages;
  }
}

function withCall(message: Assistant, call: Assistant["calls"][number]): Assistant {
  return { ...message, calls: [...message.calls, call] };
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((part: { text?: unknown }) => (typeof part.text === "string" ? part.text : "")).join("");
}
