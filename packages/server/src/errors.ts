// Every error the server answers, in the SDK's one shape with its code's HTTP status: a route's
// Oz0Error, a refused request (validation, size, origin), and anything unexpected alike.
import { errorShape, Oz0Error } from "@oz0/sdk";
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";

/** The response for anything thrown: `{ error: { code, message, data, side, status, retryable } }`. */
export function errorResponse(c: Context, thrown: unknown): Response {
  const shape = errorShape(thrown);
  const retryAfter = (shape.error.data as { retryAfter?: unknown } | undefined)?.retryAfter;
  // A client told to slow down is told when it may try again, in seconds.
  if (shape.error.code === "TOO_MANY_REQUESTS" && typeof retryAfter === "number")
    c.header("Retry-After", String(Math.max(1, Math.ceil(retryAfter))));
  return c.json(shape, shape.error.status as ContentfulStatusCode);
}

/** Zod's issues as INVALID_INPUT's `data.issues`, each with its dotted path and message. */
export function invalidRequest(
  where: string,
  issues: readonly { readonly path: readonly PropertyKey[]; readonly message: string }[],
): Oz0Error {
  const listed = issues.map((issue) => ({ path: issue.path.map(String).join("."), message: issue.message }));
  const text = listed
    .map((issue) => `${issue.path === "" ? "(body)" : issue.path}: ${issue.message}`)
    .join("; ");
  return new Oz0Error("INVALID_INPUT", `the request's ${where} is not valid: ${text}`, {
    data: { issues: listed },
  });
}

export function routeNotFound(method: string, path: string): Oz0Error {
  return new Oz0Error(
    "NOT_FOUND",
    `there is no route ${method} ${path}; GET /v1/openapi.json lists the API's routes.`,
    { data: { kind: "route", name: `${method} ${path}` } },
  );
}
