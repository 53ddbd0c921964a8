// The errors every std tool raises, so a model reads the same shapes from all of them: the
// caller's mistake in one argument, a bound the call went past, an outside service that failed.
import { Oz0Error } from "@oz0/sdk";

/** A mistake in one argument (`path` names it: `pattern`, `expression`, `headers.Host`). */
export function badArgument(path: string, message: string): Oz0Error {
  return new Oz0Error("INVALID_INPUT", `${path}: ${message}`, { data: { issues: [{ path, message }] } });
}

/** One of a tool's bounds: what it bounds, its value and its unit. */
export interface Limit {
  readonly limit: string;
  readonly max: number;
  readonly unit: string;
}

export function limitExceeded(message: string, limit: Limit): Oz0Error {
  return new Oz0Error("LIMIT_EXCEEDED", message, { data: { ...limit } });
}

export function networkError(message: string, url: string, cause: unknown): Oz0Error {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new Oz0Error("NETWORK_ERROR", message, { data: { url, cause: reason }, cause });
}
