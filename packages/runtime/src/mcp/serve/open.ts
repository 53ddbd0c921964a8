// Opening a server of oz0's functions for MCP clients loads the SDK's server side and the
// protocol's schemas (server.ts) then, rather than with the runtime: a command that serves no
// MCP client should not pay for them.
import type { McpServeDeps, McpServeOptions, OzMcpServer } from "./server.js";

/** `OzMcpServer.open`, its module loaded on the first call. */
export async function openMcpServer(deps: McpServeDeps, options: McpServeOptions): Promise<OzMcpServer> {
  const { OzMcpServer } = await import("./server.js");
  return OzMcpServer.open(deps, options);
}
