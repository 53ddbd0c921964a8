// Routines: listed, fired by hand, paused, resumed and their history, each by a bearer key with
// its role; and the signed webhook, which takes no key: the routine's HMAC signature over the raw
// body and timestamp is its credential. A routine is named `<plugin>/<name>` (two path segments)
// or by a tenant routine's own name (one).
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { Routines, Services } from "@oz0/runtime";
import type { ServerEnv } from "../env.js";
import { ErrorSchema, TenantParam } from "../schemas.js";
import { body, errors, json, permit, security, segment } from "./shared.js";

const FireSchema = z
  .object({
    id: z.string(),
    routine: z.string(),
    cause: z
      .string()
      .openapi({ description: "What fired it: schedule, catch_up, job_ended, webhook, channel or manual." }),
    outcome: z.string().openapi({ description: "started, queued, skipped, missed or failed." }),
    tick: z.string().nullable(),
    job: z.string().nullable().openapi({ description: "The job it started, if any." }),
    detail: z.string().nullable(),
    at: z.string(),
  })
  .openapi("RoutineFire");

const RoutineSchema = z
  .object({
    name: z.string(),
    source: z.enum(["plugin", "tenant"]),
    run: z.string(),
    schedule: z.string().nullable(),
    timezone: z.string().nullable(),
    event: z.string().nullable(),
    missed: z.enum(["skip", "catch_up_last"]),
    overlap: z.enum(["skip", "queue", "allow"]),
    identity: z.object({ actor: z.string(), role: z.string(), agents: z.array(z.string()).readonly() }),
    tools: z.array(z.string()).readonly().nullable(),
    limits: z
      .object({
        max_turns: z.number().optional(),
        max_tokens: z.number().optional(),
        wall_seconds: z.number().optional(),
        max_cost_usd: z.number().optional(),
      })
      .nullable()
      .optional(),
    paused: z.boolean(),
    next: z.string().nullable(),
    secret: z.boolean().nullable(),
    last: FireSchema.nullable(),
  })
  .openapi("Routine");

const PLUGIN = z.string().min(1).max(128).openapi(segment("plugin", "helpdesk"));
const NAME = z.string().min(1).max(128).openapi(segment("name", "nightly"));
const PluginRoutine = z.object({ tenant: TenantParam, plugin: PLUGIN, name: NAME });
const TenantRoutine = z.object({ tenant: TenantParam, name: NAME });

/** The routine a path names: `<plugin>/<name>`, or a tenant routine's name. */
function routineOf(param: { plugin?: string; name: string }): string {
  return param.plugin === undefined ? param.name : `${param.plugin}/${param.name}`;
}

const FireBody = z
  .object({
    input: z.unknown().optional().openapi({ description: "The job's input instead of the routine's." }),
  })
  .strict()
  .openapi("FireRoutine");

const HistoryQuery = z.object({
  limit: z.coerce.number().int().min(1).max(1000).optional().openapi({ description: "Default 20." }),
});

const tags = ["routines"];

const listRoutines = createRoute({
  operationId: "listRoutines",
  method: "get",
  path: "/v1/t/{tenant}/routines",
  summary: "The tenant's routines whose agent the caller may see",
  tags,
  security,
  middleware: [permit("routines.list")] as const,
  request: { params: z.object({ tenant: TenantParam }) },
  responses: { 200: json(z.object({ routines: z.array(RoutineSchema) }), "The routines."), ...errors },
});

function fireRoute(params: typeof PluginRoutine | typeof TenantRoutine, path: string, operationId: string) {
  return createRoute({
    operationId,
    method: "post",
    path,
    summary: "Fire a routine now; its job runs as the routine's identity",
    description:
      "A routine whose agent is outside the caller's scope is answered as one that does not exist.",
    tags,
    security,
    middleware: [permit("routines.fire")] as const,
    request: { params, body: { content: { "application/json": { schema: FireBody } }, required: false } },
    responses: { 201: json(FireSchema, "The fire, and the job it started."), ...errors },
  });
}

function historyRoute(
  params: typeof PluginRoutine | typeof TenantRoutine,
  path: string,
  operationId: string,
) {
  return createRoute({
    operationId,
    method: "get",
    path,
    summary: "A routine's fires, newest first",
    tags,
    security,
    middleware: [permit("routines.history")] as const,
    request: { params, query: HistoryQuery },
    responses: { 200: json(z.object({ fires: z.array(FireSchema) }), "The fires."), ...errors },
  });
}

function pausedRoute(
  params: typeof PluginRoutine | typeof TenantRoutine,
  path: string,
  operationId: string,
  paused: boolean,
) {
  return createRoute({
    operationId,
    method: "post",
    path,
    summary: paused ? "Stop a routine firing until resumed" : "Let a paused routine fire again",
    tags,
    security,
    middleware: [permit(paused ? "routines.pause" : "routines.resume")] as const,
    request: { params },
    responses: { 200: json(RoutineSchema, "The routine as it now is."), ...errors },
  });
}

function webhookRoute(
  params: typeof PluginRoutine | typeof TenantRoutine,
  path: string,
  operationId: string,
) {
  return createRoute({
    operationId,
    method: "post",
    path,
    summary: "A signed webhook: fires an event: webhook routine with the body as its job's input",
    description:
      "No API key: the request is signed with the routine's secret (oz0 routine secret). X-Oz0-Signature is sha256=<hex of HMAC-SHA256(secret, \"<X-Oz0-Timestamp>.<body>\")> over the raw body; a timestamp more than 300 s from the server's clock, a bad signature, a replay, or a routine that does not exist or takes no webhooks are all refused with UNAUTHENTICATED (data.reason says which).",
    tags,
    request: {
      params,
      headers: z.object({
        "x-oz0-timestamp": z
          .string()
          .optional()
          .openapi({ description: "Seconds since the epoch.", example: "1780272000" }),
        "x-oz0-signature": z
          .string()
          .optional()
          .openapi({ description: "sha256=<hex>", example: "sha256=5d41…" }),
      }),
      body: {
        content: {
          "*/*": { schema: z.string().openapi({ description: "Any body; JSON becomes the input parsed." }) },
        },
        required: false,
      },
    },
    responses: {
      202: json(FireSchema, "Verified and fired: the fire, and the job it started."),
      401: json(
        ErrorSchema,
        "Not verified (UNAUTHENTICATED, data.reason: signature, timestamp, stale or replay).",
      ),
      default: json(ErrorSchema, "Any other error, in the one error shape, with its code's status."),
    },
  });
}

function removeRoute(params: typeof PluginRoutine | typeof TenantRoutine, path: string, operationId: string) {
  return createRoute({
    operationId,
    method: "delete",
    path,
    summary: "Remove a routine of the tenant's own (a plugin's goes with its plugin)",
    tags,
    security,
    middleware: [permit("routines.remove")] as const,
    request: { params },
    responses: { 200: json(z.object({ removed: z.string() }), "The routine removed."), ...errors },
  });
}

function secretRoute(params: typeof PluginRoutine | typeof TenantRoutine, path: string, operationId: string) {
  return createRoute({
    operationId,
    method: "post",
    path,
    summary: "Make a webhook routine's signing secret anew; the answer holds it, once",
    description:
      "The previous secret stops working. Only its hash is kept; no other answer or audit entry holds it.",
    tags,
    security,
    middleware: [permit("routines.secret")] as const,
    request: { params },
    responses: {
      201: json(
        z.object({ routine: z.string(), secret: z.string() }).openapi("RoutineSecret"),
        "The signing secret, shown this once.",
      ),
      ...errors,
    },
  });
}

// A tenant routine as `oz0 routine add` builds it: checked by the runtime as install checks a
// manifest's routine (the plugin manifest's schema), so a refusal reads as it does embedded.
const AddRoutineBody = z
  .object({
    name: z.string().openapi({ example: "nightly" }),
    run: z.string().openapi({ example: "helpdesk/triage" }),
  })
  .catchall(z.unknown())
  .openapi("NewRoutine", {
    description:
      "A routine of the plugin manifest's routines: form (name, run, schedule or event, timezone, missed, overlap, input, identity, tools, limits).",
  });

const addRoutine = createRoute({
  operationId: "addRoutine",
  method: "post",
  path: "/v1/t/{tenant}/routines",
  summary: "Add a routine of the tenant's own",
  tags,
  security,
  middleware: [permit("routines.add")] as const,
  request: { params: z.object({ tenant: TenantParam }), ...body(AddRoutineBody) },
  responses: { 201: json(RoutineSchema, "The routine."), ...errors },
});

const base = "/v1/t/{tenant}/routines";
const routes = {
  fire: [
    fireRoute(PluginRoutine, `${base}/{plugin}/{name}/fires`, "fireRoutine"),
    fireRoute(TenantRoutine, `${base}/{name}/fires`, "fireTenantRoutine"),
  ],
  history: [
    historyRoute(PluginRoutine, `${base}/{plugin}/{name}/fires`, "routineHistory"),
    historyRoute(TenantRoutine, `${base}/{name}/fires`, "tenantRoutineHistory"),
  ],
  pause: [
    pausedRoute(PluginRoutine, `${base}/{plugin}/{name}/pause`, "pauseRoutine", true),
    pausedRoute(TenantRoutine, `${base}/{name}/pause`, "pauseTenantRoutine", true),
  ],
  resume: [
    pausedRoute(PluginRoutine, `${base}/{plugin}/{name}/resume`, "resumeRoutine", false),
    pausedRoute(TenantRoutine, `${base}/{name}/resume`, "resumeTenantRoutine", false),
  ],
  remove: [
    removeRoute(PluginRoutine, `${base}/{plugin}/{name}`, "removePluginRoutine"),
    removeRoute(TenantRoutine, `${base}/{name}`, "removeRoutine"),
  ],
  secret: [
    secretRoute(PluginRoutine, `${base}/{plugin}/{name}/secret`, "pluginRoutineSecret"),
    secretRoute(TenantRoutine, `${base}/{name}/secret`, "routineSecret"),
  ],
  webhook: [
    webhookRoute(PluginRoutine, `${base}/{plugin}/{name}/fire`, "routineWebhook"),
    webhookRoute(TenantRoutine, `${base}/{name}/fire`, "tenantRoutineWebhook"),
  ],
};

export function registerRoutineRoutes(app: OpenAPIHono<ServerEnv>, services: Services): void {
  const { routines } = services;
  app.openapi(listRoutines, async (c) => c.json({ routines: await routines.list(c.get("caller")) }, 200));
  for (const route of routes.fire) {
    app.openapi(route, async (c) => {
      // The body is optional: none fires the routine with its own input.
      const sent = (c.req.valid("json") as z.infer<typeof FireBody> | undefined) ?? {};
      const options = sent.input === undefined ? {} : { input: sent.input };
      return c.json(await routines.fire(c.get("caller"), routineOf(c.req.valid("param")), options), 201);
    });
  }
  app.openapi(addRoutine, async (c) =>
    c.json((await routines.add(c.get("caller"), c.req.valid("json") as never)) as never, 201),
  );
  for (const route of routes.remove) {
    app.openapi(route, async (c) =>
      c.json(await routines.remove(c.get("caller"), routineOf(c.req.valid("param"))), 200),
    );
  }
  for (const route of routes.secret) {
    app.openapi(route, async (c) =>
      c.json(await routines.secret(c.get("caller"), routineOf(c.req.valid("param"))), 201),
    );
  }
  for (const route of routes.history) {
    app.openapi(route, async (c) => {
      const { limit } = c.req.valid("query");
      const fires = await routines.history(
        c.get("caller"),
        routineOf(c.req.valid("param")),
        limit === undefined ? {} : { limit },
      );
      return c.json({ fires }, 200);
    });
  }
  for (const route of routes.pause) {
    app.openapi(route, async (c) =>
      c.json(await routines.pause(c.get("caller"), routineOf(c.req.valid("param"))), 200),
    );
  }
  for (const route of routes.resume) {
    app.openapi(route, async (c) =>
      c.json(await routines.resume(c.get("caller"), routineOf(c.req.valid("param"))), 200),
    );
  }
}

/**
 * The signed webhooks. Registered before the bearer-key middleware: the signature is their
 * credential, and a key is neither asked for nor looked at.
 */
export function registerRoutineWebhooks(app: OpenAPIHono<ServerEnv>, routines: Routines): void {
  for (const route of routes.webhook) {
    app.openapi(route, async (c) => {
      const param = c.req.valid("param");
      const headers = c.req.valid("header");
      const fired = await routines.webhook({
        tenant: param.tenant,
        routine: routineOf(param),
        timestamp: headers["x-oz0-timestamp"] ?? "",
        signature: headers["x-oz0-signature"] ?? "",
        // The signature covers these exact bytes.
        body: await c.req.text(),
      });
      return c.json(fired, 202);
    });
  }
}
