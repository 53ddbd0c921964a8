// The audit log: who changed what in the tenant and when, newest first; reading it is an admin's.
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { Services } from "@oz0/runtime";
import type { ServerEnv } from "../env.js";
import { TenantParam } from "../schemas.js";
import { errors, json, permit, security } from "./shared.js";

const AuditEntrySchema = z
  .object({
    seq: z.number().int(),
    tenant: z.string().nullable(),
    at: z.number().openapi({ description: "Epoch milliseconds." }),
    actor: z.string(),
    role: z.string().nullable(),
    action: z.string(),
    target: z.string(),
    detail: z.record(z.string(), z.unknown()),
  })
  .openapi("AuditEntry");

const AuditQuery = z.object({
  since: z.coerce
    .number()
    .int()
    .min(0)
    .optional()
    .openapi({ description: "Entries at or after this time, epoch milliseconds." }),
  actor: z.string().min(1).optional().openapi({ example: "key:k_8f2d" }),
  action: z
    .string()
    .min(1)
    .optional()
    .openapi({ description: "One action (key.create), or every action on a thing (key)." }),
  limit: z.coerce.number().int().min(1).max(10_000).optional().openapi({ description: "Default 100." }),
});

const listAudit = createRoute({
  operationId: "listAudit",
  method: "get",
  path: "/v1/t/{tenant}/audit",
  summary: "The tenant's audit log, newest first",
  tags: ["audit"],
  security,
  middleware: [permit("audit.list")] as const,
  request: { params: z.object({ tenant: TenantParam }), query: AuditQuery },
  responses: {
    200: json(z.object({ entries: z.array(AuditEntrySchema) }), "The entries that match."),
    ...errors,
  },
});

export function registerAuditRoutes(app: OpenAPIHono<ServerEnv>, services: Services): void {
  app.openapi(listAudit, async (c) => {
    const query = c.req.valid("query");
    const entries = await services.audit.list(c.get("caller"), query);
    return c.json({ entries }, 200);
  });
}
