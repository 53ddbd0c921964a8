// A served function's outcome as an MCP tool result. Content passes through as content: a result
// shaped as MCP content (`{ content: [blocks], structuredContent? }`, what an MCP-backed function
// returns for images, audio, resources and resource links) reaches the client as those blocks,
// annotations and all, with `structuredContent` beside them. Text stays text; any other value is
// JSON text, with `structuredContent` for an object.
import { type CallToolResult, ContentBlockSchema } from "@modelcontextprotocol/sdk/types.js";
import type { CallOutcome } from "../../tools/index.js";

export function toolResult(outcome: CallOutcome): CallToolResult {
  if (!outcome.ok) return errorResult(outcome.error.code, outcome.error.message);
  const { result } = outcome;
  if (typeof result === "string") return { content: [{ type: "text", text: result }] };
  const blocks = contentOf(result);
  if (blocks !== undefined) return blocks;
  const structured = isRecord(result) ? { structuredContent: result } : {};
  return { content: [{ type: "text", text: JSON.stringify(result) }], ...structured };
}

export function errorResult(code: string, message: string): CallToolResult {
  return { isError: true, content: [{ type: "text", text: `${code}: ${message}` }] };
}

/** The result as MCP content when it is exactly that shape, every block a valid MCP block. */
function contentOf(result: unknown): CallToolResult | undefined {
  if (!isRecord(result) || !Array.isArray(result.content)) return undefined;
  if (Object.keys(result).some((key) => key !== "content" && key !== "structuredContent")) return undefined;
  const content: CallToolResult["content"] = [];
  for (const block of result.content) {
    const parsed = ContentBlockSchema.safeParse(block);
    if (!parsed.success) return undefined;
    content.push(parsed.data);
  }
  const structured = result.structuredContent;
  if (structured !== undefined && !isRecord(structured)) return undefined;
  return { content, ...(structured === undefined ? {} : { structuredContent: structured }) };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
