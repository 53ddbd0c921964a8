// Dot paths into a JSON value: `user.name`, `items.0`, and the bracket form `items[0].name`
// that models often write; a miss says where the path stopped and what was there.
import { badArgument } from "../errors.js";

const MAX_KEYS_SHOWN = 20;

/** The segments of a path: `items[0].name` and `items.0.name` both give `items`, `0`, `name`. */
export function pathSegments(path: string): string[] {
  const trimmed = path.trim().replace(/^\$\.?/, "");
  if (trimmed === "") return [];
  return trimmed
    .replace(/\[(\d+)\]/g, ".$1")
    .replace(/^\./, "")
    .split(".");
}

/**
 * The value at `path` inside `root`. Throws INVALID_INPUT naming the first segment that
 * does not exist, and what the path reached instead.
 * @example valueAt({ user: { name: "Alice" } }, "user.name") // "Alice"
 */
export function valueAt(root: unknown, path: string): unknown {
  const segments = pathSegments(path);
  let current = root;
  for (const [index, segment] of segments.entries()) {
    const reached = segments.slice(0, index).join(".") || "the document";
    const where = index === 0 ? reached : `'${reached}'`;
    if (segment === "") throw badArgument("path", `'${path}' has an empty segment; write it as a.b.0.`);
    if (Array.isArray(current)) {
      const position = /^\d+$/.test(segment) ? Number(segment) : Number.NaN;
      if (!(position < current.length)) {
        const range = current.length === 0 ? "it is empty" : `indexes 0 to ${current.length - 1}`;
        throw badArgument(
          "path",
          `'${path}' not found: ${where} is an array of ${current.length} (${range}), and '${segment}' is not one of its indexes.`,
        );
      }
      current = current[position];
    } else if (typeof current === "object" && current !== null) {
      if (!Object.hasOwn(current, segment)) {
        const keys = Object.keys(current);
        const shown = keys.slice(0, MAX_KEYS_SHOWN).join(", ") + (keys.length > MAX_KEYS_SHOWN ? ", …" : "");
        throw badArgument(
          "path",
          `'${path}' not found: ${where} has no key '${segment}' (its keys: ${shown || "none"}).`,
        );
      }
      current = (current as Record<string, unknown>)[segment];
    } else {
      throw badArgument(
        "path",
        `'${path}' not found: ${where} is ${describe(current)}, which has no '${segment}'.`,
      );
    }
  }
  return current;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  return typeof value === "string" ? "a string" : `a ${typeof value}`;
}
