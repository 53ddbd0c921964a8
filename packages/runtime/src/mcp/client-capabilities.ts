// The shapes oz0 takes from a server's requests to it as a client. Sampling reaches the tenant's
// model as plain conversation text: a server's images, audio and tool-use blocks have no place
// in a reply oz0 sends back as one text block, so they are refused rather than dropped.
import type { CreateMessageRequest } from "@modelcontextprotocol/sdk/types.js";
import type { McpSamplingRequest } from "../tools/index.js";
import { startedSdk } from "./client-sdk.js";

/** `params` as oz0's model takes them; throws InvalidParams for what it cannot take. */
export function samplingRequestOf(params: CreateMessageRequest["params"]): McpSamplingRequest {
  if (params.tools !== undefined || params.toolChoice !== undefined) {
    throw invalid("oz0 does not offer tools in sampling (it declares no sampling.tools capability)");
  }
  const messages = params.messages.map((message, index) => {
    const blocks = Array.isArray(message.content) ? message.content : [message.content];
    const texts = blocks.map((block) => {
      if (block.type !== "text") {
        throw invalid(`message ${index + 1} has a ${block.type} block; oz0 samples text messages only`);
      }
      return block.text;
    });
    return { role: message.role, text: texts.join("\n") };
  });
  if (messages.length === 0) throw invalid("a sampling request needs at least one message");
  if (!Number.isInteger(params.maxTokens) || params.maxTokens < 1) {
    throw invalid(`maxTokens is ${params.maxTokens}; it is a whole number of tokens, at least 1`);
  }
  return {
    messages,
    maxTokens: params.maxTokens,
    ...(params.systemPrompt === undefined ? {} : { systemPrompt: params.systemPrompt }),
  };
}

function invalid(why: string): Error {
  const { ErrorCode, McpError } = startedSdk().types;
  return new McpError(ErrorCode.InvalidParams, `oz0 refuses sampling/createMessage: ${why}`);
}
