// What a served function's outcome becomes for an MCP client: content shaped as MCP content
// reaches it as those blocks (audio, embedded resources, annotations) with structuredContent
// beside them; anything else is text, never a block oz0 made up.
import { describe, expect, it } from "vitest";
import { toolResult } from "../../src/mcp/serve/content.js";

const AUDIO = {
  type: "audio",
  data: "UklGRiQAAABXQVZF",
  mimeType: "audio/wav",
  annotations: { audience: ["user"] },
};
const EMBEDDED = {
  type: "resource",
  resource: { uri: "file:///notes.md", mimeType: "text/markdown", text: "# Notes" },
  annotations: { priority: 0.2 },
};

describe("a served call's result as MCP content", () => {
  it("passes audio and embedded resources through as blocks, with structuredContent beside them", () => {
    const result = toolResult({
      ok: true,
      ms: 1,
      result: { content: [AUDIO, EMBEDDED], structuredContent: { seconds: 3 } },
    });
    expect(result).toEqual({ content: [AUDIO, EMBEDDED], structuredContent: { seconds: 3 } });
  });

  it("gives an object that only looks like content (a block MCP does not know) as JSON text", () => {
    const value = { content: [{ type: "hologram", data: "x" }] };
    expect(toolResult({ ok: true, ms: 1, result: value })).toEqual({
      content: [{ type: "text", text: JSON.stringify(value) }],
      structuredContent: value,
    });
  });

  it("gives an object with more than content and structuredContent as JSON text", () => {
    const value = { content: [{ type: "text", text: "hi" }], total: 2 };
    expect(toolResult({ ok: true, ms: 1, result: value }).content).toEqual([
      { type: "text", text: JSON.stringify(value) },
    ]);
  });
});
