// OZ-E005: the JSON Schema files agents name (input_schema, output_schema) are valid JSON
// Schemas, read as the dispatch path reads them (draft 2020-12, with formats) but in ajv's
// strict mode, so a typo (`"type": "strin"`, an unknown keyword) is refused before install
// instead of matching nothing, or everything, when a job runs.
import { Ajv2020 } from "ajv/dist/2020.js";
import formatsPlugin from "ajv-formats";
import { finding, type LintFinding, type YamlPath } from "../finding.js";
import type { JsonSource } from "../source.js";
import type { LintRule } from "./rule.js";

// ajv-formats is CommonJS; its default export is the plugin itself at run time.
const addFormats = formatsPlugin as unknown as (ajv: Ajv2020) => Ajv2020;

export const checkSchemas: LintRule = (files) => {
  const found: LintFinding[] = [];
  for (const schema of files.schemas.values()) found.push(...schemaProblems(schema));
  return found;
};

function schemaProblems(schema: JsonSource): LintFinding[] {
  const value = schema.value;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return [finding("OZ-E005", placeIn(schema, []), 'a JSON Schema file holds one object: { "type": … }')];
  }
  // Annotations (`x-oz0-order`, `x-…`) are not keywords ajv knows; strict mode refuses those.
  const ajv = addFormats(new Ajv2020({ strict: true, allErrors: true, validateFormats: true }));
  for (const keyword of annotationKeys(value)) ajv.addKeyword(keyword);
  if (ajv.validateSchema(value) !== true) {
    const seen = new Set<string>();
    return (ajv.errors ?? []).flatMap((error) => {
      // One problem a place: the meta-schema reports each failed branch of a union too.
      if (seen.has(error.instancePath)) return [];
      seen.add(error.instancePath);
      const path = pointerPath(error.instancePath);
      const allowed = (error.params as { allowedValues?: unknown[] }).allowedValues;
      const message = `${describePath(path)} ${error.message ?? "is not valid"}${
        allowed === undefined ? "" : ` (${allowed.join(", ")})`
      }`;
      return [finding("OZ-E005", placeIn(schema, path), `not a valid JSON Schema: ${message}`)];
    });
  }
  try {
    ajv.compile(value);
    return [];
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return [
      finding("OZ-E005", placeIn(schema, strictPath(message, value)), `not a valid JSON Schema: ${message}`),
    ];
  }
}

/** Every `x-…` key anywhere in the schema. */
function annotationKeys(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) annotationKeys(item, into);
  else if (typeof value === "object" && value !== null) {
    for (const [key, inner] of Object.entries(value)) {
      if (key.startsWith("x-")) into.add(key);
      else annotationKeys(inner, into);
    }
  }
  return into;
}

/** `/properties/a/type` as a path. */
function pointerPath(pointer: string): YamlPath {
  if (pointer === "" || pointer === "#") return [];
  return pointer
    .replace(/^#?\//, "")
    .split("/")
    .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"));
}

function describePath(path: YamlPath): string {
  return path.length === 0 ? "the schema" : `/${path.join("/")}`;
}

/**
 * Where a strict-mode error points: ajv says `at "#/properties/a"` for most; for an unknown
 * keyword it names only the keyword, found here where it is first written.
 */
function strictPath(message: string, value: unknown): YamlPath {
  const at = /at "(#[^"]*)"/.exec(message);
  if (at?.[1] !== undefined) return pointerPath(at[1]);
  const keyword = /unknown keyword: "([^"]+)"/.exec(message)?.[1];
  return keyword === undefined ? [] : (keyPath(value, keyword) ?? []);
}

function keyPath(value: unknown, key: string): YamlPath | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  if (!Array.isArray(value) && Object.hasOwn(value, key)) return [key];
  for (const [name, inner] of Object.entries(value)) {
    const found = keyPath(inner, key);
    if (found !== undefined) return [Array.isArray(value) ? Number(name) : name, ...found];
  }
  return undefined;
}

function placeIn(schema: JsonSource, path: YamlPath) {
  const place = schema.doc?.locate(path) ?? { line: 1, column: 1 };
  return { file: schema.file, line: place.line, column: place.column };
}
