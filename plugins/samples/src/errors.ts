// The errors the sample tools raise, in the shapes std's tools use, so a model reads one style.
import { Oz0Error } from "@oz0/sdk";

/** A mistake in one argument, named by `path`. */
export function badArgument(path: string, message: string): Oz0Error {
  return new Oz0Error("INVALID_INPUT", `${path}: ${message}`, { data: { issues: [{ path, message }] } });
}

/** Something the sample data does not have. */
export function notFound(kind: string, name: string, message: string): Oz0Error {
  return new Oz0Error("NOT_FOUND", message, { data: { kind, name } });
}
