// Which parts of a plugin's config are secret: every string the plugin's redact() masks. They
// are kept apart from the rest, each encrypted in the tenant's secret store under its JSON
// pointer, and the stored config holds null in their place.

/** One secret string of a config, by its JSON pointer (RFC 6901), such as `/auth/token`. */
export interface ConfigSecret {
  readonly pointer: string;
  readonly value: string;
}

/**
 * The strings of `config` that `shown` (the config through redact()) does not show as they are:
 * changed, left out, or under a part replaced whole.
 * @example secretsOf({ token: "abc", url: "u" }, { token: "***", url: "u" }) // [{ pointer: "/token", value: "abc" }]
 */
export function secretsOf(config: unknown, shown: unknown): ConfigSecret[] {
  const found: ConfigSecret[] = [];
  const walk = (value: unknown, mirror: unknown, pointer: string): void => {
    if (typeof value === "string") {
      if (mirror !== value) found.push({ pointer, value });
      return;
    }
    if (typeof value !== "object" || value === null) return;
    const entries = Array.isArray(value)
      ? value.map((item, index) => [String(index), item] as const)
      : Object.entries(value);
    for (const [key, item] of entries) walk(item, childOf(mirror, key), `${pointer}/${escapeToken(key)}`);
  };
  walk(config, shown, "");
  return found;
}

/** The value at `pointer`, or undefined when there is none. */
export function valueAt(value: unknown, pointer: string): unknown {
  let current = value;
  for (const token of tokensOf(pointer)) current = childOf(current, token);
  return current;
}

/** A copy of `value` with `replace(pointer)` at each pointer of `pointers` whose parent exists. */
export function replaceAt(
  value: unknown,
  pointers: readonly string[],
  replace: (pointer: string) => unknown,
): unknown {
  const copy = structuredClone(value);
  for (const pointer of pointers) {
    const tokens = tokensOf(pointer);
    const last = tokens.pop();
    if (last === undefined) continue;
    let parent: unknown = copy;
    for (const token of tokens) parent = childOf(parent, token);
    if (typeof parent === "object" && parent !== null) {
      (parent as Record<string, unknown>)[last] = replace(pointer);
    }
  }
  return copy;
}

function childOf(value: unknown, key: string): unknown {
  if (typeof value !== "object" || value === null || !Object.hasOwn(value, key)) return undefined;
  return (value as Record<string, unknown>)[key];
}

function escapeToken(key: string): string {
  return key.replaceAll("~", "~0").replaceAll("/", "~1");
}

function tokensOf(pointer: string): string[] {
  if (pointer === "") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((token) => token.replaceAll("~1", "/").replaceAll("~0", "~"));
}
