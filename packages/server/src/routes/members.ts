// Members and API keys of the tenant, an admin's. A key is in the answer that creates it and
// nowhere else: lists show its id, name, role, agents and status, never the key or its hash.
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { Services } from "@oz0/runtime";
import type { ServerEnv } from "../env.js";
import { TenantParam } from "../schemas.js";
import { body, errors, json, permit, security, segment } from "./shared.js";

const ROLE = z.enum(["viewer", "runner", "approver", "operator", "admin"]);
const AGENTS = z
  .array(z.string().min(1))
  .min(1)
  .openapi({ description: "Addresses (<plugin>/<agent>), tag:<tag>, or * (the default).", example: ["*"] });

const MemberSchema = z
  .object({
    tenant: z.string(),
    user: z.string(),
    role: ROLE,
    agents: z.array(z.string()).readonly(),
    createdAt: z.number(),
    updatedAt: z.number(),
    updatedBy: z.string(),
  })
  .openapi("Member");

const MemberChangeSchema = z
  .object({
    member: MemberSchema,
    previous: z
      .object({ role: ROLE, agents: z.array(z.string()).readonly() })
      .nullable()
      .openapi({ description: "The role and agents before, if the user was a member." }),
  })
  .openapi("MemberChange");

const KeySchema = z
  .object({
    id: z.string(),
    tenant: z.string(),
    name: z.string(),
    role: ROLE,
    agents: z.array(z.string()).readonly(),
    status: z.enum(["active", "expired", "revoked"]),
    createdAt: z.number(),
    createdBy: z.string(),
    expiresAt: z.number().nullable(),
    revokedAt: z.number().nullable(),
    revokedBy: z.string().nullable(),
  })
  .openapi("ApiKey", { description: "An API key as listed: never its secret." });

const CreatedKeySchema = z
  .object({
    id: z.string(),
    key: z.string().openapi({ description: "The key itself: shown in this answer only, never again." }),
    view: KeySchema,
  })
  .openapi("CreatedApiKey");

const Tenant = z.object({ tenant: TenantParam });
const MemberParams = z.object({
  tenant: TenantParam,
  user: z.string().min(1).max(256).openapi(segment("user", "alice@example.com")),
});
const KeyParams = z.object({
  tenant: TenantParam,
  id: z.string().min(1).max(128).openapi(segment("id", "k_8f2d…")),
});

const SetMemberBody = z.object({ role: ROLE, agents: AGENTS.optional() }).strict().openapi("SetMember");

const CreateKeyBody = z
  .object({
    name: z.string().min(1).max(64).openapi({ example: "ci" }),
    role: ROLE,
    agents: AGENTS.optional(),
    expires_in_seconds: z
      .number()
      .int()
      .positive()
      .optional()
      .openapi({ description: "Default: until revoked." }),
  })
  .strict()
  .openapi("CreateApiKey");

const routes = {
  members: createRoute({
    operationId: "listMembers",
    method: "get",
    path: "/v1/t/{tenant}/members",
    summary: "The tenant's members",
    tags: ["members"],
    security,
    middleware: [permit("identity.listMembers")] as const,
    request: { params: Tenant },
    responses: { 200: json(z.object({ members: z.array(MemberSchema) }), "The members."), ...errors },
  }),
  setMember: createRoute({
    operationId: "setMember",
    method: "put",
    path: "/v1/t/{tenant}/members/{user}",
    summary: "Make a user a member, or change a member's role and agents",
    tags: ["members"],
    security,
    middleware: [permit("identity.addMember")] as const,
    request: { params: MemberParams, ...body(SetMemberBody) },
    responses: { 200: json(MemberChangeSchema, "The membership, and what it was."), ...errors },
  }),
  removeMember: createRoute({
    operationId: "removeMember",
    method: "delete",
    path: "/v1/t/{tenant}/members/{user}",
    summary: "End a user's membership of the tenant",
    tags: ["members"],
    security,
    middleware: [permit("identity.removeMember")] as const,
    request: { params: MemberParams },
    responses: { 200: json(MemberSchema, "The membership that ended."), ...errors },
  }),
  keys: createRoute({
    operationId: "listKeys",
    method: "get",
    path: "/v1/t/{tenant}/keys",
    summary: "The tenant's API keys, live and past (never their secrets)",
    tags: ["keys"],
    security,
    middleware: [permit("identity.listKeys")] as const,
    request: { params: Tenant },
    responses: { 200: json(z.object({ keys: z.array(KeySchema) }), "The keys."), ...errors },
  }),
  createKey: createRoute({
    operationId: "createKey",
    method: "post",
    path: "/v1/t/{tenant}/keys",
    summary: "Make an API key; the answer holds it, once",
    tags: ["keys"],
    security,
    middleware: [permit("identity.createKey")] as const,
    request: { params: Tenant, ...body(CreateKeyBody) },
    responses: { 201: json(CreatedKeySchema, "The key, shown this once."), ...errors },
  }),
  revokeKey: createRoute({
    operationId: "revokeKey",
    method: "post",
    path: "/v1/t/{tenant}/keys/{id}/revoke",
    summary: "Revoke an API key: its next request is refused",
    tags: ["keys"],
    security,
    middleware: [permit("identity.revokeKey")] as const,
    request: { params: KeyParams },
    responses: { 200: json(KeySchema, "The key, revoked."), ...errors },
  }),
};

export function registerMemberRoutes(app: OpenAPIHono<ServerEnv>, services: Services): void {
  const { identity } = services;
  app.openapi(routes.members, async (c) =>
    c.json({ members: await identity.listMembers(c.get("caller")) }, 200),
  );
  app.openapi(routes.setMember, async (c) => {
    const sent = c.req.valid("json");
    const change = await identity.addMember(c.get("caller"), {
      user: c.req.valid("param").user,
      role: sent.role,
      agents: sent.agents,
    });
    return c.json(change, 200);
  });
  app.openapi(routes.removeMember, async (c) =>
    c.json(await identity.removeMember(c.get("caller"), c.req.valid("param").user), 200),
  );
  app.openapi(routes.keys, async (c) => c.json({ keys: await identity.listKeys(c.get("caller")) }, 200));
  app.openapi(routes.createKey, async (c) => {
    const sent = c.req.valid("json");
    const made = await identity.createKey(c.get("caller"), {
      name: sent.name,
      role: sent.role,
      agents: sent.agents,
      expiresInMs: sent.expires_in_seconds === undefined ? undefined : sent.expires_in_seconds * 1000,
    });
    return c.json({ id: made.id, key: made.key, view: made.view }, 201);
  });
  app.openapi(routes.revokeKey, async (c) =>
    c.json(await identity.revokeKey(c.get("caller"), c.req.valid("param").id), 200),
  );
}
