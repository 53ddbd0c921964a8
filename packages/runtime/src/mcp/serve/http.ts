// `oz0 mcp serve --http PORT`: the server over Streamable HTTP at `/mcp`, one MCP session per
// client (the `mcp-session-id` header), each with its own server. It listens on 127.0.0.1 unless
// told otherwise, and on a loopback address it answers only requests whose Host is a loopback
// name, so a web page cannot reach it through DNS rebinding. A request from a web page (an
// `Origin` header) is answered only when that page is itself on a loopback host: any other
// origin gets 403, as the MCP transport spec requires. Each session keeps what it sent, so a
// client whose SSE stream broke resumes it with `Last-Event-ID`; a client that does not come
// back within RECONNECT_GRACE_MS has gone, and the calls whose answers that stream carried are
// withdrawn (cancelled, as if the client had sent `notifications/cancelled`), so a held call
// does not wait, and then run, for nobody.
import { randomUUID } from "node:crypto";
import { once } from "node:events";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { Oz0Error } from "@oz0/sdk";
import { SessionEventStore } from "./event-store.js";
import type { OzMcpServer } from "./server.js";

export interface HttpServeOptions {
  /** 0 picks a free port. */
  readonly port: number;
  /** Default 127.0.0.1. */
  readonly host?: string | undefined;
  /** How long a broken stream waits for its client to reconnect before its calls are withdrawn; default RECONNECT_GRACE_MS. */
  readonly reconnectGraceMs?: number | undefined;
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

/** How long a client whose stream broke has to reconnect (`Last-Event-ID`) before its calls are withdrawn. */
export const RECONNECT_GRACE_MS = 30_000;

/** The largest request body read, as the MCP SDK's own limit. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** One client's session: its transport, and the withdrawals waiting for it to come back. */
export interface WithdrawingSession {
  readonly transport: StreamableHTTPServerTransport;
  readonly withdrawals: Set<NodeJS.Timeout>;
}

/** Serves `server` over Streamable HTTP until `close`. Throws INTERNAL when the port is taken. */
export async function serveHttp(server: OzMcpServer, options: HttpServeOptions): Promise<HttpServing> {
  const host = options.host ?? "127.0.0.1";
  const loopbackOnly = LOOPBACK_HOSTS.has(host);
  const grace = options.reconnectGraceMs ?? RECONNECT_GRACE_MS;
  const sessions = new Map<string, WithdrawingSession>();
  // Loaded here, by the command that serves, rather than with the runtime.
  const [{ createServer }, { StreamableHTTPServerTransport }] = await Promise.all([
    import("node:http"),
    import("@modelcontextprotocol/sdk/server/streamableHttp.js"),
  ]);
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
      const known = sessions.get(id);
      if (known === undefined) return reply(response, 404, `no MCP session ${id}; initialize a new one`);
      if (request.method === "GET") cameBack(known, request.headers["last-event-id"]);
      if (request.method !== "POST") return known.transport.handleRequest(request, response);
      const body = await readBody(request);
      if (body === undefined)
        return reply(response, 413, `a request body may be at most ${MAX_BODY_BYTES} bytes`, -32600);
      let parsed: unknown;
      try {
        parsed = JSON.parse(body);
      } catch {
        return reply(response, 400, "the request body is not JSON", -32700);
      }
      withdrawIfGone(known, response, parsed, grace);
      return known.transport.handleRequest(request, response, parsed);
    }
    // A request without a session starts one; the transport refuses anything but `initialize`.
    const session = server.session();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      eventStore: new SessionEventStore(),
      onsessioninitialized: (sessionId) => {
        sessions.set(sessionId, { transport, withdrawals: new Set() });
      },
    });
    transport.onclose = () => {
      const known = transport.sessionId === undefined ? undefined : sessions.get(transport.sessionId);
      for (const timer of known?.withdrawals ?? []) clearTimeout(timer);
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
      await Promise.all(open.map(({ transport }) => transport.close().catch(() => undefined)));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/**
 * When `response` closes before its answers were all sent (the client's stream broke), gives
 * the client `grace` ms to reconnect, then withdraws the `tools/call` requests of `body` it was
 * carrying.
 */
export function withdrawIfGone(
  known: WithdrawingSession,
  response: ServerResponse,
  body: unknown,
  grace: number = RECONNECT_GRACE_MS,
): void {
  const ids = calls(body);
  if (ids.length === 0) return;
  response.once("close", () => {
    if (response.writableFinished) return;
    const timer = setTimeout(() => {
      known.withdrawals.delete(timer);
      for (const requestId of ids) {
        known.transport.onmessage?.({
          jsonrpc: "2.0",
          method: "notifications/cancelled",
          params: { requestId, reason: "the client's stream broke and it did not reconnect" },
        });
      }
    }, grace);
    timer.unref();
    known.withdrawals.add(timer);
  });
}

/** A GET with `Last-Event-ID`: the client is back, and what its broken streams carried reaches it on this one. */
export function cameBack(known: WithdrawingSession, lastEventId: string | string[] | undefined): void {
  if (lastEventId === undefined) return;
  for (const timer of known.withdrawals) clearTimeout(timer);
  known.withdrawals.clear();
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

/** The IDs of the `tools/call` requests in a POST body (one message or a batch). */
function calls(body: unknown): (string | number)[] {
  const messages = Array.isArray(body) ? body : [body];
  return messages.flatMap((message) => {
    if (typeof message !== "object" || message === null) return [];
    const { method, id } = message as { method?: unknown; id?: unknown };
    return method === "tools/call" && (typeof id === "string" || typeof id === "number") ? [id] : [];
  });
}

/** The request's body as text; undefined past MAX_BODY_BYTES. */
async function readBody(request: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function reply(response: ServerResponse, status: number, message: string, code = -32000): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}
