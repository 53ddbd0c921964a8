// Usage: cost and tokens of the tenant's model calls per agent, model or day, for the
// governance page and reports; a key limited to some agents reads only its agents' calls.
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { Services } from "@oz0/runtime";
import type { ServerEnv } from "../env.js";
import { TenantParam } from "../schemas.js";
import { errors, json, permit, security } from "./shared.js";

const Amounts = {
  inputTokens: z.number().int(),
  outputTokens: z.number().int(),
  modelCalls: z.number().int(),
  costUsd: z.number(),
};

const UsageSchema = z
  .object({
    by: z.enum(["agent", "model", "day"]),
    since: z
      .number()
      .int()
      .openapi({ description: "The start of the first hour counted, epoch milliseconds." }),
    rows: z.array(
      z
        .object({
          key: z
            .string()
            .openapi({ description: "The agent's address, the model, or the UTC day (YYYY-MM-DD)." }),
          ...Amounts,
        })
        .openapi("UsageRow"),
    ),
    total: z.object(Amounts).openapi("UsageAmounts"),
  })
  .openapi("Usage");

const UsageQuery = z.object({
  by: z.enum(["agent", "model", "day"]).openapi({ description: "What each row totals." }),
  since: z.coerce.number().int().min(0).optional().openapi({
    type: "integer",
    description:
      "Calls at or after the hour this time falls in, epoch milliseconds; default the last 30 days.",
  }),
});

const usage = createRoute({
  operationId: "usage",
  method: "get",
  path: "/v1/t/{tenant}/usage",
  summary: "Cost and tokens of the tenant's model calls per agent, model or day",
  description:
    "Read from the totals kept per agent, model and hour as each model call is recorded. A caller limited to some agents is told only of its agents' calls.",
  tags: ["governance"],
  security,
  middleware: [permit("usage.report")] as const,
  request: { params: z.object({ tenant: TenantParam }), query: UsageQuery },
  responses: { 200: json(UsageSchema, "The totals, one row per agent, model or day."), ...errors },
});

export function registerUsageRoutes(app: OpenAPIHono<ServerEnv>, services: Services): void {
  app.openapi(usage, async (c) => {
    const { by, since } = c.req.valid("query");
    const report = await services.usage.report(c.get("caller"), { by, since });
    return c.json({ ...report, rows: [...report.rows] }, 200);
  });
}
