// The runtime checks a schema against the 2020-12 meta-schema with a validator compiled at
// build time (src/schemas/meta-schema.ts) where ajv would compile one in every process: the file
// must be what ajv compiles now, and a schema it refuses, refused with ajv's own message.
import { readFile } from "node:fs/promises";
import { Ajv2020 } from "ajv/dist/2020.js";
import formatsPlugin from "ajv-formats";
import { describe, expect, it } from "vitest";
import { argumentIssues } from "../../src/schemas/index.js";
import { metaSchemaSource } from "./meta-schema-source.js";

const addFormats = formatsPlugin as unknown as (ajv: Ajv2020) => Ajv2020;

describe("the meta-schema's validator", () => {
  it("is ajv's compile of the 2020-12 meta-schema (scripts/generate-schema-check.mjs writes it)", async () => {
    const stored = await readFile(new URL("../../src/schemas/meta-schema.ts", import.meta.url), "utf8");
    expect(stored, "run node scripts/generate-schema-check.mjs").toBe(metaSchemaSource());
  });

  it("accepts and refuses the schemas ajv's own check does, saying the same", () => {
    const schemas: object[] = [
      {},
      {
        type: "object",
        properties: { id: { type: "integer" }, queue: { type: "string" } },
        required: ["id"],
      },
      { $schema: "https://json-schema.org/draft/2020-12/schema", type: "string", format: "email" },
      { $ref: "#/$defs/id", $defs: { id: { type: "integer", minimum: 1 } } },
      { type: "array", prefixItems: [{ type: "string" }], items: false },
      { type: 5 },
      { type: "strin" },
      { type: "object", required: "id" },
      { properties: { a: { minimum: "one" } } },
      { properties: { a: { type: ["string", 3] }, b: { enum: "x" } } },
      { $defs: 1 },
      { items: 5, minItems: -1 },
      { $schema: 5 },
      { $schema: "http://json-schema.org/draft-07/schema#", type: "string" },
    ];
    for (const schema of schemas) {
      // A reference instance per schema, as the runtime's options but ajv checking the meta-schema itself.
      const reference = addFormats(new Ajv2020({ allErrors: true, strict: false, validateFormats: true }));
      expect(
        outcome(() => reference.compile(structuredClone(schema))),
        JSON.stringify(schema),
      ).toEqual(outcome(() => argumentIssues(structuredClone(schema), "a value")));
    }
  });
});

function outcome(run: () => unknown): string {
  try {
    run();
    return "compiled";
  } catch (error) {
    return (error as Error).message;
  }
}
