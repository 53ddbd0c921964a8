// Tenants and users: the installation's, not one tenant's. The runtime lets only an admin of
// tenant `default` with every agent manage them, so these routes are asked in that tenant
// (`/v1/t/default/tenants`) with such a key; from any other tenant, or by a key of some agents
// only, they are refused as they are embedded. A user's password travels in the request body,
// over the server's connection only; the answer, the audit log and the server's output never
// hold it.
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { Services } from "@oz0/runtime";
import type { ServerEnv } from "../env.js";
import { TenantParam } from "../schemas.js";
import { body, errors, json, permit, security, segment } from "./shared.js";

const ROLE = z.enum(["viewer", "runner", "approver", "operator", "admin"]);

const TenantSchema = z
  .object({ name: z.string(), createdAt: z.number().openapi({ description: "Epoch milliseconds." }) })
  .openapi("Tenant");

const UserSchema = z
  .object({
    name: z.string(),
    createdAt: z.number(),
    createdBy: z.string(),
    tenants: z.array(z.object({ tenant: z.string(), role: ROLE })).readonly(),
  })
  .openapi("User", { description: "A user as listed: never a password or its hash." });

const Tenant = z.object({ tenant: TenantParam });
const UserParams = z.object({
  tenant: TenantParam,
  user: z.string().min(1).max(256).openapi(segment("user", "alice@example.com")),
});

// The runtime checks names and password lengths, with the same refusals as embedded.
const CreateTenantBody = z
  .object({
    name: z.string().min(1).max(256).openapi({ example: "research" }),
    admin: z
      .string()
      .min(1)
      .max(256)
      .optional()
      .openapi({ description: "A user made the new tenant's admin of every agent at once." }),
  })
  .strict()
  .openapi("CreateTenant");

const AddUserBody = z
  .object({
    name: z.string().min(1).max(256).openapi({ example: "alice@example.com" }),
    password: z
      .string()
      .min(1)
      .openapi({ description: "12 to 1,024 characters; only its argon2id hash is kept." }),
  })
  .strict()
  .openapi("AddUser");

const who = "Only an admin of tenant default with every agent (the installation's admins) may.";

const routes = {
  tenants: createRoute({
    operationId: "listTenants",
    method: "get",
    path: "/v1/t/{tenant}/tenants",
    summary: "The installation's tenants",
    description: who,
    tags: ["tenants"],
    security,
    middleware: [permit("identity.listTenants")] as const,
    request: { params: Tenant },
    responses: { 200: json(z.object({ tenants: z.array(TenantSchema) }), "The tenants."), ...errors },
  }),
  createTenant: createRoute({
    operationId: "createTenant",
    method: "post",
    path: "/v1/t/{tenant}/tenants",
    summary: "Create a tenant; it gets the default plugins (std)",
    description: who,
    tags: ["tenants"],
    security,
    middleware: [permit("identity.createTenant")] as const,
    request: { params: Tenant, ...body(CreateTenantBody) },
    responses: { 201: json(TenantSchema, "The tenant."), ...errors },
  }),
  users: createRoute({
    operationId: "listUsers",
    method: "get",
    path: "/v1/t/{tenant}/users",
    summary: "The installation's users and the tenants each is a member of",
    description: who,
    tags: ["users"],
    security,
    middleware: [permit("identity.listUsers")] as const,
    request: { params: Tenant },
    responses: { 200: json(z.object({ users: z.array(UserSchema) }), "The users."), ...errors },
  }),
  addUser: createRoute({
    operationId: "addUser",
    method: "post",
    path: "/v1/t/{tenant}/users",
    summary: "Add a user who signs in with a password",
    description: `${who} The password is in the body only; the answer never holds it.`,
    tags: ["users"],
    security,
    middleware: [permit("identity.addUser")] as const,
    request: { params: Tenant, ...body(AddUserBody) },
    responses: { 201: json(UserSchema, "The user."), ...errors },
  }),
  removeUser: createRoute({
    operationId: "removeUser",
    method: "delete",
    path: "/v1/t/{tenant}/users/{user}",
    summary: "Remove a user and every membership the user has",
    description: who,
    tags: ["users"],
    security,
    middleware: [permit("identity.removeUser")] as const,
    request: { params: UserParams },
    responses: { 200: json(UserSchema, "The user, as it was."), ...errors },
  }),
};

export function registerInstallationRoutes(app: OpenAPIHono<ServerEnv>, services: Services): void {
  const { identity } = services;
  app.openapi(routes.tenants, async (c) =>
    c.json({ tenants: await identity.listTenants(c.get("caller")) }, 200),
  );
  app.openapi(routes.createTenant, async (c) => {
    const sent = c.req.valid("json");
    return c.json(await identity.createTenant(c.get("caller"), sent.name, { admin: sent.admin }), 201);
  });
  app.openapi(routes.users, async (c) => c.json({ users: await identity.listUsers(c.get("caller")) }, 200));
  app.openapi(routes.addUser, async (c) => {
    const sent = c.req.valid("json");
    return c.json(await identity.addUser(c.get("caller"), sent.name, sent.password), 201);
  });
  app.openapi(routes.removeUser, async (c) =>
    c.json(await identity.removeUser(c.get("caller"), c.req.valid("param").user), 200),
  );
}
