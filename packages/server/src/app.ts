// The HTTP API as a Hono app over one runtime: security middleware first, then authentication,
// the tenant of the path, the route's role check, request validation, and the route.
import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { CONSOLE_DIR } from "@oz0/console";
import type { Runtime } from "@oz0/runtime";
import { Oz0Error } from "@oz0/sdk";
import type { Context } from "hono";
import { getCookie } from "hono/cookie";
import { HTTPException } from "hono/http-exception";
import { registerA2aRoutes } from "./a2a/index.js";
import { bearerKey } from "./auth.js";
import { registerConsole } from "./console.js";
import { registerDocs } from "./docs.js";
import type { ServerEnv } from "./env.js";
import { errorResponse, invalidRequest, routeNotFound } from "./errors.js";
import { registerAuditRoutes } from "./routes/audit.js";
import { registerCatalogRoutes } from "./routes/catalog.js";
import { registerChannelInbound, registerChannelRoutes } from "./routes/channels.js";
import { registerChatRoutes } from "./routes/chat.js";
import { registerGovernanceRoutes } from "./routes/governance.js";
import { registerInstallationRoutes } from "./routes/installation.js";
import { registerJobRoutes } from "./routes/jobs.js";
import { registerMcpRoutes } from "./routes/mcp.js";
import { registerMcpServeRoutes } from "./routes/mcp-serve.js";
import { registerMemberRoutes } from "./routes/members.js";
import { registerModelRoutes } from "./routes/models.js";
import { registerNodeRoutes } from "./routes/nodes.js";
import { registerPluginConfigRoutes } from "./routes/plugin-config.js";
import { registerPluginRoutes, UPLOAD_PATH } from "./routes/plugins.js";
import { registerRecordRoutes } from "./routes/records.js";
import { registerRemoteRoutes } from "./routes/remote.js";
import { registerRoutineRoutes, registerRoutineWebhooks } from "./routes/routines.js";
import { CSRF_HEADER, registerMeRoute, registerSessionRoutes, SESSION_COOKIE } from "./routes/sessions.js";
import { registerSkillRoutes } from "./routes/skills.js";
import { registerToolRoutes } from "./routes/tools.js";
import { registerUsageRoutes } from "./routes/usage.js";
import { HealthSchema } from "./schemas.js";
import {
  DEFAULT_BODY_LIMIT,
  DEFAULT_UPLOAD_LIMIT,
  originCheck,
  securityHeaders,
  sizeLimit,
} from "./security.js";

export interface AppOptions {
  /** The runtime served; its identity turns each request's bearer key into its caller. */
  readonly runtime: Runtime;
  /** The largest request body read, in bytes; default 1 MiB. */
  readonly bodyLimit?: number | undefined;
  /** The largest plugin bundle upload read, in bytes; default 64 MiB. */
  readonly uploadLimit?: number | undefined;
  /** Origins besides the server's own whose state-changing requests are accepted; none by default. */
  readonly allowedOrigins?: readonly string[] | undefined;
  /** How often an event stream reads a running job's new events; default 100 ms. */
  readonly eventPollMs?: number | undefined;
  /**
   * Mark the console's session cookie Secure on every answer, for a server behind a
   * TLS-terminating proxy (which reaches it over plain HTTP); by default only a request that
   * came over TLS gets it.
   */
  readonly secureCookies?: boolean | undefined;
  /** How long an MCP client whose stream broke has to reconnect before its held calls are withdrawn; default 30 s. */
  readonly mcpReconnectGraceMs?: number | undefined;
  /** The folder of the web console's built assets; default @oz0/console's, `false` serves no console. */
  readonly console?: string | false | undefined;
}

export const OPENAPI_PATH = "/v1/openapi.json";

/** The API, ready for any fetch-style server (`@hono/node-server`'s `serve`, or `app.request` in tests). */
export function createApp(options: AppOptions): OpenAPIHono<ServerEnv> {
  const app = new OpenAPIHono<ServerEnv>({
    // Validation failures answer in the one error shape, not Hono's.
    defaultHook: (result) => {
      if (!result.success) throw invalidRequest(TARGETS[result.target] ?? result.target, result.error.issues);
    },
  });
  app.use("*", securityHeaders());
  app.use("*", originCheck(options.allowedOrigins));
  const jsonLimit = sizeLimit(options.bodyLimit ?? DEFAULT_BODY_LIMIT);
  const uploadLimit = sizeLimit(options.uploadLimit ?? DEFAULT_UPLOAD_LIMIT);
  // A bundle archive is larger than any JSON request: its paths have their own limit.
  app.use("*", (c, next) => (UPLOAD_PATH.test(c.req.path) ? uploadLimit : jsonLimit)(c, next));
  // Signed by the routine's secret, not by a key: registered before the key is asked for.
  registerRoutineWebhooks(app, options.runtime.routines);
  // Verified by the channel itself (its signing secret), not by a key.
  registerChannelInbound(app, options.runtime.channels);
  registerSessionRoutes(app, options.runtime, clientAddress, options.secureCookies === true);
  app.use("/v1/t/*", async (c, next) => {
    const authorization = c.req.header("authorization");
    const session = authorization === undefined ? getCookie(c, SESSION_COOKIE) : undefined;
    if (session !== undefined) {
      // A browser sends the cookie whoever made it send the request: a change needs the CSRF token too.
      const { caller, csrf } = await options.runtime.identity.authenticateSession(session, {
        source: clientAddress(c),
        csrf: c.req.header(CSRF_HEADER),
        changes: !SAFE_METHODS.has(c.req.method),
      });
      c.set("caller", caller);
      c.set("csrf", csrf);
    } else {
      const key = bearerKey(authorization);
      c.set("caller", await options.runtime.identity.authenticateKey(key, { source: clientAddress(c) }));
    }
    await next();
  });
  // Another tenant is answered exactly as one that does not exist, whatever is asked of it.
  app.use("/v1/t/:tenant/*", async (c, next) => {
    const tenant = c.req.param("tenant");
    if (tenant !== c.get("caller").tenant) throw tenantNotFound(tenant);
    await next();
  });

  registerMeRoute(app);
  app.openAPIRegistry.registerComponent("securitySchemes", "bearer", {
    type: "http",
    scheme: "bearer",
    description: "An oz0 API key.",
  });
  app.openapi(
    createRoute({
      operationId: "health",
      method: "get",
      path: "/v1/health",
      summary: "Whether the server is up and ready",
      tags: ["server"],
      responses: {
        200: { content: { "application/json": { schema: HealthSchema } }, description: "Ready." },
      },
    }),
    (c) => c.json({ status: "ok" as const }, 200),
  );
  registerJobRoutes(app, options.runtime, options.eventPollMs ?? 100);
  registerGovernanceRoutes(app, options.runtime);
  registerCatalogRoutes(app, options.runtime);
  registerPluginRoutes(app, options.runtime);
  registerModelRoutes(app, options.runtime.services);
  registerPluginConfigRoutes(app, options.runtime.services);
  registerMemberRoutes(app, options.runtime.services);
  registerAuditRoutes(app, options.runtime.services);
  registerRecordRoutes(app, options.runtime.services);
  registerRoutineRoutes(app, options.runtime.services);
  registerChatRoutes(app, options.runtime.services);
  registerA2aRoutes(app, options.runtime, options.eventPollMs ?? 100);
  registerNodeRoutes(app, options.runtime.services);
  registerChannelRoutes(app, options.runtime.services);
  registerToolRoutes(app, options.runtime.services);
  registerInstallationRoutes(app, options.runtime.services);
  registerSkillRoutes(app, options.runtime.services);
  registerMcpRoutes(app, options.runtime.services);
  registerMcpServeRoutes(app, options.runtime.services, options.mcpReconnectGraceMs);
  registerRemoteRoutes(app, options.runtime.services);
  registerUsageRoutes(app, options.runtime.services);

  app.doc31(OPENAPI_PATH, {
    openapi: "3.1.0",
    info: {
      title: "oz0 API",
      version: "1",
      description:
        "The oz0 runtime over HTTP. Every error is `{ error: { code, message, data, side, status, retryable } }`.",
    },
  });
  registerDocs(app, OPENAPI_PATH);
  if (options.console !== false) registerConsole(app, options.console ?? CONSOLE_DIR);

  app.notFound((c) => errorResponse(c, routeNotFound(c.req.method, c.req.path)));
  app.onError((error, c) => errorResponse(c, fromHono(error)));
  return app;
}

/** Hono's own refusals (a body that is not JSON) as oz0 errors; anything else as it is. */
function fromHono(error: Error): unknown {
  if (!(error instanceof HTTPException) || error.status !== 400) return error;
  return new Oz0Error(
    "INVALID_INPUT",
    `the request's body is not JSON (${error.message}); send a JSON object.`,
    {
      data: { issues: [{ path: "", message: "is not JSON" }] },
    },
  );
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

const TARGETS: Record<string, string> = {
  json: "body",
  query: "query",
  param: "path",
  header: "headers",
};

/** The peer's IP address when the server runs on Node; undefined under `app.request` in tests. */
function clientAddress(c: Context): string | undefined {
  const incoming = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming;
  return incoming?.socket?.remoteAddress;
}

function tenantNotFound(tenant: string): Oz0Error {
  return new Oz0Error("NOT_FOUND", `tenant ${tenant} does not exist.`, {
    data: { kind: "tenant", name: tenant },
  });
}
