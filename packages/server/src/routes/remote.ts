// The tenant's secrets that remote agents' runtimes send (an outside A2A agent's harness.key
// names one). A value goes in a request body only, is kept encrypted, and is never in an
// answer, the audit log or the server's output; the list names secrets, never values.
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { Services } from "@oz0/runtime";
import type { ServerEnv } from "../env.js";
import { TenantParam } from "../schemas.js";
import { body, errors, json, permit, security, segment } from "./shared.js";

const tags = ["remote agents"];

const routes = {
  list: createRoute({
    operationId: "listRemoteSecrets",
    method: "get",
    path: "/v1/t/{tenant}/remote-secrets",
    summary: "The names of the tenant's remote-agent secrets (never their values)",
    tags,
    security,
    middleware: [permit("remote.secrets")] as const,
    request: { params: z.object({ tenant: TenantParam }) },
    responses: { 200: json(z.object({ names: z.array(z.string()) }), "The names."), ...errors },
  }),
  set: createRoute({
    operationId: "setRemoteSecret",
    method: "put",
    path: "/v1/t/{tenant}/remote-secrets/{name}",
    summary: "Set a remote agent's secret",
    tags,
    security,
    middleware: [permit("remote.setSecret")] as const,
    request: {
      params: z.object({
        tenant: TenantParam,
        name: z.string().min(1).max(256).openapi(segment("name", "partner-token")),
      }),
      // The runtime checks the name and refuses an empty value, as embedded.
      ...body(
        z
          .object({
            value: z.string().max(65_536).openapi({ description: "Kept encrypted; never shown again." }),
          })
          .strict()
          .openapi("SetRemoteSecret"),
      ),
    },
    responses: { 200: json(z.object({ name: z.string() }), "The secret's name."), ...errors },
  }),
};

export function registerRemoteRoutes(app: OpenAPIHono<ServerEnv>, services: Services): void {
  const { remote } = services;
  app.openapi(routes.list, async (c) => c.json({ names: await remote.secrets(c.get("caller")) }, 200));
  app.openapi(routes.set, async (c) =>
    c.json(
      await remote.setSecret(c.get("caller"), c.req.valid("param").name, c.req.valid("json").value),
      200,
    ),
  );
}
