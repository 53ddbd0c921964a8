// A function's input is a JSON Schema or a zod schema. Models and the measured listing need
// JSON Schema, so zod inputs are converted with z.toJSONSchema, once per schema: a tool's build
// runs for every job, and its inputs are most often defined once, beside it. The zod schema is
// kept to parse arguments, so a handler gets parsed values with defaults applied.
import { z } from "zod";
import { Oz0Error } from "../errors/index.js";
import { deepFreeze } from "./freeze.js";

/** A JSON Schema describing an object, the only input shape a model can call with. */
export interface JsonSchemaObject {
  readonly type: "object";
  readonly properties?: Readonly<Record<string, unknown>>;
  readonly required?: readonly string[];
  readonly [keyword: string]: unknown;
}

/** Any zod 4 schema (classic or mini). */
export type ZodSchema<Output = unknown> = z.core.$ZodType<Output>;

/** What a function's `input` takes. */
export type FunctionInput<Args = Record<string, unknown>> = JsonSchemaObject | ZodSchema<Args>;

/** Whether `value` is a zod 4 schema; detected by shape, so a plugin's own copy of zod works too. */
export function isZodSchema(value: unknown): value is ZodSchema {
  return typeof value === "object" && value !== null && "_zod" in value;
}

/**
 * The JSON Schema of a function input, converted from zod when it is a zod schema.
 * `where` names the function in error messages (`tool 'tickets', function 'lookup'`).
 */
export function inputJsonSchema(input: unknown, where: string): JsonSchemaObject {
  if (typeof input === "object" && input !== null && "_def" in input && !isZodSchema(input)) {
    throw invalidInput(
      where,
      "its input is a zod 3 schema; oz0 reads zod 4 schemas (import { z } from 'zod' with zod 4)",
    );
  }
  if (!isZodSchema(input)) return objectSchema(input, where);
  let schema = converted.get(input);
  if (schema === undefined) {
    // Frozen: every job that builds the tool shares it.
    schema = deepFreeze(objectSchema(zodToJsonSchema(input, where), where));
    converted.set(input, schema);
  }
  return schema;
}

/** Each zod input's JSON Schema (zod schemas do not change: a method that seems to returns a new one). */
const converted = new WeakMap<ZodSchema, JsonSchemaObject>();

function objectSchema(schema: unknown, where: string): JsonSchemaObject {
  if (typeof schema !== "object" || schema === null || (schema as { type?: unknown }).type !== "object") {
    throw invalidInput(
      where,
      `its input must describe an object: a JSON Schema with type "object", or a zod object such as z.object({ id: z.number() })`,
    );
  }
  return schema as JsonSchemaObject;
}

/** Parses arguments with a zod input; JSON Schema inputs are checked by the runtime instead. */
export function parseArguments(input: unknown, args: unknown, where: string): unknown {
  if (!isZodSchema(input)) return args;
  const result = z.safeParse(input, args);
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue) => ({ path: issue.path.join("."), message: issue.message }));
  const list = issues
    .map((issue) => `${issue.path === "" ? "(input)" : issue.path}: ${issue.message}`)
    .join("; ");
  throw new Oz0Error("INVALID_INPUT", `arguments for ${where} do not match its input: ${list}`, {
    data: { issues },
  });
}

function zodToJsonSchema(input: ZodSchema, where: string): unknown {
  let schema: Record<string, unknown>;
  try {
    schema = z.toJSONSchema(input, { io: "input", unrepresentable: "throw" }) as Record<string, unknown>;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw invalidInput(
      where,
      `its zod input cannot be written as JSON Schema (${reason}); use types a model can send, such as strings for dates`,
      error,
    );
  }
  // A listing repeats the dialect for every function otherwise; oz0 reads every input as 2020-12.
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}

function invalidInput(where: string, problem: string, cause?: unknown): Oz0Error {
  return new Oz0Error("INVALID_PLUGIN", `${where}: ${problem}.`, {
    data: { detail: problem },
    ...(cause === undefined ? {} : { cause }),
  });
}
