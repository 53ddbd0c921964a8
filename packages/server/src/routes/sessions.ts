// Console sessions: a person signs in with a member's password (or an API key) and gets an
// HttpOnly, SameSite=Strict cookie (Secure over TLS) that authenticates the console's API calls,
// with a CSRF token that every request changing something carries beside it. `GET …/me` says
// who the caller is, so the console offers only what the role and agents allow.
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { Runtime } from "@oz0/runtime";
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { ServerEnv } from "../env.js";
import { TenantParams } from "../schemas.js";
import { body, errors, json, security } from "./shared.js";

/** The cookie a console session rides in. */
export const SESSION_COOKIE = "oz0_session";
/** The header a cookie-authenticated request that changes something carries its CSRF token in. */
export const CSRF_HEADER = "x-csrf-token";

const Role = z.enum(["viewer", "runner", "approver", "operator", "admin"]);

const Me = z
  .object({
    tenant: z.string(),
    actor: z.string().openapi({ example: "user:alice" }),
    role: Role,
    agents: z
      .array(z.string())
      .openapi({ description: "The agents in scope: addresses, `tag:<tag>`, or `*`." }),
    csrf: z
      .string()
      .nullable()
      .openapi({ description: "For a console session, the token to send as X-CSRF-Token; null for a key." }),
  })
  .openapi("Me");

const Session = Me.extend({
  expiresAt: z.number().int().openapi({ description: "Epoch milliseconds." }),
}).openapi("Session");

const SignIn = z
  .union([
    z
      .object({
        tenant: z.string().min(1).max(64),
        user: z.string().min(1).max(64),
        password: z.string().min(1).max(4096),
      })
      .strict(),
    z.object({ key: z.string().min(1).max(256) }).strict(),
  ])
  .openapi("SignIn", { description: "A member's user name and password in a tenant, or an API key." });

const tags = ["sessions"];

const routes = {
  start: createRoute({
    operationId: "signIn",
    method: "post",
    path: "/v1/sessions",
    summary: "Sign in to the console: a session cookie and its CSRF token",
    tags,
    request: body(SignIn),
    responses: { 201: json(Session, "Signed in; the session is in the oz0_session cookie."), ...errors },
  }),
  end: createRoute({
    operationId: "signOut",
    method: "delete",
    path: "/v1/sessions",
    summary: "Sign out: the session ends",
    tags,
    responses: { 204: { description: "Signed out (or was not signed in)." }, ...errors },
  }),
  me: createRoute({
    operationId: "me",
    method: "get",
    path: "/v1/t/{tenant}/me",
    summary: "Who the caller is: actor, role and agents in scope",
    tags,
    security,
    request: { params: TenantParams },
    responses: { 200: json(Me, "The caller."), ...errors },
  }),
};

/** Sign-in and sign-out: registered before authentication, since they are how one gets it. */
export function registerSessionRoutes(
  app: OpenAPIHono<ServerEnv>,
  runtime: Runtime,
  source: (c: Context) => string | undefined,
  alwaysSecure: boolean,
): void {
  app.openapi(routes.start, async (c) => {
    const request = c.req.valid("json");
    const started = await runtime.identity.startSession(request, { source: source(c) });
    setCookie(c, SESSION_COOKIE, started.token, {
      httpOnly: true,
      sameSite: "Strict",
      secure: alwaysSecure || new URL(c.req.url).protocol === "https:",
      path: "/",
      maxAge: Math.max(1, Math.floor((started.expiresAt - Date.now()) / 1000)),
    });
    return c.json({ ...view(started.caller, started.csrf), expiresAt: started.expiresAt }, 201);
  });
  app.openapi(routes.end, async (c) => {
    const token = getCookie(c, SESSION_COOKIE);
    if (token !== undefined) await runtime.identity.endSession(token);
    deleteCookie(c, SESSION_COOKIE, { path: "/" });
    return c.body(null, 204);
  });
}

export function registerMeRoute(app: OpenAPIHono<ServerEnv>): void {
  app.openapi(routes.me, (c) => c.json(view(c.get("caller"), c.get("csrf") ?? null), 200));
}

function view(caller: ServerEnv["Variables"]["caller"], csrf: string | null) {
  return { tenant: caller.tenant, actor: caller.actor, role: caller.role, agents: [...caller.agents], csrf };
}
