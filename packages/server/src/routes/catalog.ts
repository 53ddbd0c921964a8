// The catalog over HTTP: the tenant's parts by address, and one part looked up by address or
// bare name. Agents and flows outside the caller's scope are left out, or answered as missing.
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { Runtime } from "@oz0/runtime";
import type { ServerEnv } from "../env.js";
import { TenantParams } from "../schemas.js";
import { errors, json, permit, security, segment } from "./shared.js";

const Part = z
  .object({ kind: z.string(), address: z.string(), plugin: z.string(), name: z.string() })
  .catchall(z.unknown())
  .openapi("Part", { description: "A part by address, with its tags and what the inventory says of it." });
const KindEnum = z.enum(["agent", "flow", "tool", "function", "skill"]);

const listParts = createRoute({
  operationId: "listParts",
  method: "get",
  path: "/v1/t/{tenant}/catalog",
  summary: "Every part of the tenant by address",
  tags: ["catalog"],
  security,
  middleware: [permit("catalog.entries")] as const,
  request: { params: TenantParams, query: z.object({ tag: z.string().min(1).max(64).optional() }) },
  responses: { 200: json(z.object({ parts: z.array(Part) }), "The parts the caller may see."), ...errors },
});

const lookupPart = createRoute({
  operationId: "lookupPart",
  method: "get",
  path: "/v1/t/{tenant}/catalog/lookup",
  summary: "One part by address or bare name",
  tags: ["catalog"],
  security,
  middleware: [permit("catalog.lookup")] as const,
  request: {
    params: TenantParams,
    query: z.object({ name: z.string().min(1).max(400), kind: KindEnum.optional() }),
  },
  responses: {
    200: json(Part, "The part, `bare` saying whether it was named without its plugin."),
    ...errors,
  },
});

const Schema = z.record(z.string(), z.unknown());
const Agent = z
  .object({
    address: z.string(),
    plugin: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    runtime: z.string().openapi({ description: "The agent runtime; `oz0` is oz0's own loop." }),
    model: z.object({ use: z.string(), script: z.string().optional() }).nullable(),
    tools: z.array(z.string()).openapi({ description: "The functions it may call, by address." }),
    skills: z.array(z.string()),
    tags: z.array(z.string()),
    inventory: z.object({ purpose: z.string(), owner: z.string().nullable() }).optional(),
    inputSchema: Schema.nullable().openapi({ description: "Its input_schema; null when it takes text." }),
    outputSchema: Schema.nullable().openapi({ description: "Its output_schema; null for a text answer." }),
    failures: z.array(z.object({ kind: z.string(), description: z.string() })),
    limits: z.record(z.string(), z.number()),
  })
  .openapi("Agent", { description: "An agent as its console page shows it." });

const getAgent = createRoute({
  operationId: "getAgent",
  method: "get",
  path: "/v1/t/{tenant}/agents/{plugin}/{name}",
  summary: "An agent: its runtime, model, tools, skills and the schemas of its input and answer",
  tags: ["catalog"],
  security,
  middleware: [permit("catalog.agent")] as const,
  request: {
    params: TenantParams.extend({
      plugin: z.string().min(1).max(128).openapi(segment("plugin", "helpdesk")),
      name: z.string().min(1).max(128).openapi(segment("name", "triage")),
    }),
  },
  responses: { 200: json(Agent, "The agent."), ...errors },
});

const Flow = z
  .object({
    address: z.string(),
    plugin: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    source: z
      .enum(["yaml", "code"])
      .openapi({ description: "YAML steps in plugin.yaml, or code (host.addFlow)." }),
    tags: z.array(z.string()),
    inventory: z.object({ purpose: z.string(), owner: z.string().nullable() }).optional(),
    inputSchema: Schema.nullable().openapi({ description: "Its input schema; null when it takes text." }),
    outputSchema: Schema.nullable().openapi({
      description: "Its output schema; null when it declares none.",
    }),
  })
  .openapi("Flow", { description: "A flow as its console page shows it." });

const getFlow = createRoute({
  operationId: "getFlow",
  method: "get",
  path: "/v1/t/{tenant}/flows/{plugin}/{name}",
  summary: "A flow: where its steps are written and the schemas of its input and answer",
  tags: ["catalog"],
  security,
  middleware: [permit("catalog.flow")] as const,
  request: {
    params: TenantParams.extend({
      plugin: z.string().min(1).max(128).openapi(segment("plugin", "ledger")),
      name: z.string().min(1).max(128).openapi(segment("name", "monthly-close")),
    }),
  },
  responses: { 200: json(Flow, "The flow."), ...errors },
});

export function registerCatalogRoutes(app: OpenAPIHono<ServerEnv>, runtime: Runtime): void {
  const { catalog } = runtime.services;
  app.openapi(listParts, async (c) => {
    const { tag } = c.req.valid("query");
    const parts = await catalog.entries(c.get("caller"), { tag });
    return c.json({ parts: parts as unknown as z.infer<typeof Part>[] }, 200);
  });
  app.openapi(lookupPart, async (c) => {
    const { name, kind } = c.req.valid("query");
    const part = await catalog.lookup(c.get("caller"), name, { kind });
    return c.json(part as unknown as z.infer<typeof Part>, 200);
  });
  app.openapi(getAgent, async (c) => {
    const { plugin, name } = c.req.valid("param");
    const agent = await catalog.agent(c.get("caller"), `${plugin}/${name}`);
    return c.json(agent as unknown as z.infer<typeof Agent>, 200);
  });
  app.openapi(getFlow, async (c) => {
    const { plugin, name } = c.req.valid("param");
    const flow = await catalog.flow(c.get("caller"), `${plugin}/${name}`);
    return c.json(flow as unknown as z.infer<typeof Flow>, 200);
  });
}
