// oz0's agents as A2A agents (protocol 1.0, JSON-RPC binding), so other platforms can call oz0:
// each agent the caller may use has its card at the A2A well-known path under its own base URL,
//   GET  /v1/t/{tenant}/a2a/{plugin}/{agent}/.well-known/agent-card.json
//   POST /v1/t/{tenant}/a2a/{plugin}/{agent}            (JSON-RPC: SendMessage, SendStreamingMessage, GetTask, CancelTask, SubscribeToTask)
// Both sit behind the bearer key like every /v1/t route, and an agent outside the caller's
// scope answers exactly as one that does not exist (the catalog's lookup decides both).
import {
  A2A_VERSION_HEADER,
  type AgentCard,
  formatSSEErrorEvent,
  formatSSEEvent,
  SSE_HEADERS,
} from "@a2a-js/sdk";
import { JsonRpcTransportHandler, ServerCallContext } from "@a2a-js/sdk/server";
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { Runtime } from "@oz0/runtime";
import type { Context } from "hono";
import type { ServerEnv } from "../env.js";
import { errors, json, security, segment } from "../routes/shared.js";
import { TenantParam } from "../schemas.js";
import { AgentTaskHandler } from "./handler.js";

export const A2A_PROTOCOL = "1.0";
const CARD_PATH = "/.well-known/agent-card.json";

/** The agent's base URL: its JSON-RPC endpoint, under which its card lies. */
function baseUrl(c: Context, tenant: string, plugin: string, agent: string): string {
  const { origin } = new URL(c.req.url);
  return `${origin}/v1/t/${encodeURIComponent(tenant)}/a2a/${encodeURIComponent(plugin)}/${encodeURIComponent(agent)}`;
}

async function cardOf(
  runtime: Runtime,
  c: Context<ServerEnv>,
): Promise<{ card: AgentCard; address: string }> {
  const { tenant, plugin, agent } = c.req.param() as { tenant: string; plugin: string; agent: string };
  const address = `${plugin}/${agent}`;
  const entry = await runtime.services.catalog.lookup(c.get("caller"), address, { kind: "agent" });
  const card: AgentCard = {
    name: entry.address,
    description: entry.description ?? "",
    supportedInterfaces: [
      {
        url: baseUrl(c, tenant, plugin, agent),
        protocolBinding: "JSONRPC",
        tenant: "",
        protocolVersion: A2A_PROTOCOL,
      },
    ],
    provider: { url: new URL(c.req.url).origin, organization: "oz0" },
    version: "1",
    capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: {
      oz0: {
        scheme: {
          $case: "httpAuthSecurityScheme",
          value: {
            description: "An oz0 API key of the tenant (oz0 key create), as Authorization: Bearer <key>.",
            scheme: "Bearer",
            bearerFormat: "oz0 API key",
          },
        },
      },
    },
    securityRequirements: [{ schemes: { oz0: { list: [] } } }],
    defaultInputModes: ["text/plain", "application/json"],
    defaultOutputModes: ["text/plain", "application/json"],
    skills: [
      {
        id: entry.address,
        name: entry.name,
        description: entry.description ?? "",
        tags: [...entry.tags],
        examples: [],
        inputModes: [],
        outputModes: [],
        securityRequirements: [],
      },
    ],
    signatures: [],
  };
  return { card, address };
}

const AgentParams = z.object({
  tenant: TenantParam,
  plugin: z.string().openapi(segment("plugin", "helpdesk")),
  agent: z.string().openapi(segment("agent", "triage")),
});

// The A2A protocol defines both bodies (its agent card and JSON-RPC messages); the document
// names them and leaves their shape to the protocol, whose SDK reads and writes them here.
const agentCard = createRoute({
  operationId: "a2aAgentCard",
  method: "get",
  path: `/v1/t/{tenant}/a2a/{plugin}/{agent}${CARD_PATH}`,
  summary: "An agent's A2A agent card",
  description: `The agent as an A2A agent (protocol ${A2A_PROTOCOL}): its address as name, one skill, the JSON-RPC interface at its base URL (/v1/t/{tenant}/a2a/{plugin}/{agent}) and the bearer scheme of an oz0 API key. An agent outside the key's scope answers as one that does not exist.`,
  tags: ["a2a"],
  security,
  request: { params: AgentParams },
  responses: {
    200: json(
      z.record(z.string(), z.unknown()).openapi("A2aAgentCard", {
        description: "An A2A AgentCard (the A2A specification's JSON form).",
      }),
      "The agent's card.",
    ),
    ...errors,
  },
});

const agentRpc = createRoute({
  operationId: "a2aJsonRpc",
  method: "post",
  path: "/v1/t/{tenant}/a2a/{plugin}/{agent}",
  summary: "The agent's A2A JSON-RPC endpoint: a task is a job of the agent",
  description:
    "JSON-RPC 2.0 requests of A2A: SendMessage starts a job (or answers the question its task asks), SendStreamingMessage and SubscribeToTask follow it as server-sent events, GetTask reads it, CancelTask cancels it. Errors of a method come back as JSON-RPC errors; an agent outside the key's scope answers 404 as one that does not exist.",
  tags: ["a2a"],
  security,
  request: {
    params: AgentParams,
    body: {
      content: {
        "application/json": {
          schema: z
            .object({
              jsonrpc: z.literal("2.0"),
              id: z.union([z.string(), z.number(), z.null()]).optional(),
              method: z.string().openapi({ example: "SendMessage" }),
              params: z.unknown().optional(),
            })
            .openapi("A2aJsonRpcRequest"),
        },
      },
      required: true,
    },
  },
  responses: {
    200: {
      content: {
        "application/json": {
          schema: z.record(z.string(), z.unknown()).openapi("A2aJsonRpcResponse", {
            description: "A JSON-RPC 2.0 response: result, or error.",
          }),
        },
        "text/event-stream": {
          schema: z.string().openapi({ description: "Server-sent events, each a JSON-RPC response." }),
        },
      },
      description: "The method's answer; a stream for the streaming methods.",
    },
    ...errors,
  },
});

export function registerA2aRoutes(app: OpenAPIHono<ServerEnv>, runtime: Runtime, pollMs: number): void {
  // Documented, not validated by the document: the SDK's transport handler reads the body.
  app.openAPIRegistry.registerPath(agentCard);
  app.openAPIRegistry.registerPath(agentRpc);
  app.get(`/v1/t/:tenant/a2a/:plugin/:agent${CARD_PATH}`, async (c) =>
    c.json((await cardOf(runtime, c)).card),
  );

  app.post("/v1/t/:tenant/a2a/:plugin/:agent", async (c) => {
    const { card, address } = await cardOf(runtime, c);
    const handler = new AgentTaskHandler({
      services: runtime.services,
      caller: c.get("caller"),
      agent: address,
      card,
      pollMs,
      signal: c.req.raw.signal,
    });
    const rpc = new JsonRpcTransportHandler(handler);
    const context = new ServerCallContext({
      requestedVersion: c.req.header(A2A_VERSION_HEADER) ?? A2A_PROTOCOL,
    });
    const body = await c.req.text();
    const answer = await rpc.handle(body, context);
    if (typeof (answer as AsyncGenerator)[Symbol.asyncIterator] !== "function") return c.json(answer);
    const stream = answer as AsyncGenerator<unknown>;
    const id = (safeJson(body) as { id?: unknown } | undefined)?.id ?? null;
    const encoder = new TextEncoder();
    return new Response(
      new ReadableStream({
        async pull(controller) {
          try {
            const next = await stream.next();
            if (next.done) return controller.close();
            controller.enqueue(encoder.encode(formatSSEEvent(next.value)));
          } catch (error) {
            const failed = { jsonrpc: "2.0", id, error: JsonRpcTransportHandler.mapToJSONRPCError(error) };
            controller.enqueue(encoder.encode(formatSSEErrorEvent(failed)));
            controller.close();
          }
        },
        async cancel() {
          await stream.return(undefined);
        },
      }),
      { headers: SSE_HEADERS },
    );
  });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
