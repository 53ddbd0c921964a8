// The console's one way to the server: the public API, typed from its OpenAPI document
// (openapi-fetch over the types openapi-typescript made of it). A console session rides in its
// HttpOnly cookie; every request that changes something carries the session's CSRF token.
import createClient from "openapi-fetch";
import type { components, paths } from "./openapi";

export type Schemas = components["schemas"];
export type Me = Schemas["Me"];

let csrfToken: string | null = null;

/** Remembers the session's CSRF token, which the sign-in and `GET …/me` answer with. */
export function setCsrf(token: string | null): void {
  csrfToken = token;
}

/** The header a change carries: the session's CSRF token, once known. */
export function csrfHeaders(): Record<string, string> {
  return csrfToken === null ? {} : { "x-csrf-token": csrfToken };
}

export const api = createClient<paths>({ baseUrl: "", credentials: "same-origin" });
api.use({
  onRequest({ request }) {
    if (request.method !== "GET" && request.method !== "HEAD" && csrfToken !== null) {
      request.headers.set("x-csrf-token", csrfToken);
    }
    return request;
  },
});

/** An error the API answered with, in its one shape. */
export class ApiError extends Error {
  readonly code: string;
  readonly status: number;
  readonly data: unknown;
  constructor(status: number, body: unknown) {
    const error = (body as { error?: { code?: string; message?: string; data?: unknown } } | undefined)
      ?.error;
    super(error?.message ?? `the server answered ${status}`);
    this.code = error?.code ?? "INTERNAL";
    this.status = status;
    this.data = error?.data;
  }
}

/** The data of an openapi-fetch answer, or its error thrown as an ApiError. */
export async function ok<T>(
  answer: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<NonNullable<T>> {
  const { data, error, response } = await answer;
  if (error !== undefined || !response.ok) throw new ApiError(response.status, error);
  return data as NonNullable<T>;
}

export const ROLES = ["viewer", "runner", "approver", "operator", "admin"] as const;
export type Role = (typeof ROLES)[number];

/** Whether the signed-in caller's role includes `role` (each role includes the ones before it). */
export function can(me: Me, role: Role): boolean {
  return ROLES.indexOf(me.role) >= ROLES.indexOf(role);
}
