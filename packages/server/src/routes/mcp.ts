// The tenant's MCP-backed tools: what each server lists now, and the secrets (env variables,
// headers, OAuth credentials) their servers are started or authorized with. A secret's value goes in a request body only, and is
// never in an answer, the audit log or the server's output; lists name secrets, never values.
// `oz0 mcp import` reads and writes its files on the client and keeps the secrets here.
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { MCP_SECRET_KINDS, type Services } from "@oz0/runtime";
import { Oz0Error } from "@oz0/sdk";
import type { ServerEnv } from "../env.js";
import { TenantParam } from "../schemas.js";
import { body, errors, json, permit, security, segment } from "./shared.js";

const KIND = z.enum(MCP_SECRET_KINDS);
const TOOL = z.string().min(1).max(256).openapi({ example: "github/issues" });

const ReportSchema = z
  .object({
    address: z.string(),
    plugin: z.string(),
    tool: z.string(),
    transport: z.enum(["stdio", "http"]),
    server: z.string().openapi({ description: "Its command line or URL; never a secret." }),
    functions: z.array(z.string()).readonly(),
    leftOut: z.array(z.object({ name: z.string(), reason: z.string() })).readonly(),
    error: z.string().nullable(),
    secrets: z.object({ env: z.array(z.string()).readonly(), headers: z.array(z.string()).readonly() }),
  })
  .openapi("McpToolStatus");

const SecretNamesSchema = z
  .object({
    tool: z.string(),
    env: z.array(z.string()).readonly(),
    headers: z.array(z.string()).readonly(),
  })
  .openapi("McpSecretNames", { description: "Which secrets are set, by name; never their values." });

const Tenant = z.object({ tenant: TenantParam });

// Names and values are checked by the runtime, with the refusals embedded gives.
const SetSecretBody = z
  .object({
    tool: TOOL,
    kind: KIND,
    name: z.string().max(256),
    value: z.string().max(65_536).openapi({ description: "Kept encrypted; never shown again." }),
  })
  .strict()
  .openapi("SetMcpSecret");

const RemoveSecretQuery = z.object({
  tool: TOOL,
  kind: KIND.optional(),
  name: z.string().max(256).optional().openapi({ description: "With kind: one secret; neither: all." }),
});

const KeepSecretsBody = z
  .object({
    secrets: z
      .array(
        z
          .object({
            tool: z.string().min(1).max(256),
            // What an imported server's config holds: its env and headers, never an OAuth grant's.
            kind: z.enum(["env", "header"]),
            name: z.string().max(256),
            value: z.string().max(65_536),
            why: z.string().max(1024),
          })
          .strict(),
      )
      .max(1000),
  })
  .strict()
  .openapi("KeepMcpSecrets");

const tags = ["mcp"];

const routes = {
  status: createRoute({
    operationId: "mcpStatus",
    method: "get",
    path: "/v1/t/{tenant}/mcp/status",
    summary: "The tenant's MCP-backed tools: each server, the functions it lists now, its secrets' names",
    tags,
    security,
    middleware: [permit("mcp.status")] as const,
    request: { params: Tenant },
    responses: { 200: json(z.object({ tools: z.array(ReportSchema) }), "The tools."), ...errors },
  }),
  secrets: createRoute({
    operationId: "listMcpSecrets",
    method: "get",
    path: "/v1/t/{tenant}/mcp/secrets",
    summary: "Which secrets of MCP servers are set, by name",
    tags,
    security,
    middleware: [permit("mcp.secrets")] as const,
    request: { params: Tenant },
    responses: { 200: json(z.object({ secrets: z.array(SecretNamesSchema) }), "The names."), ...errors },
  }),
  setSecret: createRoute({
    operationId: "setMcpSecret",
    method: "put",
    path: "/v1/t/{tenant}/mcp/secrets",
    summary: "Set a secret of a tool's MCP server; its server gets it from its next start",
    tags,
    security,
    middleware: [permit("mcp.setSecret")] as const,
    request: { params: Tenant, ...body(SetSecretBody) },
    responses: {
      200: json(z.object({ tool: z.string(), kind: KIND, name: z.string() }), "What was set, by name."),
      ...errors,
    },
  }),
  removeSecret: createRoute({
    operationId: "removeMcpSecret",
    method: "delete",
    path: "/v1/t/{tenant}/mcp/secrets",
    summary: "Remove one secret of a tool's MCP server, or all of them",
    tags,
    security,
    middleware: [permit("mcp.removeSecret")] as const,
    request: { params: Tenant, query: RemoveSecretQuery },
    responses: {
      200: json(z.object({ tool: z.string(), removed: z.boolean() }), "Whether there was any."),
      ...errors,
    },
  }),
  keepSecrets: createRoute({
    operationId: "keepMcpImportSecrets",
    method: "post",
    path: "/v1/t/{tenant}/mcp/imports/{plugin}/secrets",
    summary: "Keep the secrets an mcpServers import found, for the plugin it writes",
    description:
      "oz0 mcp import reads the file and writes the plugin folder on the client; the secrets stay here.",
    tags,
    security,
    middleware: [permit("mcp.keepSecrets")] as const,
    request: {
      params: z.object({
        tenant: TenantParam,
        plugin: z.string().min(1).max(128).openapi(segment("plugin", "mcp-servers")),
      }),
      ...body(KeepSecretsBody),
    },
    responses: { 204: { description: "Kept." }, ...errors },
  }),
};

export function registerMcpRoutes(app: OpenAPIHono<ServerEnv>, services: Services): void {
  const { mcp } = services;
  app.openapi(routes.status, async (c) => c.json({ tools: await mcp.status(c.get("caller")) } as never, 200));
  app.openapi(routes.secrets, async (c) => c.json({ secrets: await mcp.secrets(c.get("caller")) }, 200));
  app.openapi(routes.setSecret, async (c) => {
    const sent = c.req.valid("json");
    return c.json(await mcp.setSecret(c.get("caller"), sent.tool, sent.kind, sent.name, sent.value), 200);
  });
  app.openapi(routes.removeSecret, async (c) => {
    const { tool, kind, name } = c.req.valid("query");
    // As the CLI: one secret takes its kind and its name, all of them neither.
    if ((kind === undefined) !== (name === undefined)) {
      throw new Oz0Error(
        "INVALID_INPUT",
        "give both the kind and the name of one secret (kind=env&name=NAME), or neither to remove them all",
        {
          data: {
            issues: [{ path: kind === undefined ? "kind" : "name", message: "kind and name go together" }],
          },
        },
      );
    }
    const one = kind === undefined || name === undefined ? undefined : { kind, name };
    return c.json(await mcp.removeSecret(c.get("caller"), tool, one), 200);
  });
  app.openapi(routes.keepSecrets, async (c) => {
    await mcp.keepSecrets(c.get("caller"), c.req.valid("param").plugin, c.req.valid("json").secrets);
    return c.body(null, 204);
  });
}
