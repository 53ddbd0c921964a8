// Checks a value against a JSON Schema (draft 2020-12, with formats): a call's arguments against
// its function's schema, so a bad call is refused before the function runs and the model gets
// the problems back; a job's input and a plugin's configuration the same way.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { getCompileCacheDir } from "node:module";
import { join } from "node:path";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import equalModule from "ajv/dist/runtime/equal.js";
import ucs2lengthModule from "ajv/dist/runtime/ucs2length.js";
import standaloneModule from "ajv/dist/standalone/index.js";
import formatsPlugin from "ajv-formats";
import * as formats from "ajv-formats/dist/formats.js";
import metaSchemaValidator, { AJV_VERSIONS } from "./meta-schema.js";

export interface ArgumentIssue {
  /** Where in the arguments, dotted (`items.0.id`); empty for the arguments as a whole. */
  readonly path: string;
  readonly message: string;
}

// ajv-formats is CommonJS; its default export is the plugin itself at run time.
const addFormats = formatsPlugin as unknown as (ajv: Ajv2020) => Ajv2020;
// So is ajv's standalone module, the function itself in either loader.
const standaloneCode = standaloneModule as unknown as (ajv: Ajv2020, validate: ValidateFunction) => string;

/**
 * The one ajv instance, made by the first schema compiled that no kept validator answers for: a
 * command that compiles none does not build it. It checks no schema against its meta-schema itself: `compileChecked` does, with the
 * 2020-12 meta-schema's validator compiled at build time (meta-schema.ts), which ajv would compile
 * anew in every process before the first schema, the same errors and message coming out.
 */
let ajv: Ajv2020 | undefined;

const META_SCHEMA = "https://json-schema.org/draft/2020-12/schema";
const validateMetaSchema = metaSchemaValidator as unknown as ValidateFunction;

/** Set when ajv logged while compiling (an unknown format it ignores): such a compile is not kept. */
let logged = false;
const logger = {
  log: (...args: unknown[]) => {
    logged = true;
    // biome-ignore lint/suspicious/noConsole: ajv's own logger is the console; its messages go where they went.
    console.log(...args);
  },
  warn: (...args: unknown[]) => {
    logged = true;
    console.warn(...args);
  },
  error: (...args: unknown[]) => {
    logged = true;
    console.error(...args);
  },
};

// `code.source` keeps each validator's code for ajv's standalone module; it changes no verdict.
const OPTIONS = {
  allErrors: true,
  strict: false,
  validateFormats: true,
  validateSchema: false,
  code: { source: true },
};

function instance(): Ajv2020 {
  ajv ??= addFormats(new Ajv2020({ ...OPTIONS, logger }));
  return ajv;
}

function compileChecked(schema: object): ValidateFunction {
  const ajv = instance();
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
 * Where validators are kept between processes: beside Node's compiled code, when this process
 * keeps it (the CLI turns that on in the user's own cache folder). A validator is code that runs,
 * so it goes only where whoever can write already chooses the code that runs; an embedder that
 * keeps no compiled code keeps no validators either. `NODE_DISABLE_COMPILE_CACHE=1` turns both off.
 */
let keptIn: string | null | undefined;

function keptValidators(): string | null {
  if (keptIn === undefined) {
    const compiledCode = getCompileCacheDir?.();
    keptIn = compiledCode === undefined ? null : join(compiledCode, "oz0-schema-validators");
  }
  return keptIn;
}

/** Where validators are kept from now on (`null`: nowhere), for tests. */
export function keepValidatorsIn(dir: string | null): void {
  keptIn = dir;
}

// ajv's runtime modules are CommonJS: Node gives their exports as the default, other loaders exports.default.
const runtimeModules: Record<string, unknown> = {
  "ajv/dist/runtime/equal": {
    default: typeof equalModule === "function" ? equalModule : (equalModule as { default: unknown }).default,
  },
  "ajv/dist/runtime/ucs2length": {
    default:
      typeof ucs2lengthModule === "function"
        ? ucs2lengthModule
        : (ucs2lengthModule as { default: unknown }).default,
  },
  "ajv-formats/dist/formats": formats,
};

const keyWords = new Set([
  "$id",
  "$anchor",
  "$dynamicAnchor",
  "$dynamicRef",
  "$recursiveAnchor",
  "$recursiveRef",
]);

/**
 * Whether `schema`'s validator depends on nothing but its own text: no identifier or anchor (ajv
 * adds them to its instance, and a second schema with the same one is refused), no reference
 * outside itself (another schema of the process may be what it names), no other meta-schema.
 */
function standsAlone(schema: unknown, root: boolean): boolean {
  if (typeof schema !== "object" || schema === null) return true;
  if (Array.isArray(schema)) return schema.every((item) => standsAlone(item, false));
  for (const [key, value] of Object.entries(schema)) {
    if (keyWords.has(key)) return false;
    if (key === "$ref" && !(typeof value === "string" && value.startsWith("#"))) return false;
    if (key === "$schema" && !(root && value === META_SCHEMA)) return false;
    if (!standsAlone(value, false)) return false;
  }
  return true;
}

interface KeptValidator {
  /** What it was compiled from: ajv's versions and options, and the schema's text. */
  readonly source: string;
  readonly code: string;
  /** The code's SHA-256, so that a file cut short or damaged is not run. */
  readonly sha256: string;
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** The validator kept for `source`, when there is one that is whole and was compiled from it. */
function keptValidator(file: string, source: string): ValidateFunction | undefined {
  let kept: KeptValidator;
  try {
    kept = JSON.parse(readFileSync(file, "utf8")) as KeptValidator;
  } catch {
    return undefined;
  }
  if (kept.source !== source || typeof kept.code !== "string" || sha256(kept.code) !== kept.sha256) {
    return undefined;
  }
  const module: { exports?: unknown } = {};
  const require = (name: string) => {
    if (!Object.hasOwn(runtimeModules, name)) throw new Error(`a kept validator requires ${name}`);
    return runtimeModules[name];
  };
  try {
    new Function("module", "require", kept.code)(module, require);
  } catch {
    return undefined;
  }
  return typeof module.exports === "function" ? (module.exports as ValidateFunction) : undefined;
}

/** Keeps `validate`'s code for `source`, written whole or not at all (a rename); a failure costs only the saving. */
function keepValidator(dir: string, file: string, source: string, validate: ValidateFunction): void {
  let code: string;
  try {
    code = standaloneCode(instance(), validate);
    for (const [, name] of code.matchAll(/require\("([^"]*)"\)/g)) {
      if (name === undefined || !Object.hasOwn(runtimeModules, name)) return;
    }
    mkdirSync(dir, { recursive: true });
  } catch {
    return;
  }
  const partial = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  try {
    writeFileSync(partial, JSON.stringify({ source, code, sha256: sha256(code) } satisfies KeptValidator));
    renameSync(partial, file);
  } catch {
    // Not kept: the next process compiles it again.
    try {
      rmSync(partial, { force: true });
    } catch {
      // Left for whoever can remove it; it is never read.
    }
  }
}

/** `schema`'s validator, from the kept ones when it was compiled before, else ajv's compile (then kept). */
function compileOrKept(schema: object, text: string): ValidateFunction {
  const dir = keptValidators();
  if (dir === null || !standsAlone(schema, true)) return compileChecked(schema);
  const source = JSON.stringify([AJV_VERSIONS, OPTIONS, text]);
  const file = join(dir, `${sha256(source)}.json`);
  const kept = keptValidator(file, source);
  if (kept !== undefined) return kept;
  logged = false;
  const validate = compileChecked(schema);
  if (!logged) keepValidator(dir, file, source, validate);
  return validate;
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
    validate = compileOrKept(schema, text);
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
