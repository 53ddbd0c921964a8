// oz0's functions as an MCP server over Streamable HTTP, on the API itself: `POST`, `GET` and
// `DELETE /v1/t/{tenant}/mcp[?agent=<plugin>/<agent>]`, authenticated like every route (the
// bearer key or console session), the role checked first (`mcp.serve`), then the agent against
// the caller's agents: one outside them is answered exactly as one that does not exist. A caller
// limited to some agents serves one of them (`?agent=`), never the whole catalog. Each MCP
// session (the `mcp-session-id` header) has its own server and belongs to the caller that
// started it: another caller naming it is told there is no such session. What a session sent is
// kept, so a client whose SSE stream broke resumes it with `Last-Event-ID`; one that does not
// come back in time has its held calls withdrawn, as `oz0 mcp serve --http` does.
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { RESPONSE_ALREADY_SENT } from "@hono/node-server/utils/response";
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import {
  type Caller,
  cameBack,
  type OzMcpServer,
  type Services,
  SessionEventStore,
  withdrawIfGone,
} from "@oz0/runtime";
import { Oz0Error } from "@oz0/sdk";
import type { Context } from "hono";
import type { ServerEnv } from "../env.js";
import { TenantParam } from "../schemas.js";
import { errors, permit, security } from "./shared.js";

/** The path MCP clients of the API send their requests to. */
export const MCP_SERVE_PATH = "/v1/t/{tenant}/mcp";

interface Session {
  readonly transport: StreamableHTTPServerTransport;
  /** The held calls of broken streams, withdrawn unless the client comes back in time. */
  readonly withdrawals: Set<NodeJS.Timeout>;
  readonly server: OzMcpServer;
  /** Who started it: only they may use it. */
  readonly owner: string;
}

const Query = z.object({
  agent: z.string().min(1).max(256).optional().openapi({
    example: "helpdesk/triage",
    description:
      "Serve the functions this agent may call, as it; the tenant's catalog when left out (a caller limited to some agents must name one).",
  }),
});

const SessionHeaders = z.object({
  "mcp-session-id": z.string().optional().openapi({ description: "The MCP session, once initialized." }),
});

const JsonRpc = z
  .unknown()
  .openapi("McpMessage", { description: "A JSON-RPC message (or batch) of the MCP protocol." });

const describe = {
  post: "Sends MCP messages (initialize starts a session); answers JSON or an SSE stream",
  get: "Opens the session's SSE stream for server messages; resumes with Last-Event-ID",
  delete: "Ends the MCP session",
} as const;

export function registerMcpServeRoutes(
  app: OpenAPIHono<ServerEnv>,
  services: Services,
  reconnectGraceMs?: number,
): void {
  const sessions = new Map<string, Session>();

  for (const method of ["post", "get", "delete"] as const) {
    app.openapi(
      createRoute({
        operationId: `mcp${method[0]!.toUpperCase()}${method.slice(1)}`,
        method,
        path: MCP_SERVE_PATH,
        summary: describe[method],
        description:
          "MCP Streamable HTTP (protocol 2025-06-18): the served functions as tools, jobs' outputs and skills as resources, agents as prompts. Every call is a job on oz0's dispatch path; a call an ask rule holds waits for a person's decision.",
        tags: ["mcp"],
        security,
        middleware: [permit("mcp.serve")],
        request: {
          params: z.object({ tenant: TenantParam }),
          query: Query,
          headers: SessionHeaders,
          ...(method === "post"
            ? { body: { content: { "application/json": { schema: JsonRpc } }, required: true } }
            : {}),
        },
        responses: {
          200: {
            content: {
              "application/json": { schema: JsonRpc },
              "text/event-stream": { schema: z.string() },
            },
            description: "The MCP answer, as JSON or as a stream of server-sent events.",
          },
          202: { description: "A notification or response accepted." },
          ...errors,
        },
      }),
      (async (c: Context<ServerEnv>) => handle(c)) as never,
    );
  }

  async function handle(c: Context<ServerEnv>): Promise<Response> {
    const node = c.env as { incoming?: IncomingMessage; outgoing?: ServerResponse } | undefined;
    if (node?.incoming === undefined || node.outgoing === undefined) {
      throw new Oz0Error("INTERNAL", "MCP over HTTP needs the server running on Node (oz0 serve).");
    }
    const { incoming, outgoing } = node;
    const caller = c.get("caller");
    // State-changing requests had their Origin checked already; the SSE stream is checked here too.
    const origin = c.req.header("origin");
    if (origin !== undefined && origin !== new URL(c.req.url).origin) {
      throw new Oz0Error(
        "FORBIDDEN",
        `a request from origin ${origin} is refused: this server answers MCP requests only from its own origin.`,
        { data: { action: `${c.req.method} ${c.req.path}`, origin } },
      );
    }
    const body = c.req.method === "POST" ? await c.req.json<unknown>() : undefined;
    const id = c.req.header("mcp-session-id");
    if (id !== undefined) {
      const known = sessions.get(id);
      if (known === undefined || known.owner !== ownerOf(caller)) {
        throw new Oz0Error("NOT_FOUND", `there is no MCP session ${id}; initialize a new one.`, {
          data: { kind: "mcp session", name: id },
        });
      }
      if (c.req.method === "GET") cameBack(known, c.req.header("last-event-id"));
      if (c.req.method === "POST") withdrawIfGone(known, outgoing, body, reconnectGraceMs);
      await known.transport.handleRequest(incoming, outgoing, body);
      return RESPONSE_ALREADY_SENT;
    }
    if (c.req.method !== "POST") {
      throw new Oz0Error("INVALID_INPUT", "an MCP request without mcp-session-id must be initialize.", {
        data: { issues: [{ path: "mcp-session-id", message: "required" }] },
      });
    }
    // The role, then the agent against the caller's agents, then the owner check: before any session.
    const server = await services.mcp.serve(caller, { agent: c.req.query("agent"), recordCaller: true });
    const session = server.session();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      eventStore: new SessionEventStore(),
      onsessioninitialized: (sessionId) => {
        sessions.set(sessionId, { transport, server, owner: ownerOf(caller), withdrawals: new Set() });
      },
    });
    transport.onclose = () => {
      const known = transport.sessionId === undefined ? undefined : sessions.get(transport.sessionId);
      for (const timer of known?.withdrawals ?? []) clearTimeout(timer);
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
      void server.close();
    };
    await session.connect(transport);
    await transport.handleRequest(incoming, outgoing, body);
    if (transport.sessionId === undefined) await server.close();
    return RESPONSE_ALREADY_SENT;
  }
}

function ownerOf(caller: Caller): string {
  return `${caller.tenant}\n${caller.actor}`;
}
