// `oz0 mcp serve --http PORT`: the server over Streamable HTTP at `/mcp`, one MCP session per
// client (the `mcp-session-id` header), each with its own server. It listens on 127.0.0.1 unless
// told otherwise, and on a loopback address it answers only requests whose Host is a loopback
// name, so a web page cannot reach it through DNS rebinding. A request from a web page (an
// `Origin` header) is answered only when that page is itself on a loopback host: any other
// origin gets 403, as the MCP transport spec requires. Each session keeps what it sent, so a
// client whose SSE stream broke resumes it with `Last-Event-ID`.
import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { Oz0Error } from "@oz0/sdk";
import { SessionEventStore } from "./event-store.js";
import type { OzMcpServer } from "./server.js";

export interface HttpServeOptions {
  /** 0 picks a free port. */
  readonly port: number;
  /** Default 127.0.0.1. */
  readonly host?: string | undefined;
}

export interface HttpServing {
  readonly port: number;
  /** Where clients connect: `http://<host>:<port>/mcp`. */
  readonly url: string;
  close(): Promise<void>;
}

/** The path MCP clients send their requests to. */
export const MCP_HTTP_PATH = "/mcp";

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);

/** Serves `server` over Streamable HTTP until `close`. Throws INTERNAL when the port is taken. */
export async function serveHttp(server: OzMcpServer, options: HttpServeOptions): Promise<HttpServing> {
  const host = options.host ?? "127.0.0.1";
  const loopbackOnly = LOOPBACK_HOSTS.has(host);
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const http = createServer((request, response) => {
    void handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) reply(response, 500, `oz0 could not answer: ${String(error)}`);
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? "/", "http://localhost");
    if (url.pathname !== MCP_HTTP_PATH) return reply(response, 404, `MCP is served at ${MCP_HTTP_PATH}`);
    if (loopbackOnly && !LOOPBACK_HOSTS.has(hostname(request.headers.host))) {
      return reply(response, 403, "this server answers requests to a loopback host name only");
    }
    const origin = request.headers.origin;
    if (origin !== undefined && !loopbackOrigin(origin)) {
      return reply(
        response,
        403,
        `requests from the web page at ${origin} are refused: oz0 mcp serve answers pages on a loopback host only (localhost, 127.0.0.1, [::1])`,
      );
    }
    const id = request.headers["mcp-session-id"];
    if (typeof id === "string") {
      const transport = sessions.get(id);
      if (transport === undefined) return reply(response, 404, `no MCP session ${id}; initialize a new one`);
      return transport.handleRequest(request, response);
    }
    // A request without a session starts one; the transport refuses anything but `initialize`.
    const session = server.session();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      eventStore: new SessionEventStore(),
      onsessioninitialized: (sessionId) => {
        sessions.set(sessionId, transport);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
      void session.close();
    };
    await session.connect(transport);
    await transport.handleRequest(request, response);
    if (transport.sessionId === undefined) await session.close();
  }

  http.listen(options.port, host);
  const failed = once(http, "error").then(([error]) => {
    throw new Oz0Error(
      "INTERNAL",
      `cannot serve MCP on ${host}:${options.port}: ${(error as Error).message}`,
      {
        data: { cause: String(error) },
      },
    );
  });
  await Promise.race([once(http, "listening"), failed]);
  failed.catch(() => undefined);
  const { port } = http.address() as AddressInfo;
  return {
    port,
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}${MCP_HTTP_PATH}`,
    async close() {
      const open = [...sessions.values()];
      sessions.clear();
      await Promise.all(open.map((transport) => transport.close().catch(() => undefined)));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

function hostname(header: string | undefined): string {
  if (header === undefined) return "";
  if (header.startsWith("[")) return header.slice(0, header.indexOf("]") + 1);
  return header.split(":")[0] ?? "";
}

/** Whether a web page's origin is on a loopback host (any scheme and port); `null` and garbage are not. */
function loopbackOrigin(origin: string): boolean {
  try {
    return LOOPBACK_HOSTS.has(new URL(origin).hostname);
  } catch {
    return false;
  }
}

function reply(response: ServerResponse, status: number, message: string): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }));
}
