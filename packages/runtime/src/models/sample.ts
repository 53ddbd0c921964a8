// Deterministic values that match a JSON Schema: the offline test model calls functions with
// them when no script says what to send, and answers in an output schema with them.
type Schema = Readonly<Record<string, unknown>>;

/** How deep nested objects and arrays go before the sampler stops descending. */
const MAX_DEPTH = 8;

const FORMAT_SAMPLES: Readonly<Record<string, string>> = {
  "date-time": "2026-01-01T00:00:00Z",
  date: "2026-01-01",
  time: "00:00:00Z",
  email: "someone@example.com",
  uri: "https://example.com/",
  url: "https://example.com/",
  uuid: "00000000-0000-4000-8000-000000000000",
  hostname: "example.com",
  ipv4: "192.0.2.1",
  ipv6: "2001:db8::1",
};

/**
 * A value that matches `schema`, the same every time: `const`, the first `enum` value or the
 * `default` when there is one, else the smallest value of the type that the bounds allow.
 * Objects get their required properties.
 * @example sampleFromSchema({ type: "object", properties: { id: { type: "integer" } }, required: ["id"] }) // { id: 1 }
 */
export function sampleFromSchema(schema: unknown): unknown {
  return sample(schema, isSchema(schema) ? schema : {}, 0);
}

function sample(node: unknown, root: Schema, depth: number): unknown {
  if (!isSchema(node) || depth > MAX_DEPTH) return null;
  const resolved = resolveRef(node, root);
  if (resolved !== node) return sample(resolved, root, depth + 1);
  if ("const" in node) return node.const;
  if (Array.isArray(node.enum) && node.enum.length > 0) return node.enum[0];
  if ("default" in node) return node.default;
  if (Array.isArray(node.examples) && node.examples.length > 0) return node.examples[0];
  for (const key of ["oneOf", "anyOf"] as const) {
    const options = node[key];
    if (Array.isArray(options) && options.length > 0) return sample(options[0], root, depth + 1);
  }
  if (Array.isArray(node.allOf)) return sampleAllOf(node, root, depth);
  switch (typeOf(node)) {
    case "object":
      return sampleObject(node, root, depth);
    case "array":
      return sampleArray(node, root, depth);
    case "string":
      return sampleString(node);
    case "integer":
      return sampleNumber(node, true);
    case "number":
      return sampleNumber(node, false);
    case "boolean":
      return true;
    case "null":
      return null;
    default:
      return null;
  }
}

function typeOf(node: Schema): string | undefined {
  const type = node.type;
  if (typeof type === "string") return type;
  if (Array.isArray(type)) return type.find((entry) => entry !== "null") ?? type[0];
  if (isSchema(node.properties)) return "object";
  if (node.items !== undefined) return "array";
  return undefined;
}

function sampleObject(node: Schema, root: Schema, depth: number): Record<string, unknown> {
  const properties = isSchema(node.properties) ? node.properties : {};
  const required = Array.isArray(node.required) ? node.required.filter((key) => typeof key === "string") : [];
  const value: Record<string, unknown> = {};
  for (const key of required) value[key] = sample(properties[key] ?? {}, root, depth + 1);
  return value;
}

function sampleArray(node: Schema, root: Schema, depth: number): unknown[] {
  const count = typeof node.minItems === "number" ? node.minItems : 0;
  const prefix = Array.isArray(node.prefixItems) ? node.prefixItems : [];
  return Array.from({ length: Math.max(count, prefix.length) }, (_, index) =>
    sample(prefix[index] ?? node.items ?? {}, root, depth + 1),
  );
}

function sampleString(node: Schema): string {
  const format = typeof node.format === "string" ? FORMAT_SAMPLES[node.format] : undefined;
  let text = format ?? "example";
  const min = typeof node.minLength === "number" ? node.minLength : 0;
  const max = typeof node.maxLength === "number" ? node.maxLength : Number.POSITIVE_INFINITY;
  if (text.length < min) text = text.padEnd(min, "x");
  if (text.length > max) text = text.slice(0, max);
  return text;
}

function sampleNumber(node: Schema, integer: boolean): number {
  const step = integer ? 1 : 0.5;
  let value = 1;
  if (typeof node.minimum === "number") value = node.minimum;
  else if (typeof node.exclusiveMinimum === "number") value = node.exclusiveMinimum + step;
  if (typeof node.maximum === "number" && value > node.maximum) value = node.maximum;
  else if (typeof node.exclusiveMaximum === "number" && value >= node.exclusiveMaximum) {
    value = node.exclusiveMaximum - step;
  }
  if (typeof node.multipleOf === "number" && node.multipleOf > 0) {
    value = Math.ceil(value / node.multipleOf) * node.multipleOf;
  }
  return integer ? Math.ceil(value) : value;
}

function sampleAllOf(node: Schema, root: Schema, depth: number): unknown {
  const { allOf, ...rest } = node;
  const merged: Record<string, unknown> = { ...rest };
  for (const part of allOf as unknown[]) {
    const value = resolveRef(part, root);
    if (!isSchema(value)) continue;
    const properties = { ...(merged.properties as Schema | undefined), ...(value.properties as Schema) };
    const required = [...((merged.required as unknown[]) ?? []), ...((value.required as unknown[]) ?? [])];
    Object.assign(merged, value, { properties, required });
  }
  return sample(merged, root, depth + 1);
}

/** Follows a local `$ref` (`#/$defs/x`, `#/definitions/x`); other references sample as empty. */
function resolveRef(node: unknown, root: Schema): unknown {
  if (!isSchema(node) || typeof node.$ref !== "string") return node;
  if (!node.$ref.startsWith("#")) return {};
  let target: unknown = root;
  for (const part of node.$ref.slice(1).split("/").filter(Boolean)) {
    const key = decodeURIComponent(part).replaceAll("~1", "/").replaceAll("~0", "~");
    target = isSchema(target) ? target[key] : undefined;
  }
  return target ?? {};
}

function isSchema(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
