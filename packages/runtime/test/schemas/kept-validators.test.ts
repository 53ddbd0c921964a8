// A validator compiled in one process is kept for the next (validate.ts, beside Node's compiled
// code): what a kept one says must be what ajv's compile says, and a kept file that was changed,
// cut short or compiled from something else must not be run.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import formatsPlugin from "ajv-formats";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

const addFormats = formatsPlugin as unknown as (ajv: Ajv2020) => Ajv2020;

type Validate = typeof import("../../src/schemas/validate.js");

/** The module afresh, as a new process has it: nothing compiled, no ajv instance, validators kept in `dir`. */
async function freshProcess(dir: string): Promise<Validate> {
  vi.resetModules();
  const validate = await import("../../src/schemas/validate.js");
  validate.keepValidatorsIn(dir);
  return validate;
}

const ajvIssues = (schema: object, value: unknown) => {
  const ajv = addFormats(new Ajv2020({ allErrors: true, strict: false, validateFormats: true }));
  const validate = ajv.compile(schema);
  if (validate(value)) return [];
  return (validate.errors ?? []).map((error) => ({
    path: error.instancePath.split("/").filter(Boolean).join("."),
    message: error.message ?? "is not valid",
  }));
};

const tickets = {
  type: "object",
  properties: { id: { type: "integer" }, queue: { enum: ["billing", "bugs"] } },
  required: ["id", "queue"],
};

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "oz0-kept-validators-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
  vi.resetModules();
});

const keptFile = () => {
  const files = readdirSync(dir);
  expect(files).toHaveLength(1);
  return join(dir, files[0]!);
};

describe("validators kept between processes", () => {
  it("says what ajv's compile says, from the second process on", async () => {
    const cases: [object, unknown[]][] = [
      [tickets, [{ id: 7, queue: "bugs" }, { id: "7" }, {}, { id: 1.5, queue: "x" }, null, []]],
      [
        {
          $schema: "https://json-schema.org/draft/2020-12/schema",
          type: "object",
          properties: {
            email: { type: "string", format: "email", maxLength: 12 },
            day: { type: "string", format: "date" },
            tags: { type: "array", items: { type: "string", pattern: "^[a-z]+$" }, uniqueItems: true },
            fixed: { const: { a: [1, 2] } },
          },
          additionalProperties: false,
        },
        [
          { email: "a@b.co", day: "2026-12-02", tags: ["a", "b"], fixed: { a: [1, 2] } },
          {
            email: "not an email at all",
            day: "2026-13-40",
            tags: ["a", "a", "B"],
            fixed: { a: [2] },
            more: 1,
          },
        ],
      ],
      [
        {
          $ref: "#/$defs/node",
          $defs: { node: { type: "object", properties: { next: { $ref: "#/$defs/node" } } } },
        },
        [{ next: { next: {} } }, { next: { next: 5 } }],
      ],
    ];
    for (const [schema, values] of cases) {
      const first = await freshProcess(dir);
      for (const value of values)
        expect(first.argumentIssues(schema, value)).toEqual(ajvIssues(schema, value));
    }
    expect(readdirSync(dir)).toHaveLength(cases.length);
    for (const [schema, values] of cases) {
      const later = await freshProcess(dir);
      for (const value of values)
        expect(later.argumentIssues(schema, value)).toEqual(ajvIssues(schema, value));
    }
  });

  it("runs the kept validator in a later process", async () => {
    (await freshProcess(dir)).argumentIssues(tickets, {});
    const file = keptFile();
    const kept = JSON.parse(readFileSync(file, "utf8"));
    // A kept validator that lets everything through, whole (its digest matches): it is the one run.
    const code = "module.exports = function validate() { return true; };";
    const { createHash } = await import("node:crypto");
    writeFileSync(
      file,
      JSON.stringify({ ...kept, code, sha256: createHash("sha256").update(code).digest("hex") }),
    );
    expect((await freshProcess(dir)).argumentIssues(tickets, {})).toEqual([]);
  });

  it("does not run a kept validator whose code was changed or cut short, and compiles it again", async () => {
    (await freshProcess(dir)).argumentIssues(tickets, {});
    const file = keptFile();
    const kept = JSON.parse(readFileSync(file, "utf8"));
    writeFileSync(
      file,
      JSON.stringify({ ...kept, code: "module.exports = function validate() { return true; };" }),
    );
    expect((await freshProcess(dir)).argumentIssues(tickets, {})).toEqual(ajvIssues(tickets, {}));
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual(kept);
    writeFileSync(file, readFileSync(file, "utf8").slice(0, 100));
    expect((await freshProcess(dir)).argumentIssues(tickets, {})).toEqual(ajvIssues(tickets, {}));
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual(kept);
  });

  it("does not run a kept validator compiled from another schema or another ajv", async () => {
    (await freshProcess(dir)).argumentIssues(tickets, {});
    const file = keptFile();
    const kept = JSON.parse(readFileSync(file, "utf8"));
    const code = "module.exports = function validate() { return true; };";
    const { createHash } = await import("node:crypto");
    const digest = createHash("sha256").update(code).digest("hex");
    const [, options, text] = JSON.parse(kept.source);
    for (const source of [
      JSON.stringify(["ajv 0.0.1, ajv-formats 0.0.1", options, text]),
      JSON.stringify([JSON.parse(kept.source)[0], options, JSON.stringify({ type: "object" })]),
    ]) {
      writeFileSync(file, JSON.stringify({ source, code, sha256: digest }));
      expect((await freshProcess(dir)).argumentIssues(tickets, {})).toEqual(ajvIssues(tickets, {}));
      expect(JSON.parse(readFileSync(file, "utf8"))).toEqual(kept);
    }
  });

  it("keeps no validator of a schema that names or reaches outside itself", async () => {
    const validate = await freshProcess(dir);
    validate.argumentIssues({ $id: "https://example.com/ticket", type: "object" }, {});
    // Compiles only because the schema before it is in this process's ajv.
    validate.argumentIssues({ $ref: "https://example.com/ticket" }, {});
    validate.argumentIssues({ properties: { a: { $anchor: "a", type: "string" } } }, {});
    expect(() =>
      validate.argumentIssues({ $schema: "http://json-schema.org/draft-07/schema#" }, "x"),
    ).toThrow("no schema with key or ref");
    expect(readdirSync(dir)).toEqual([]);
  });
});
