// Reading JSON text a model sent, within bounds: its nesting depth, and the size its
// pretty-printed form would have, measured before it is built.
import { badArgument, limitExceeded } from "../errors.js";

/** At most this many characters of JSON text per argument. */
export const MAX_JSON_CHARS = 1_048_576;
/** At most this many levels of arrays and objects inside one another. */
export const MAX_JSON_DEPTH = 100;
/** At most this many characters of output. */
export const MAX_OUTPUT_CHARS = 2 * MAX_JSON_CHARS;

/**
 * Parses the JSON text of argument `name` (its length is bounded by the input schema),
 * refusing text that nests deeper than MAX_JSON_DEPTH.
 */
export function readJson(name: string, text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw badArgument(name, `not valid JSON: ${reason}.`);
  }
  measure(name, value, 0);
  return value;
}

/**
 * Walks `value` without recursion (a deep document must not overflow the stack) and returns
 * how many characters of indentation pretty-printing it with `indent` spaces would add.
 * Throws LIMIT_EXCEEDED when it nests deeper than MAX_JSON_DEPTH.
 */
export function measure(name: string, value: unknown, indent: number): number {
  let added = 0;
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop()!;
    if (typeof current !== "object" || current === null) continue;
    if (depth >= MAX_JSON_DEPTH) {
      throw limitExceeded(`${name}: the JSON nests more than ${MAX_JSON_DEPTH} arrays or objects deep.`, {
        limit: `${name} depth`,
        max: MAX_JSON_DEPTH,
        unit: "levels",
      });
    }
    const children = Array.isArray(current) ? current : Object.values(current);
    // Each child sits on its own line, one level in; the closing bracket on a line of its own.
    if (children.length > 0) added += (children.length * (depth + 1) + depth) * indent + children.length + 1;
    for (const child of children) stack.push({ value: child, depth: depth + 1 });
  }
  return added;
}

/** JSON.stringify, refusing output longer than MAX_OUTPUT_CHARS before building it. */
export function writeJson(value: unknown, indent: number, inputLength: number): string {
  const estimate = inputLength + measure("data", value, indent);
  if (estimate > MAX_OUTPUT_CHARS) {
    throw limitExceeded(
      `the formatted JSON would be about ${estimate} characters long; at most ${MAX_OUTPUT_CHARS} are allowed. Use a smaller indent, or get a part of the document first.`,
      { limit: "output length", max: MAX_OUTPUT_CHARS, unit: "characters" },
    );
  }
  return JSON.stringify(value, null, indent);
}
