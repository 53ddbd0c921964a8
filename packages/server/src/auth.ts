// Who sends a request: the bearer key on `Authorization`, which the runtime's identity turns
// into a Caller (keys made by `oz0 key create`). The server holds no keys of its own.
import { Oz0Error } from "@oz0/sdk";

/** The bearer key of an `Authorization` header, or a 401 that says what the server expects. */
export function bearerKey(header: string | undefined): string {
  const match = header === undefined ? null : /^Bearer[ ]+([^\s]+)\s*$/i.exec(header);
  if (match?.[1] !== undefined) return match[1];
  throw unauthenticated(
    header === undefined
      ? "this request carries no credentials: send an API key as Authorization: Bearer <key>."
      : "the Authorization header is not of the form Bearer <key>: send an API key as Authorization: Bearer <key>.",
  );
}

export function unauthenticated(message: string): Oz0Error {
  return new Oz0Error("UNAUTHENTICATED", message, { data: { scheme: "Bearer" } });
}
