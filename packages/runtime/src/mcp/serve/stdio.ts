// `oz0 mcp serve` over stdio: one client, the process that started oz0, speaking MCP on oz0's
// stdin and stdout. Serving ends when the client closes its end of stdin.
import type { Readable, Writable } from "node:stream";
import type { OzMcpServer } from "./server.js";

/** Serves `server` on `stdin`/`stdout` until stdin ends or the session closes. */
export async function serveStdio(
  server: OzMcpServer,
  stdin: Readable = process.stdin,
  stdout: Writable = process.stdout,
): Promise<void> {
  const { StdioServerTransport } = await import("@modelcontextprotocol/sdk/server/stdio.js");
  const session = server.session();
  const transport = new StdioServerTransport(stdin, stdout);
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
    stdin.once("end", () => void transport.close());
    stdin.once("close", () => void transport.close());
  });
  await session.connect(transport);
  await closed;
  await session.close();
}
