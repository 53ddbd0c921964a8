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
import type { Runtime } from "@oz0/runtime";
import type { Context, Hono } from "hono";
import type { ServerEnv } from "../env.js";
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

export function registerA2aRoutes(app: Hono<ServerEnv>, runtime: Runtime, pollMs: number): void {
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
