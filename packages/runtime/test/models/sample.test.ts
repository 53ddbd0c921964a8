import { describe, expect, it } from "vitest";
import { sampleFromSchema } from "../../src/models/index.js";
import { argumentIssues } from "../../src/schemas/index.js";

describe("sampleFromSchema", () => {
  it("gives an object its required properties, and leaves optional ones out", () => {
    const schema = {
      type: "object",
      properties: { id: { type: "integer" }, note: { type: "string" } },
      required: ["id"],
    };
    expect(sampleFromSchema(schema)).toEqual({ id: 1 });
  });

  it("takes const, then the first enum value, then the default", () => {
    expect(sampleFromSchema({ const: "fixed", enum: ["a"] })).toBe("fixed");
    expect(sampleFromSchema({ enum: ["billing", "bugs"], default: "bugs" })).toBe("billing");
    expect(sampleFromSchema({ type: "string", default: "hello" })).toBe("hello");
  });

  it("keeps numbers and strings within their bounds", () => {
    expect(sampleFromSchema({ type: "integer", minimum: 5 })).toBe(5);
    expect(sampleFromSchema({ type: "integer", exclusiveMinimum: 5 })).toBe(6);
    expect(sampleFromSchema({ type: "integer", maximum: -3 })).toBe(-3);
    expect(sampleFromSchema({ type: "number", multipleOf: 4 })).toBe(4);
    expect(sampleFromSchema({ type: "string", minLength: 10 })).toHaveLength(10);
    expect(sampleFromSchema({ type: "string", maxLength: 3 })).toHaveLength(3);
  });

  it("writes strings of the common formats", () => {
    expect(sampleFromSchema({ type: "string", format: "date-time" })).toBe("2026-01-01T00:00:00Z");
    expect(sampleFromSchema({ type: "string", format: "email" })).toBe("someone@example.com");
  });

  it("follows local references, picks the first of anyOf, and merges allOf", () => {
    const schema = {
      type: "object",
      properties: {
        item: { $ref: "#/$defs/item" },
        either: { anyOf: [{ type: "boolean" }, { type: "string" }] },
      },
      required: ["item", "either"],
      $defs: {
        item: { allOf: [{ properties: { a: { type: "integer" } }, required: ["a"] }, { type: "object" }] },
      },
    };
    expect(sampleFromSchema(schema)).toEqual({ item: { a: 1 }, either: true });
  });

  it("gives values that the schema accepts, the same every time", () => {
    const schema = {
      type: "object",
      properties: {
        id: { type: "integer", minimum: 100 },
        queue: { enum: ["billing", "bugs"] },
        tags: { type: "array", items: { type: "string", minLength: 2 }, minItems: 2 },
        when: { type: "string", format: "date" },
      },
      required: ["id", "queue", "tags", "when"],
      additionalProperties: false,
    };
    const value = sampleFromSchema(schema);
    expect(argumentIssues(schema, value)).toEqual([]);
    expect(sampleFromSchema(schema)).toEqual(value);
  });
});
