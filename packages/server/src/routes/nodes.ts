// Nodes and shared pools: the nodes that serve the tenant (live, stopped or gone), and the
// tenant's map of plugins to shared pools. Each route parses, calls one runtime.services.nodes
// method with the caller, and shapes the answer.
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { Services } from "@oz0/runtime";
import type { ServerEnv } from "../env.js";
import { TenantParam, TenantParams } from "../schemas.js";
import { errors, json, permit, security } from "./shared.js";

const NodeSchema = z
  .object({
    id: z.string(),
    host: z.string(),
    pid: z.number().int(),
    version: z.string().openapi({ description: "The node's oz0 version." }),
    format: z.number().int().openapi({ description: "The job format it understands." }),
    labels: z.array(z.string()).readonly(),
    pool: z
      .string()
      .nullable()
      .openapi({ description: "The shared pool it serves; null: the plugins' own." }),
    tenant: z.string().nullable().openapi({ description: "The only tenant it serves; null: every tenant." }),
    concurrency: z.number().int(),
    state: z.enum(["live", "stopped", "gone"]),
    startedAt: z.number().int(),
    until: z.number().int().openapi({ description: "Its heartbeat's expiry, or when it stopped." }),
  })
  .openapi("Node");

const PoolSchema = z
  .object({
    plugin: z.string(),
    pool: z.string(),
    labels: z.array(z.string()).readonly(),
    queue: z.string(),
    createdBy: z.string(),
    createdAt: z.number().int(),
  })
  .openapi("PoolMapping");

const PoolParams = z.object({
  tenant: TenantParam,
  plugin: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: "plugin", in: "path" }, example: "gpu-tools" }),
});

const PoolBody = z
  .object({
    pool: z.string().min(1).max(63).openapi({ example: "shared-gpu" }),
    labels: z.array(z.string().min(1).max(63)).max(8).optional(),
  })
  .strict()
  .openapi("SetPool");

const listNodes = createRoute({
  operationId: "listNodes",
  method: "get",
  path: "/v1/t/{tenant}/nodes",
  summary: "The nodes that serve the tenant, live first, then those stopped or gone within a day",
  tags: ["nodes"],
  security,
  middleware: [permit("nodes.list")] as const,
  request: { params: TenantParams },
  responses: { 200: json(z.object({ nodes: z.array(NodeSchema) }), "The nodes."), ...errors },
});

const listPools = createRoute({
  operationId: "listPools",
  method: "get",
  path: "/v1/t/{tenant}/pools",
  summary: "The tenant's plugins mapped to shared pools",
  tags: ["nodes"],
  security,
  middleware: [permit("nodes.pools")] as const,
  request: { params: TenantParams },
  responses: { 200: json(z.object({ pools: z.array(PoolSchema) }), "The mappings."), ...errors },
});

const setPool = createRoute({
  operationId: "setPool",
  method: "put",
  path: "/v1/t/{tenant}/pools/{plugin}",
  summary: "Run an installed plugin's next jobs on a shared pool with a node selector",
  tags: ["nodes"],
  security,
  middleware: [permit("nodes.setPool")] as const,
  request: {
    params: PoolParams,
    body: { content: { "application/json": { schema: PoolBody } }, required: true },
  },
  responses: { 200: json(PoolSchema, "The mapping."), ...errors },
});

const removePool = createRoute({
  operationId: "removePool",
  method: "delete",
  path: "/v1/t/{tenant}/pools/{plugin}",
  summary: "Take a plugin back to its own pool",
  tags: ["nodes"],
  security,
  middleware: [permit("nodes.removePool")] as const,
  request: { params: PoolParams },
  responses: { 204: { description: "Removed." }, ...errors },
});

export function registerNodeRoutes(app: OpenAPIHono<ServerEnv>, services: Services): void {
  app.openapi(listNodes, async (c) => c.json({ nodes: await services.nodes.list(c.get("caller")) }, 200));
  app.openapi(listPools, async (c) => c.json({ pools: await services.nodes.pools(c.get("caller")) }, 200));
  app.openapi(setPool, async (c) => {
    const body = c.req.valid("json");
    const mapped = await services.nodes.setPool(c.get("caller"), {
      plugin: c.req.valid("param").plugin,
      pool: body.pool,
      labels: body.labels,
    });
    return c.json(mapped, 200);
  });
  app.openapi(removePool, async (c) => {
    await services.nodes.removePool(c.get("caller"), c.req.valid("param").plugin);
    return c.body(null, 204);
  });
}
