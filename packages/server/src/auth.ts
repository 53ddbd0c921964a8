// Who sends a request: the bearer key on `Authorization`, turned into a runtime Caller by the
// Authenticator the server is given. The server holds no keys of its own; the key store (or,
// until there is one, `oz0 serve`'s single key) answers.
import { createHash, timingSafeEqual } from "node:crypto";
import type { Caller } from "@oz0/runtime";
import { Oz0Error } from "@oz0/sdk";

/** Where a sign-in attempt comes from, for an authenticator's per-source rate limit. */
export interface SignIn {
  /** The client's IP address. */
  readonly source?: string | undefined;
}

/**
 * Turns a presented key into the caller it belongs to (the runtime's key store has this
 * method). A key it does not accept (unknown, expired, revoked) is refused with
 * UNAUTHENTICATED, one answer for every such key; too many failures with TOO_MANY_REQUESTS.
 */
export interface Authenticator {
  authenticateKey(presented: string, signIn?: SignIn): Promise<Caller>;
}

/** The one answer to every key that is not accepted, whatever was wrong with it. */
export const KEY_REFUSED =
  "the API key was not accepted (unknown, expired or revoked): send a valid key as Authorization: Bearer <key>.";

/**
 * An authenticator over a fixed set of keys, each compared in constant time against its hash:
 * for `oz0 serve`'s single key, tests and benchmarks.
 * @example const auth = fixedKeys(new Map([["s3cret", { tenant: "default", actor: "key:ci", role: "runner", agents: ["*"] }]]));
 */
export function fixedKeys(keys: ReadonlyMap<string, Caller>): Authenticator {
  const entries = [...keys].map(([key, caller]) => ({ hash: digest(key), caller }));
  return {
    async authenticateKey(presented) {
      const hash = digest(presented);
      let found: Caller | undefined;
      // Every entry is compared, so the time taken does not say which one matched.
      for (const entry of entries) if (timingSafeEqual(entry.hash, hash)) found = entry.caller;
      if (found === undefined) throw unauthenticated(KEY_REFUSED);
      return found;
    },
  };
}

function digest(key: string): Buffer {
  return createHash("sha256").update(key, "utf8").digest();
}

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
