// The records plugins' tools keep, over HTTP: list, get, history, the tenant's retention per
// kind, legal holds, erasure by subject, and a sweep of what is past its retention. Each route
// parses, calls one service method with the caller, and answers.
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { Services } from "@oz0/runtime";
import type { ServerEnv } from "../env.js";
import { TenantParam } from "../schemas.js";
import { body, errors, json, permit, security, segment } from "./shared.js";

const StoredRecord = z
  .object({
    plugin: z.string(),
    kind: z.string(),
    key: z.string(),
    version: z.number().int(),
    subject: z.string().optional(),
    value: z.unknown(),
    createdAt: z.number().openapi({ description: "Epoch milliseconds." }),
  })
  .openapi("Record");
const Retention = z
  .object({
    plugin: z.string(),
    kind: z.string(),
    days: z.number().int(),
    setBy: z.string(),
    setAt: z.number(),
  })
  .openapi("RecordRetention");
const Hold = z
  .object({
    id: z.string(),
    plugin: z.string().optional(),
    kind: z.string().optional(),
    key: z.string().optional(),
    subject: z.string().optional(),
    reason: z.string(),
    placedBy: z.string(),
    placedAt: z.number(),
    releasedBy: z.string().optional(),
    releasedAt: z.number().optional(),
  })
  .openapi("RecordHold");
const Erasure = z
  .object({
    subject: z.string(),
    records: z.number().int(),
    versions: z.number().int(),
    events: z.number().int(),
    jobs: z.number().int(),
  })
  .openapi("RecordErasure");

const name = z.string().min(1).max(512);
const KindParams = z.object({
  tenant: TenantParam,
  plugin: z.string().min(1).max(64).openapi(segment("plugin", "crm")),
  kind: z.string().min(1).max(64).openapi(segment("kind", "contact")),
});
const RecordParams = KindParams.extend({ key: name.openapi(segment("key", "c-1")) });
const TenantParams = z.object({ tenant: TenantParam });
const ListQuery = z.object({
  plugin: z.string().min(1).max(64).optional(),
  kind: z.string().min(1).max(64).optional(),
  subject: name.optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
});
const GetQuery = z.object({
  version: z.coerce
    .number()
    .int()
    .min(1)
    .optional()
    .openapi({ description: "This version rather than the latest." }),
});
const RetentionBody = z
  .object({ days: z.number().int().min(1).max(36_500).nullable() })
  .strict()
  .openapi("RecordRetentionBody", { description: "null keeps the kind's records for ever." });
const HoldBody = z
  .object({
    plugin: z.string().min(1).max(64).optional(),
    kind: z.string().min(1).max(64).optional(),
    key: name.optional(),
    subject: name.optional(),
    reason: z.string().min(1).max(2000),
  })
  .strict()
  .openapi("RecordHoldBody");
const HoldsQuery = z.object({
  all: z.enum(["true", "false"]).optional().openapi({ description: "Released holds too." }),
});
const HoldParams = z.object({
  tenant: TenantParam,
  id: z.string().min(1).max(64).openapi(segment("id", "hold-3k9x")),
});
const ErasureBody = z.object({ subject: name }).strict().openapi("RecordErasureBody");

const tags = ["records"];
const routes = {
  list: createRoute({
    operationId: "listRecords",
    method: "get",
    path: "/v1/t/{tenant}/records",
    summary: "The latest version of each record, newest first",
    tags,
    security,
    middleware: [permit("records.list")] as const,
    request: { params: TenantParams, query: ListQuery },
    responses: {
      200: json(z.object({ records: z.array(StoredRecord) }), "The records that match."),
      ...errors,
    },
  }),
  get: createRoute({
    operationId: "getRecord",
    method: "get",
    path: "/v1/t/{tenant}/records/{plugin}/{kind}/{key}",
    summary: "One record: its latest version, or the version asked for",
    tags,
    security,
    middleware: [permit("records.get")] as const,
    request: { params: RecordParams, query: GetQuery },
    responses: { 200: json(StoredRecord, "The record."), ...errors },
  }),
  history: createRoute({
    operationId: "recordHistory",
    method: "get",
    path: "/v1/t/{tenant}/records/{plugin}/{kind}/{key}/versions",
    summary: "Every version of one record, oldest first",
    tags,
    security,
    middleware: [permit("records.history")] as const,
    request: { params: RecordParams },
    responses: { 200: json(z.object({ versions: z.array(StoredRecord) }), "The versions."), ...errors },
  }),
  retention: createRoute({
    operationId: "listRecordRetention",
    method: "get",
    path: "/v1/t/{tenant}/record-retention",
    summary: "How long the tenant keeps each kind of record",
    tags,
    security,
    middleware: [permit("records.retention")] as const,
    request: { params: TenantParams },
    responses: {
      200: json(z.object({ retention: z.array(Retention) }), "The kinds with a retention."),
      ...errors,
    },
  }),
  setRetention: createRoute({
    operationId: "setRecordRetention",
    method: "put",
    path: "/v1/t/{tenant}/record-retention/{plugin}/{kind}",
    summary: "Keep a kind's records this many days (null: for ever)",
    tags,
    security,
    middleware: [permit("records.setRetention")] as const,
    request: { params: KindParams, ...body(RetentionBody) },
    responses: {
      200: json(z.object({ retention: z.array(Retention) }), "The kinds with a retention."),
      ...errors,
    },
  }),
  sweep: createRoute({
    operationId: "sweepRecords",
    method: "post",
    path: "/v1/t/{tenant}/records/sweep",
    summary: "Remove what is past its retention now",
    tags,
    security,
    middleware: [permit("records.sweep")] as const,
    request: { params: TenantParams },
    responses: { 200: json(z.object({ removed: z.number().int() }), "How many versions went."), ...errors },
  }),
  holds: createRoute({
    operationId: "listRecordHolds",
    method: "get",
    path: "/v1/t/{tenant}/record-holds",
    summary: "The legal holds in force (all=true: released ones too)",
    tags,
    security,
    middleware: [permit("records.holds")] as const,
    request: { params: TenantParams, query: HoldsQuery },
    responses: { 200: json(z.object({ holds: z.array(Hold) }), "The holds."), ...errors },
  }),
  hold: createRoute({
    operationId: "placeRecordHold",
    method: "post",
    path: "/v1/t/{tenant}/record-holds",
    summary: "Place a legal hold on a plugin's records, a subject's, or both",
    tags,
    security,
    middleware: [permit("records.hold")] as const,
    request: { params: TenantParams, ...body(HoldBody) },
    responses: { 201: json(Hold, "The hold placed."), ...errors },
  }),
  release: createRoute({
    operationId: "releaseRecordHold",
    method: "post",
    path: "/v1/t/{tenant}/record-holds/{id}/release",
    summary: "Release a legal hold",
    tags,
    security,
    middleware: [permit("records.release")] as const,
    request: { params: HoldParams },
    responses: { 200: json(Hold, "The hold released."), ...errors },
  }),
  erase: createRoute({
    operationId: "eraseRecords",
    method: "post",
    path: "/v1/t/{tenant}/record-erasures",
    summary: "Erase every record about a subject, and what job histories hold of them",
    tags,
    security,
    middleware: [permit("records.erase")] as const,
    request: { params: TenantParams, ...body(ErasureBody) },
    responses: { 200: json(Erasure, "What was erased."), ...errors },
  }),
};

export function registerRecordRoutes(app: OpenAPIHono<ServerEnv>, services: Services): void {
  const { records } = services;
  app.openapi(routes.list, async (c) => {
    const list = await records.list(c.get("caller"), c.req.valid("query"));
    return c.json({ records: list }, 200);
  });
  app.openapi(routes.get, async (c) => {
    const { plugin, kind, key } = c.req.valid("param");
    return c.json(
      await records.get(c.get("caller"), { plugin, kind, key }, c.req.valid("query").version),
      200,
    );
  });
  app.openapi(routes.history, async (c) => {
    const { plugin, kind, key } = c.req.valid("param");
    return c.json({ versions: await records.history(c.get("caller"), { plugin, kind, key }) }, 200);
  });
  app.openapi(routes.retention, async (c) =>
    c.json({ retention: await records.retention(c.get("caller")) }, 200),
  );
  app.openapi(routes.setRetention, async (c) => {
    const { plugin, kind } = c.req.valid("param");
    const { days } = c.req.valid("json");
    return c.json(
      { retention: await records.setRetention(c.get("caller"), plugin, kind, days ?? undefined) },
      200,
    );
  });
  app.openapi(routes.sweep, async (c) => c.json(await records.sweep(c.get("caller")), 200));
  app.openapi(routes.holds, async (c) =>
    c.json(
      { holds: await records.holds(c.get("caller"), { all: c.req.valid("query").all === "true" }) },
      200,
    ),
  );
  app.openapi(routes.hold, async (c) => {
    const { reason, ...scope } = c.req.valid("json");
    return c.json(await records.hold(c.get("caller"), scope, reason), 201);
  });
  app.openapi(routes.release, async (c) =>
    c.json(await records.release(c.get("caller"), c.req.valid("param").id), 200),
  );
  app.openapi(routes.erase, async (c) =>
    c.json(await records.erase(c.get("caller"), c.req.valid("json").subject), 200),
  );
}
