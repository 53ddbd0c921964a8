// What an MCP tool's answer becomes as a function result, the same for every caller (a model,
// a flow, `oz0 tool call`): plain text stays text, structured content stays structured, and
// anything else (images, audio, resources, several blocks) keeps every block as the server
// sent it. An answer with `isError` is the tool's own failure and becomes an error the model
// reads and can correct.
import { Oz0Error } from "@oz0/sdk";
import type { Redactor } from "../models/index.js";

/** A content block as MCP sends it: `text`, `image`, `audio`, `resource` or `resource_link`. */
export interface McpContentBlock {
  readonly type: string;
  readonly [field: string]: unknown;
}

/** The parts of a `tools/call` result oz0 reads. */
export interface McpCallResult {
  readonly content?: readonly McpContentBlock[];
  readonly structuredContent?: Readonly<Record<string, unknown>>;
  readonly isError?: boolean;
  /** The result of a server on the 2024-10-07 protocol. */
  readonly toolResult?: unknown;
}

/**
 * The function result of an MCP answer, secrets redacted:
 * - one text block, nothing structured: the text;
 * - structured content (with text blocks, which only repeat it): the structured content;
 * - anything else: `{ content: [blocks], structuredContent? }`, every block as sent;
 * - nothing at all: null.
 * An answer with `isError` throws MCP_TOOL_ERROR with the tool's text.
 */
export function functionResult(address: string, answer: McpCallResult, redactor: Redactor): unknown {
  const result = redactor.json(answer);
  if ("toolResult" in result && result.content === undefined) return result.toolResult ?? null;
  const content = result.content ?? [];
  if (result.isError === true) throw toolError(address, content);
  const allText = content.every((block) => block.type === "text");
  if (result.structuredContent !== undefined && allText) return result.structuredContent;
  if (result.structuredContent === undefined) {
    if (content.length === 0) return null;
    const only = content[0];
    if (content.length === 1 && only?.type === "text") return String(only.text ?? "");
  }
  return {
    content,
    ...(result.structuredContent === undefined ? {} : { structuredContent: result.structuredContent }),
  };
}

function toolError(address: string, content: readonly McpContentBlock[]): Oz0Error {
  const text = content
    .filter((block) => block.type === "text")
    .map((block) => String(block.text ?? "").trim())
    .filter((line) => line !== "")
    .join("\n");
  const said = text === "" ? "the tool reported an error and said nothing more" : text;
  return new Oz0Error("MCP_TOOL_ERROR", `${address} answered with an error: ${said}`, {
    data: { address, content },
  });
}
