// Calling a function by hand (`oz0 tool call`): on the dispatch path, with its arguments
// checked, governed and recorded as any call outside a job is.
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { Services } from "@oz0/runtime";
import type { ServerEnv } from "../env.js";
import { TenantParams } from "../schemas.js";
import { body, errors, json, permit, security } from "./shared.js";

const CallBody = z
  .object({
    address: z.string().min(1).max(400).openapi({ example: "support-triage/tickets.get" }),
    args: z.unknown().openapi({ description: "The function's arguments, a JSON object." }),
  })
  .strict()
  .openapi("ToolCall");

const CallReport = z
  .object({ address: z.string(), modelName: z.string(), ok: z.boolean(), ms: z.number() })
  .catchall(z.unknown())
  .openapi("ToolCallReport", {
    description: "The call's result, or its error (ok false: the function ran and failed).",
  });

const callTool = createRoute({
  operationId: "callTool",
  method: "post",
  path: "/v1/t/{tenant}/tools/calls",
  summary: "Call a function by its address",
  tags: ["tools"],
  security,
  middleware: [permit("tools.call")] as const,
  request: { params: TenantParams, ...body(CallBody) },
  responses: { 200: json(CallReport, "The call's report."), ...errors },
});

export function registerToolRoutes(app: OpenAPIHono<ServerEnv>, services: Services): void {
  app.openapi(callTool, async (c) => {
    const { address, args } = c.req.valid("json");
    return c.json((await services.tools.call(c.get("caller"), address, args)) as never, 200);
  });
}
