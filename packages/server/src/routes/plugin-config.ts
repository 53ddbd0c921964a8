// A plugin's config: read by a viewer through the plugin's redaction (its secrets masked), set
// or unset by an operator. A masked value sent back as it was read keeps its secret.
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { Services } from "@oz0/runtime";
import type { ServerEnv } from "../env.js";
import { TenantParam } from "../schemas.js";
import { body, errors, json, permit, security, segment } from "./shared.js";

const PluginConfigSchema = z
  .object({
    plugin: z.string(),
    config: z
      .record(z.string(), z.unknown())
      .openapi({ description: "Through the plugin's redact(): secrets masked." }),
    set: z.boolean().openapi({ description: "Whether an operator set anything over the defaults." }),
    schema: z.record(z.string(), z.unknown()).nullable().openapi({
      description:
        "The config's JSON Schema from the plugin's admin spec, which the console's form is drawn from.",
    }),
  })
  .openapi("PluginConfig");

const Params = z.object({
  tenant: TenantParam,
  plugin: z.string().min(1).max(128).openapi(segment("plugin", "helpdesk")),
});

const SetConfigBody = z
  .object({ config: z.record(z.string(), z.unknown()) })
  .strict()
  .openapi("SetPluginConfig", {
    description:
      "The config over the plugin's defaults, checked by its admin spec. A value sent exactly as GET masked it keeps the secret it stands for.",
  });

const tags = ["plugin config"];

const routes = {
  show: createRoute({
    operationId: "getPluginConfig",
    method: "get",
    path: "/v1/t/{tenant}/plugins/{plugin}/config",
    summary: "A plugin's config, its secrets masked",
    tags,
    security,
    middleware: [permit("pluginConfig.show")] as const,
    request: { params: Params },
    responses: { 200: json(PluginConfigSchema, "The config the plugin runs with, redacted."), ...errors },
  }),
  set: createRoute({
    operationId: "setPluginConfig",
    method: "put",
    path: "/v1/t/{tenant}/plugins/{plugin}/config",
    summary: "Set a plugin's config",
    tags,
    security,
    middleware: [permit("pluginConfig.set")] as const,
    request: { params: Params, ...body(SetConfigBody) },
    responses: { 200: json(PluginConfigSchema, "The config as it now is, redacted."), ...errors },
  }),
  unset: createRoute({
    operationId: "unsetPluginConfig",
    method: "delete",
    path: "/v1/t/{tenant}/plugins/{plugin}/config",
    summary: "Forget a plugin's config: its defaults apply",
    tags,
    security,
    middleware: [permit("pluginConfig.unset")] as const,
    request: { params: Params },
    responses: { 200: json(PluginConfigSchema, "The config as it now is, redacted."), ...errors },
  }),
};

export function registerPluginConfigRoutes(app: OpenAPIHono<ServerEnv>, services: Services): void {
  const configs = services.pluginConfig;
  app.openapi(routes.show, async (c) =>
    c.json(await configs.show(c.get("caller"), c.req.valid("param").plugin), 200),
  );
  app.openapi(routes.set, async (c) =>
    c.json(await configs.set(c.get("caller"), c.req.valid("param").plugin, c.req.valid("json").config), 200),
  );
  app.openapi(routes.unset, async (c) =>
    c.json(await configs.unset(c.get("caller"), c.req.valid("param").plugin), 200),
  );
}
