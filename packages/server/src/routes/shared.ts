// What every route file shares: the role check that runs before the request is read, the JSON
// request and response helpers, the error responses each route documents, the bearer security
// scheme every route but the signed routine webhook declares, and path segments.
import type { z } from "@hono/zod-openapi";
import { requireRole, SERVICE_ROLES, type ServiceAction } from "@oz0/runtime";
import type { MiddlewareHandler } from "hono";
import type { ServerEnv } from "../env.js";
import { ErrorSchema } from "../schemas.js";

/**
 * The role the service operation `action` needs, checked before the body is read: a caller
 * whose role falls short is refused (403) whatever it sent.
 */
export function permit(action: ServiceAction): MiddlewareHandler<ServerEnv> {
  const rule = SERVICE_ROLES[action];
  return async (c, next) => {
    requireRole(c.get("caller"), rule.role, rule.does);
    await next();
  };
}

export const json = <S extends z.ZodType>(schema: S, description: string) => ({
  content: { "application/json": { schema } },
  description,
});

export const body = <S extends z.ZodType>(schema: S) => ({
  body: { content: { "application/json": { schema } }, required: true },
});

export const errors = {
  401: json(ErrorSchema, "No credentials, or a key the server does not accept (UNAUTHENTICATED)."),
  403: json(ErrorSchema, "The caller's role does not allow this (FORBIDDEN), or a cross-origin request."),
  404: json(ErrorSchema, "No such tenant or part, or one the caller may not see (NOT_FOUND)."),
  413: json(ErrorSchema, "The body is larger than the server accepts (REQUEST_TOO_LARGE)."),
  422: json(ErrorSchema, "The request does not match its schema (INVALID_INPUT)."),
  429: json(ErrorSchema, "Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS)."),
  default: json(ErrorSchema, "Any other error, in the one error shape, with its code's status."),
} as const;

export const security = [{ bearer: [] }];

/** A part's name in a path segment. */
export const segment = (name: string, example: string) => ({ param: { name, in: "path" }, example }) as const;
