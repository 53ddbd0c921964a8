// Merging two JSON objects: the second's keys win. Shallow by default, as the spec's
// source merges; deep merges nested objects key by key and replaces arrays.

type JsonObject = Record<string, unknown>;

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `base` with `other`'s keys laid over it. */
export function mergeObjects(base: JsonObject, other: JsonObject, deep: boolean): JsonObject {
  const result: JsonObject = { ...base };
  for (const [key, value] of Object.entries(other)) {
    const current = result[key];
    const merged =
      deep && Object.hasOwn(result, key) && isJsonObject(current) && isJsonObject(value)
        ? mergeObjects(current, value, true)
        : value;
    // defineProperty, not assignment: a `__proto__` key from JSON stays a plain key.
    Object.defineProperty(result, key, {
      value: merged,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return result;
}
