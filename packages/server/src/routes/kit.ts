// What the service routes share: the role check each runs before its request is read (the role
// and wording of the service operation's SERVICE_ROLES row), the error responses, and the
// bearer security every route but the signed webhook declares.
import type { z } from "@hono/zod-openapi";
import { requireRole, SERVICE_ROLES, type ServiceAction } from "@oz0/runtime";
import type { MiddlewareHandler } from "hono";
import type { ServerEnv } from "../env.js";
import { ErrorSchema } from "../schemas.js";

/** Refuses a caller whose role falls short of `action`'s, before validation reads the body. */
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
  default: json(ErrorSchema, "Any other error, in the one error shape, with its code's status."),
} as const;

export const security = [{ bearer: [] }];

/** A part's name in a path segment. */
export const segment = (name: string, example: string) => ({ param: { name, in: "path" }, example }) as const;
