// The agent's tools as one MCP server for an ACP harness, whose calls run through the job: each
// tools/call is the job's next step (recorded, governed, replayed on a resumed run, see
// steps.ts). The harness starts the bridge (bridge.ts) as a stdio MCP server, and the bridge
// joins it to this server's Unix socket, in a folder only this user may open.
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server as NetServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { ModelFunction } from "../../models/index.js";
import type { RuntimeCallResult } from "../types.js";

/** The MCP server's name, as the harness lists it. */
export const TOOLS_SERVER_NAME = "oz0";

export interface ToolsServer {
  /** The stdio MCP server entry of ACP's `session/new`. */
  readonly stdio: { readonly command: string; readonly args: string[] };
  close(): Promise<void>;
}

export async function startToolsServer(
  functions: readonly ModelFunction[],
  call: (name: string, args: unknown) => Promise<RuntimeCallResult>,
): Promise<ToolsServer> {
  const folder = await mkdtemp(join(tmpdir(), "oz0-tools-"));
  const path = join(folder, "mcp.sock");
  const sockets = new Set<Socket>();
  const net: NetServer = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    const server = new Server({ name: TOOLS_SERVER_NAME, version: "1.0.0" }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: functions.map((fn) => ({
        name: fn.name,
        description: fn.description,
        inputSchema: fn.inputSchema,
      })),
    }));
    server.setRequestHandler(CallToolRequestSchema, async (request) =>
      toolResult(await call(request.params.name, request.params.arguments ?? {})),
    );
    void server.connect(new StdioServerTransport(socket, socket)).catch(() => socket.destroy());
  });
  await new Promise<void>((done, fail) => {
    net.once("error", fail);
    net.listen(path, () => done());
  });
  const bridge = fileURLToPath(
    new URL(import.meta.url.endsWith(".ts") ? "./bridge.ts" : "./bridge.js", import.meta.url),
  );
  return {
    stdio: { command: process.execPath, args: [bridge, path] },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((done) => net.close(() => done()));
      await rm(folder, { recursive: true, force: true });
    },
  };
}

/** A call's outcome as an MCP tool result: text stays text, anything else is JSON text. */
function toolResult(outcome: RuntimeCallResult): CallToolResult {
  if (!outcome.ok) {
    return {
      isError: true,
      content: [{ type: "text", text: `${outcome.error.code}: ${outcome.error.message}` }],
    };
  }
  const { result } = outcome;
  if (typeof result === "string") return { content: [{ type: "text", text: result }] };
  const structured =
    typeof result === "object" && result !== null && !Array.isArray(result)
      ? { structuredContent: result as Record<string, unknown> }
      : {};
  return { content: [{ type: "text", text: JSON.stringify(result ?? null) }], ...structured };
}
