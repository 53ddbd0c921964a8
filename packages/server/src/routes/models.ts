// Models and providers: the tenant's model aliases, prices and providers, read by a viewer and
// changed by an operator. A provider's key goes in and never comes out: a provider is shown
// with where its key comes from and, for a stored one, a hint, never the key.
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { Services } from "@oz0/runtime";
import type { ServerEnv } from "../env.js";
import { TenantParam } from "../schemas.js";
import { body, errors, json, permit, security, segment } from "./shared.js";

const AliasSchema = z
  .object({
    alias: z.string(),
    target: z.string().openapi({ description: "`provider:model`, or `test`." }),
    fallback: z.boolean(),
    options: z.record(z.string(), z.unknown()),
  })
  .openapi("ModelAlias");

const KeySchema = z
  .union([
    z.object({ state: z.literal("stored"), hint: z.string().nullable() }),
    z.object({ state: z.literal("env"), env: z.string(), set: z.boolean() }),
    z.object({ state: z.literal("none"), required: z.boolean() }),
  ])
  .openapi("ProviderKey", { description: "Where the key comes from; never the key." });

const ProviderSchema = z
  .object({
    name: z.string(),
    type: z.string(),
    displayName: z.string(),
    source: z.string(),
    baseUrl: z.string().nullable(),
    baseUrlFrom: z.string().nullable(),
    key: KeySchema,
    timeoutSeconds: z.number().nullable(),
    retries: z.number().nullable(),
    stream: z.boolean().nullable(),
    structuredOutput: z.string().nullable().optional(),
  })
  .openapi("Provider");

const PriceSchema = z
  .object({ target: z.string() })
  .passthrough()
  .openapi("ModelPrice", { description: "US dollars per million tokens, by kind." });

const AliasParams = z.object({
  tenant: TenantParam,
  alias: z.string().min(1).max(128).openapi(segment("alias", "default")),
});
const ProviderParams = z.object({
  tenant: TenantParam,
  name: z.string().min(1).max(128).openapi(segment("name", "openai")),
});
const PriceParams = z.object({
  tenant: TenantParam,
  target: z.string().min(1).max(256).openapi(segment("target", "openai:gpt-4o")),
});
const Tenant = z.object({ tenant: TenantParam });

const SetAliasBody = z
  .object({
    target: z.string().min(1).openapi({ example: "openai:gpt-4o" }),
    options: z.record(z.string(), z.unknown()).optional(),
  })
  .strict()
  .openapi("SetModelAlias");

const SetProviderBody = z
  .object({
    type: z.string().optional(),
    base_url: z.string().optional(),
    api_key_env: z.string().optional().openapi({ description: "Read the key from this variable." }),
    api_key: z.string().optional().openapi({ description: "Store this key, encrypted; never shown again." }),
    timeout_seconds: z.number().positive().optional(),
    retries: z.number().int().min(0).optional(),
    stream: z.boolean().optional(),
    structured_output: z.enum(["json_schema", "prompt"]).optional(),
  })
  .strict()
  .openapi("SetProvider");

const SetPriceBody = z
  .object({
    input: z.number().min(0),
    output: z.number().min(0),
    cached: z.number().min(0).optional(),
  })
  .strict()
  .openapi("SetModelPrice", { description: "US dollars per million tokens." });

const tags = ["models"];

const routes = {
  aliases: createRoute({
    operationId: "listModelAliases",
    method: "get",
    path: "/v1/t/{tenant}/models/aliases",
    summary: "The tenant's model aliases",
    tags,
    security,
    middleware: [permit("models.aliases")] as const,
    request: { params: Tenant },
    responses: { 200: json(z.object({ aliases: z.array(AliasSchema) }), "The aliases."), ...errors },
  }),
  setAlias: createRoute({
    operationId: "setModelAlias",
    method: "put",
    path: "/v1/t/{tenant}/models/aliases/{alias}",
    summary: "Map an alias to a provider's model",
    tags,
    security,
    middleware: [permit("models.setAlias")] as const,
    request: { params: AliasParams, ...body(SetAliasBody) },
    responses: { 200: json(AliasSchema, "The alias as it now is."), ...errors },
  }),
  removeAlias: createRoute({
    operationId: "removeModelAlias",
    method: "delete",
    path: "/v1/t/{tenant}/models/aliases/{alias}",
    summary: "Remove a model alias",
    tags,
    security,
    middleware: [permit("models.removeAlias")] as const,
    request: { params: AliasParams },
    responses: { 200: json(z.object({ removed: z.string() }), "Removed."), ...errors },
  }),
  prices: createRoute({
    operationId: "listModelPrices",
    method: "get",
    path: "/v1/t/{tenant}/models/prices",
    summary: "The tenant's model prices",
    tags,
    security,
    middleware: [permit("models.prices")] as const,
    request: { params: Tenant },
    responses: { 200: json(z.object({ prices: z.array(PriceSchema) }), "The prices."), ...errors },
  }),
  setPrice: createRoute({
    operationId: "setModelPrice",
    method: "put",
    path: "/v1/t/{tenant}/models/prices/{target}",
    summary: "Set a model's price",
    tags,
    security,
    middleware: [permit("models.setPrice")] as const,
    request: { params: PriceParams, ...body(SetPriceBody) },
    responses: { 200: json(PriceSchema, "The price as it now is."), ...errors },
  }),
  removePrice: createRoute({
    operationId: "removeModelPrice",
    method: "delete",
    path: "/v1/t/{tenant}/models/prices/{target}",
    summary: "Remove a model's price",
    tags,
    security,
    middleware: [permit("models.removePrice")] as const,
    request: { params: PriceParams },
    responses: { 200: json(z.object({ removed: z.string() }), "Removed."), ...errors },
  }),
  providers: createRoute({
    operationId: "listProviders",
    method: "get",
    path: "/v1/t/{tenant}/providers",
    summary: "The tenant's model providers (never their keys)",
    tags,
    security,
    middleware: [permit("models.providers")] as const,
    request: { params: Tenant },
    responses: { 200: json(z.object({ providers: z.array(ProviderSchema) }), "The providers."), ...errors },
  }),
  setProvider: createRoute({
    operationId: "setProvider",
    method: "put",
    path: "/v1/t/{tenant}/providers/{name}",
    summary: "Set a provider's base URL, key, timeout and retries",
    description:
      "A key sent here is stored encrypted and never shown again; the answer says only where it comes from.",
    tags,
    security,
    middleware: [permit("models.setProvider")] as const,
    request: { params: ProviderParams, ...body(SetProviderBody) },
    responses: { 200: json(ProviderSchema, "The provider as it now is, without its key."), ...errors },
  }),
  removeProvider: createRoute({
    operationId: "removeProvider",
    method: "delete",
    path: "/v1/t/{tenant}/providers/{name}",
    summary: "Remove a provider's settings and stored key",
    tags,
    security,
    middleware: [permit("models.removeProvider")] as const,
    request: { params: ProviderParams },
    responses: { 200: json(z.object({ removed: z.string() }), "Removed."), ...errors },
  }),
};

export function registerModelRoutes(app: OpenAPIHono<ServerEnv>, services: Services): void {
  const { models } = services;
  app.openapi(routes.aliases, async (c) => c.json({ aliases: await models.aliases(c.get("caller")) }, 200));
  app.openapi(routes.setAlias, async (c) => {
    const sent = c.req.valid("json");
    const view = await models.setAlias(
      c.get("caller"),
      c.req.valid("param").alias,
      sent.target,
      sent.options,
    );
    return c.json(view, 200);
  });
  app.openapi(routes.removeAlias, async (c) => {
    const { alias } = c.req.valid("param");
    await models.removeAlias(c.get("caller"), alias);
    return c.json({ removed: alias }, 200);
  });
  app.openapi(routes.prices, async (c) => c.json({ prices: await models.prices(c.get("caller")) }, 200));
  app.openapi(routes.setPrice, async (c) => {
    const sent = c.req.valid("json");
    const price = {
      input: sent.input,
      output: sent.output,
      ...(sent.cached === undefined ? {} : { cached: sent.cached }),
    };
    return c.json(await models.setPrice(c.get("caller"), c.req.valid("param").target, price), 200);
  });
  app.openapi(routes.removePrice, async (c) => {
    const { target } = c.req.valid("param");
    await models.removePrice(c.get("caller"), target);
    return c.json({ removed: target }, 200);
  });
  app.openapi(routes.providers, async (c) =>
    c.json({ providers: await models.providers(c.get("caller")) }, 200),
  );
  app.openapi(routes.setProvider, async (c) => {
    const sent = c.req.valid("json");
    const change = {
      ...(sent.type === undefined ? {} : { type: sent.type }),
      ...(sent.base_url === undefined ? {} : { baseUrl: sent.base_url }),
      ...(sent.api_key_env === undefined ? {} : { apiKeyEnv: sent.api_key_env }),
      ...(sent.api_key === undefined ? {} : { apiKey: sent.api_key }),
      ...(sent.timeout_seconds === undefined ? {} : { timeoutSeconds: sent.timeout_seconds }),
      ...(sent.retries === undefined ? {} : { retries: sent.retries }),
      ...(sent.stream === undefined ? {} : { stream: sent.stream }),
      ...(sent.structured_output === undefined ? {} : { structuredOutput: sent.structured_output }),
    };
    const view = await models.setProvider(c.get("caller"), c.req.valid("param").name, change as never);
    return c.json(view, 200);
  });
  app.openapi(routes.removeProvider, async (c) => {
    const { name } = c.req.valid("param");
    await models.removeProvider(c.get("caller"), name);
    return c.json({ removed: name }, 200);
  });
}
