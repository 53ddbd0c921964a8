// Checks a value against a JSON Schema (draft 2020-12, with formats): a call's arguments against
// its function's schema, so a bad call is refused before the function runs and the model gets
// the problems back; a job's input and a plugin's configuration the same way.
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import formatsPlugin from "ajv-formats";
import metaSchemaValidator from "./meta-schema.js";

export interface ArgumentIssue {
  /** Where in the arguments, dotted (`items.0.id`); empty for the arguments as a whole. */
  readonly path: string;
  readonly message: string;
}

// ajv-formats is CommonJS; its default export is the plugin itself at run time.
const addFormats = formatsPlugin as unknown as (ajv: Ajv2020) => Ajv2020;

/**
 * The one ajv instance, made by the first schema compiled: a command that checks none does not
 * build it. It checks no schema against its meta-schema itself: `compileChecked` does, with the
 * 2020-12 meta-schema's validator compiled at build time (meta-schema.ts), which ajv would compile
 * anew in every process before the first schema, the same errors and message coming out.
 */
let ajv: Ajv2020 | undefined;

const META_SCHEMA = "https://json-schema.org/draft/2020-12/schema";
const validateMetaSchema = metaSchemaValidator as unknown as ValidateFunction;

function compileChecked(schema: object): ValidateFunction {
  ajv ??= addFormats(
    new Ajv2020({ allErrors: true, strict: false, validateFormats: true, validateSchema: false }),
  );
  const declared = (schema as { $schema?: unknown }).$schema;
  if (declared === undefined || declared === META_SCHEMA) {
    if (!validateMetaSchema(schema)) {
      throw new Error(`schema is invalid: ${ajv.errorsText(validateMetaSchema.errors)}`);
    }
  } else {
    // Another meta-schema (or a $schema that is not a string) is ajv's to find and check, as it was.
    ajv.validateSchema(schema, true);
  }
  return ajv.compile(schema);
}

/**
 * Compiled validators by schema object, and by schema text for a schema built anew (a tool is
 * built for every job): a schema is compiled once per process.
 */
const compiled = new WeakMap<object, ValidateFunction>();
const compiledByText = new Map<string, ValidateFunction>();
const MAX_CACHED_TEXTS = 1024;

function validatorOf(schema: object): ValidateFunction {
  let validate = compiled.get(schema);
  if (validate !== undefined) return validate;
  const text = JSON.stringify(schema);
  validate = compiledByText.get(text);
  if (validate === undefined) {
    validate = compileChecked(schema);
    if (compiledByText.size >= MAX_CACHED_TEXTS) compiledByText.clear();
    compiledByText.set(text, validate);
  }
  compiled.set(schema, validate);
  return validate;
}

/**
 * The problems with `args` under `schema`; empty when they match.
 * @example argumentIssues({ type: "object", required: ["id"] }, {}) // [{ path: "", message: "must have required property 'id'" }]
 */
export function argumentIssues(schema: object, args: unknown): ArgumentIssue[] {
  const validate = validatorOf(schema);
  if (validate(args)) return [];
  return (validate.errors ?? []).map((error) => ({
    path: error.instancePath.split("/").filter(Boolean).join("."),
    message: error.message ?? "is not valid",
  }));
}

/** The issues as one line: `id: must be integer; (arguments): must have required property 'queue'`. */
export function formatIssues(issues: readonly ArgumentIssue[]): string {
  return issues
    .map((issue) => `${issue.path === "" ? "(arguments)" : issue.path}: ${issue.message}`)
    .join("; ");
}
