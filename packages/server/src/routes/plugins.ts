// Plugins over HTTP: list, inspect (with the bundle's digest), install and update by uploading
// a bundle archive (`oz0 plugin pack`'s .tgz), remove, and grant or revoke what a plugin's
// `uses:` asks of other plugins (`oz0 plugin grant`). An upload is unpacked within the
// bundle limits and installed from the bundle: never from a folder on the server.
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { type Runtime, unpackBundle } from "@oz0/runtime";
import type { Context } from "hono";
import type { ServerEnv } from "../env.js";
import { TenantParam, TenantParams } from "../schemas.js";
import { errors, json, permit, security } from "./shared.js";

const Plugin = z
  .object({ name: z.string() })
  .catchall(z.unknown())
  .openapi("Plugin", { description: "An installed plugin: name, version, digest, part counts." });
const PluginDetail = z
  .object({ name: z.string() })
  .catchall(z.unknown())
  .openapi("PluginDetail", { description: "A plugin's parts, uses, bundle digest and history." });
const ChangeReport = z
  .object({})
  .catchall(z.unknown())
  .openapi("PluginChange", { description: "What the install, update or remove did." });

const GrantReport = z
  .object({
    action: z.enum(["grant", "revoke"]),
    tenant: z.string(),
    plugin: z.string(),
    version: z.string().nullable(),
    uses: z.array(z.string()),
    by: z.string(),
  })
  .openapi("PluginGrant", {
    description:
      "What was granted (the plugin version whose uses: it is, and what it lists by address), or taken back; version is null for a revoke of a plugin that had no grant.",
  });

const AdminStatus = z
  .object({
    name: z.string().openapi({ description: "The admin spec's name (status for a status-only one)." }),
    state: z.enum(["ok", "degraded", "error", "off"]),
    message: z.string().optional(),
    details: z.record(z.string(), z.unknown()).optional(),
  })
  .openapi("PluginAdminStatus", { description: "What an admin spec's status() said now." });
const RuntimeStatus = z
  .object({
    plugin: z.string(),
    runtime: z.string(),
    state: z.enum(["starting", "running", "restarting", "stopped", "failed"]),
    restarts: z.number().int(),
    lastError: z.string().nullable(),
    since: z
      .number()
      .nullable()
      .openapi({ description: "When it entered its state, epoch ms; null if it never ran." }),
    node: z.string().nullable().openapi({ description: "The node running it; null when none does." }),
  })
  .openapi("PluginRuntimeStatus", { description: "A plugin runtime as the node running it last wrote it." });
const PluginStatus = z
  .object({ plugin: z.string(), admin: z.array(AdminStatus), runtimes: z.array(RuntimeStatus) })
  .openapi("PluginStatus", {
    description: "A plugin's live status: its admin specs' status() and its runtimes.",
  });

const PluginParams = z.object({
  tenant: TenantParam,
  name: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: "name", in: "path" }, example: "support-triage" }),
});
const ChangeQuery = z.object({
  force: z
    .enum(["true", "false"])
    .optional()
    .openapi({ description: "Go past what the change would break for other plugins (needs reason)." }),
  reason: z.string().min(1).max(2000).optional(),
});
const UploadQuery = ChangeQuery.extend({
  source: z.string().min(1).max(4096).optional().openapi({
    description:
      "Where the bundle came from as the client names it (the folder oz0 plugin install packed), shown as the plugin's folder; default upload.",
  }),
});

/** The archive an install or update uploads. */
const upload = {
  body: {
    content: {
      "application/gzip": {
        schema: z.string().openapi({ format: "binary", description: "A bundle archive (oz0 plugin pack)." }),
      },
    },
    required: true,
  },
};

/** The paths whose bodies are bundle archives: the upload limit applies to them, not the JSON one. */
export const UPLOAD_PATH = /^\/v1\/t\/[^/]+\/plugins\/?$/;

const routes = {
  list: createRoute({
    operationId: "listPlugins",
    method: "get",
    path: "/v1/t/{tenant}/plugins",
    summary: "The tenant's plugins",
    tags: ["plugins"],
    security,
    middleware: [permit("plugins.list")] as const,
    request: { params: TenantParams },
    responses: { 200: json(z.object({ plugins: z.array(Plugin) }), "The plugins."), ...errors },
  }),
  inspect: createRoute({
    operationId: "inspectPlugin",
    method: "get",
    path: "/v1/t/{tenant}/plugins/{name}",
    summary: "A plugin's parts, uses, bundle digest and history",
    tags: ["plugins"],
    security,
    middleware: [permit("plugins.inspect")] as const,
    request: { params: PluginParams },
    responses: { 200: json(PluginDetail, "The plugin."), ...errors },
  }),
  statuses: createRoute({
    operationId: "listPluginStatus",
    method: "get",
    path: "/v1/t/{tenant}/plugin-status",
    summary: "The live status of every plugin of the tenant",
    tags: ["plugins"],
    security,
    middleware: [permit("plugins.status")] as const,
    request: { params: TenantParams },
    responses: {
      200: json(z.object({ plugins: z.array(PluginStatus) }), "Each plugin's status."),
      ...errors,
    },
  }),
  status: createRoute({
    operationId: "getPluginStatus",
    method: "get",
    path: "/v1/t/{tenant}/plugins/{name}/status",
    summary: "A plugin's live status: its admin specs' status() and the state of its runtimes",
    tags: ["plugins"],
    security,
    middleware: [permit("plugins.status")] as const,
    request: { params: PluginParams },
    responses: { 200: json(PluginStatus, "The plugin's status."), ...errors },
  }),
  install: createRoute({
    operationId: "installPlugin",
    method: "post",
    path: "/v1/t/{tenant}/plugins",
    summary: "Install a plugin by uploading its bundle archive",
    tags: ["plugins"],
    security,
    middleware: [permit("plugins.install")] as const,
    request: { params: TenantParams, query: UploadQuery, ...upload },
    responses: { 201: json(ChangeReport, "Installed."), ...errors },
  }),
  update: createRoute({
    operationId: "updatePlugin",
    method: "put",
    path: "/v1/t/{tenant}/plugins",
    summary: "Update an installed plugin by uploading its new bundle archive",
    description: "The archive's manifest names the plugin it updates.",
    tags: ["plugins"],
    security,
    middleware: [permit("plugins.update")] as const,
    request: { params: TenantParams, query: UploadQuery, ...upload },
    responses: { 200: json(ChangeReport, "Updated."), ...errors },
  }),
  remove: createRoute({
    operationId: "removePlugin",
    method: "delete",
    path: "/v1/t/{tenant}/plugins/{name}",
    summary: "Remove a plugin",
    tags: ["plugins"],
    security,
    middleware: [permit("plugins.remove")] as const,
    request: { params: PluginParams, query: ChangeQuery },
    responses: { 200: json(ChangeReport, "Removed."), ...errors },
  }),
  grant: createRoute({
    operationId: "grantPlugin",
    method: "post",
    path: "/v1/t/{tenant}/plugins/{name}/grant",
    summary: "Grant a plugin what its uses: asks of other plugins",
    description:
      "Install and update by an admin grant it at once; this grants a plugin that came with the defaults, or whose grant was revoked.",
    tags: ["plugins"],
    security,
    middleware: [permit("plugins.grant")] as const,
    request: { params: PluginParams },
    responses: { 200: json(GrantReport, "Granted."), ...errors },
  }),
  revoke: createRoute({
    operationId: "revokePluginGrant",
    method: "delete",
    path: "/v1/t/{tenant}/plugins/{name}/grant",
    summary: "Take back a plugin's grant",
    description:
      "Its agents and flows reach no other plugin's part from their next call on, running jobs included.",
    tags: ["plugins"],
    security,
    middleware: [permit("plugins.revoke")] as const,
    request: { params: PluginParams },
    responses: { 200: json(GrantReport, "Revoked."), ...errors },
  }),
};

type Shaped = Record<string, unknown>;
const shaped = (value: unknown) => value as Shaped;

function changeOptions(query: z.infer<typeof ChangeQuery>) {
  return { force: query.force === "true", ...(query.reason === undefined ? {} : { reason: query.reason }) };
}

/** The uploaded archive as a bundle; a body that is not one is refused with the bundle's own error. */
async function uploaded(c: Context<ServerEnv>, source: string | undefined) {
  const archive = new Uint8Array(await c.req.arrayBuffer());
  return unpackBundle(archive, { name: source ?? "the uploaded archive" });
}

export function registerPluginRoutes(app: OpenAPIHono<ServerEnv>, runtime: Runtime): void {
  const { plugins } = runtime.services;
  app.openapi(routes.list, async (c) =>
    c.json({ plugins: (await plugins.list(c.get("caller"))).map(shaped) as { name: string }[] }, 200),
  );
  app.openapi(routes.inspect, async (c) =>
    c.json(
      shaped(await plugins.inspect(c.get("caller"), c.req.valid("param").name)) as { name: string },
      200,
    ),
  );
  // The views are readonly; the response schema describes the same shape.
  type StatusBody = z.infer<typeof PluginStatus>;
  app.openapi(routes.statuses, async (c) =>
    c.json({ plugins: (await plugins.status(c.get("caller"))) as StatusBody[] }, 200),
  );
  app.openapi(routes.status, async (c) => {
    const [status] = await plugins.status(c.get("caller"), c.req.valid("param").name);
    return c.json(status as StatusBody, 200);
  });
  app.openapi(routes.install, async (c) => {
    const query = c.req.valid("query");
    const bundle = await uploaded(c, query.source);
    const report = await plugins.install(c.get("caller"), bundle, {
      ...changeOptions(query),
      source: query.source ?? "upload",
    });
    return c.json(shaped(report), 201);
  });
  app.openapi(routes.update, async (c) => {
    const query = c.req.valid("query");
    const bundle = await uploaded(c, query.source);
    const report = await plugins.update(c.get("caller"), bundle, {
      ...changeOptions(query),
      source: query.source ?? "upload",
    });
    return c.json(shaped(report), 200);
  });
  app.openapi(routes.grant, async (c) => {
    const report = await plugins.grant(c.get("caller"), c.req.valid("param").name);
    return c.json({ ...report, uses: [...report.uses] }, 200);
  });
  app.openapi(routes.revoke, async (c) => {
    const report = await plugins.revoke(c.get("caller"), c.req.valid("param").name);
    return c.json({ ...report, uses: [...report.uses] }, 200);
  });
  app.openapi(routes.remove, async (c) => {
    const { name } = c.req.valid("param");
    return c.json(
      shaped(await plugins.remove(c.get("caller"), name, changeOptions(c.req.valid("query")))),
      200,
    );
  });
}
