// Schema pieces shared by every manifest: names checked by the rules of ../names, paths inside
// a plugin, loose addresses, versions, and strict objects whose unknown keys are reported by
// name with the nearest known key.
//
// Every schema of the manifests is built the first time it checks something (z.lazy, or a
// function that builds the part where it is used): zod builds each part where it is declared,
// and built at load, the manifests' hundreds of parts would cost every process that imports the
// SDK, each plugin's and each command's, milliseconds before its first parse or without one.
// semver by function: its index loads all of its 47 modules.
import parseSemver from "semver/functions/parse.js";
import validRange from "semver/ranges/valid.js";
import * as z from "zod";
import { MAX_LABELS, type NameKind, nameProblem } from "../names/index.js";
import { didYouMean } from "../text/index.js";

/**
 * A map that refuses keys it does not know, naming each with the closest known key. `hints`
 * adds a sentence for keys that belong somewhere else (such as `uses:` in an agent).
 */
export function strictObject<T extends z.core.$ZodLooseShape>(shape: T, hints: Record<string, string> = {}) {
  const known = Object.keys(shape);
  return z.strictObject(shape, {
    error: (issue) => {
      if (issue.code === "unrecognized_keys")
        return issue.keys.map((key) => unknownKeyMessage(key, known, hints)).join("\n");
      if (issue.code === "invalid_type")
        return `expected a map of keys (${known.join(", ")}), got ${describe(issue.input)}`;
      return undefined;
    },
  });
}

/**
 * The message for one unknown key. Zod reports all unknown keys of a map in one issue; each
 * key's message is one line, so the issue can be split back into one problem per key.
 */
export function unknownKeyMessage(
  key: string,
  known: readonly string[],
  hints: Record<string, string> = {},
): string {
  const hint = Object.hasOwn(hints, key) ? `: ${hints[key]}` : "";
  if (hint !== "") return `unknown key '${key}'${hint}`;
  const guess = didYouMean(key, known);
  return guess === ""
    ? `unknown key '${key}'; allowed keys: ${known.join(", ")}`
    : `unknown key '${key}'${guess}`;
}

/** How a value reads in a message: its YAML type, not JavaScript's. */
export function describe(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null (an empty value)";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a map";
  if (typeof value === "string")
    return `the text ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  return `the ${typeof value} ${String(value)}`;
}

/** A string that must follow one of the name rules of ../names. */
export function nameField(kind: NameKind) {
  return z.string().superRefine((value, ctx) => {
    const problem = nameProblem(kind, value);
    if (problem !== undefined) ctx.addIssue({ code: "custom", message: problem, input: value });
  });
}

/** Why `path` is not a usable path inside a plugin folder, or `undefined` when it is. */
function pathProblem(path: string, names: "file" | "folder"): string | undefined {
  if (path.trim() === "") return "a path must not be empty";
  if (path.length > 1024) return `a path may be at most 1024 characters; this one has ${path.length}`;
  if (path.includes("\\")) return `path '${path}' must use '/' between folders, not '\\'`;
  if (path.startsWith("/") || /^[A-Za-z]:/.test(path)) {
    return `path '${path}' must be relative to the plugin folder, not absolute`;
  }
  if (path.split("/").includes("..")) return `path '${path}' must stay inside the plugin folder (no '..')`;
  if (names === "file" && path.endsWith("/")) return `path '${path}' must name a file, not a folder`;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\u0000-\u001f]/.test(path)) return `path ${JSON.stringify(path)} must not hold control characters`;
  return undefined;
}

/** A file (or folder) inside the plugin folder, relative to it with `/` (`prompts/triage.md`). */
export function pluginPath(names: "file" | "folder" = "file") {
  return z.string().superRefine((value, ctx) => {
    const problem = pathProblem(value, names);
    if (problem !== undefined) ctx.addIssue({ code: "custom", message: problem, input: value });
  });
}

// Addresses are parsed and checked against their owners by the loader; a manifest only needs
// them to look like one: name characters around at most one '/', '*' where patterns go.
const ADDRESS_LIKE = /^[A-Za-z0-9_.*-]+(?:\/[A-Za-z0-9_.*-]+)?$/;

/** A bare name or `<plugin>/<part>` address, checked only for its characters and its one '/'. */
export function addressField(what: string) {
  return z.string().superRefine((value, ctx) => {
    if (value.length === 0 || value.length > 256 || !ADDRESS_LIKE.test(value)) {
      ctx.addIssue({
        code: "custom",
        message: `'${value}' is not a valid ${what}: write a bare name, or <plugin>/<name> with letters, digits, '.', '_', '-' (and '*' in patterns)`,
        input: value,
      });
    }
  });
}

/** A semantic version, written plainly (`1.2.0`, not `v1.2.0`). */
export function semverField() {
  return z.string().superRefine((value, ctx) => {
    const parsed = parseSemver(value);
    if (parsed === null || !/^\d/.test(value)) {
      ctx.addIssue({
        code: "custom",
        message: `'${value}' is not a semantic version; write MAJOR.MINOR.PATCH, such as 1.2.0`,
        input: value,
      });
    }
  });
}

/**
 * Authors write ranges as `">=1.1, <2"`, with a comma between bounds that must all hold; npm's
 * semver writes the same with a space. Returns the range with commas made spaces.
 * @example normalizeVersionRange(">=1.1, <2") // ">=1.1 <2"
 */
export function normalizeVersionRange(range: string): string {
  return range
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "")
    .join(" ");
}

/** A version range (`">=1.1, <2"`, `^1.2`), parsed to its normalised npm form. */
export function versionRangeField() {
  return z
    .string()
    .superRefine((value, ctx) => {
      const normalized = normalizeVersionRange(value);
      if (normalized === "" || validRange(normalized) === null) {
        ctx.addIssue({
          code: "custom",
          message: `'${value}' is not a version range; write bounds such as ">=1.1, <2" or "^1.2"`,
          input: value,
        });
      }
    })
    .transform(normalizeVersionRange);
}

// Model aliases (`default`, `fast`, `test`) and `provider:model` both fit these characters.
const MODEL_USE = /^[A-Za-z0-9][A-Za-z0-9._:/-]*$/;

/** The reasoning efforts a model may be asked for, least first. */
export const REASONING_EFFORTS = ["none", "minimal", "low", "medium", "high", "xhigh"] as const;

// Headers that carry the provider's key or frame the request: oz0 sets them, an option may not.
const RESERVED_HEADERS = new Set([
  "authorization",
  "proxy-authorization",
  "x-api-key",
  "api-key",
  "cookie",
  "host",
  "content-type",
  "content-length",
  "transfer-encoding",
  "connection",
]);
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,128}$/;

const requestOptionsShape = () => ({
  temperature: z
    .number("temperature is a number from 0 to 2")
    .min(0, "temperature is a number from 0 to 2")
    .max(2, "temperature is a number from 0 to 2")
    .optional(),
  top_p: z
    .number("top_p is a number above 0, at most 1")
    .gt(0, "top_p is a number above 0, at most 1")
    .max(1, "top_p is a number above 0, at most 1")
    .optional(),
  max_tokens: z
    .int("max_tokens is a whole number from 1 to 1000000: the most tokens one answer may have")
    .min(1, "max_tokens is a whole number from 1 to 1000000: the most tokens one answer may have")
    .max(1_000_000, "max_tokens is a whole number from 1 to 1000000: the most tokens one answer may have")
    .optional(),
  reasoning_effort: z
    .enum(REASONING_EFFORTS, `reasoning_effort is one of ${REASONING_EFFORTS.join(", ")}`)
    .optional(),
  stop: z
    .array(
      z
        .string()
        .min(1, "a stop sequence must not be empty")
        .max(256, "a stop sequence is at most 256 characters"),
    )
    .min(1, "stop lists 1 to 4 sequences")
    .max(4, "stop lists 1 to 4 sequences")
    .optional(),
  headers: z
    .record(
      z.string().superRefine((name, ctx) => {
        const problem = !HEADER_NAME.test(name)
          ? `'${name}' is not a header name: letters, digits and - (such as X-Team), at most 128`
          : RESERVED_HEADERS.has(name.toLowerCase())
            ? `header ${name} is set by oz0 (it carries the provider's key or frames the request) and cannot be an option`
            : undefined;
        if (problem !== undefined) ctx.addIssue({ code: "custom", message: problem, input: name });
      }),
      z
        .string("a header's value is text")
        .max(4096, "a header's value is at most 4096 characters")
        .regex(/^[^\r\n\0]*$/, "a header's value must not hold line breaks"),
    )
    .optional(),
  store: z.boolean("store is true or false").optional(),
});

/**
 * `model.options`: what each request of an agent asks of its model (sampling, the answer's
 * length, reasoning effort, stop sequences, extra headers, OpenAI's `store`). Whether the
 * provider can honour each is checked when the model is resolved.
 */
export const modelOptionsSchema = z.lazy(() =>
  strictObject(requestOptionsShape(), {
    stream:
      "whether calls stream is the server's property: set it for the alias (oz0 model set <alias> <model> --no-stream) or the provider (oz0 provider set <name> --no-stream)",
    structured_output:
      "how structured answers are asked for is the server's property: set it for the alias or the provider (--structured-output json_schema|prompt)",
  }),
);
export type ModelOptions = z.output<typeof modelOptionsSchema>;

/** How an agent's structured answer is asked of the server: its `json_schema` response format, or the schema in the prompt. */
export const STRUCTURED_OUTPUT_MODES = ["json_schema", "prompt"] as const;

/** An alias's options (`oz0 model set`): the request options, and the server's streaming and structured output. */
export const aliasOptionsSchema = z.lazy(() =>
  strictObject({
    ...requestOptionsShape(),
    stream: z.boolean("stream is true or false").optional(),
    structured_output: z
      .enum(STRUCTURED_OUTPUT_MODES, `structured_output is ${STRUCTURED_OUTPUT_MODES.join(" or ")}`)
      .optional(),
  }),
);
export type AliasOptions = z.output<typeof aliasOptionsSchema>;

/** `model: { use, script?, options? }`: the model alias an agent runs on, a test provider script, and request options. */
export const modelChoiceSchema = z.lazy(() =>
  strictObject({
    use: z
      .string()
      .max(128)
      .regex(MODEL_USE, "a model is a tenant's alias such as default or fast, or provider:model"),
    script: pluginPath().optional(),
    options: modelOptionsSchema.optional(),
  }),
);
export type ModelChoice = z.output<typeof modelChoiceSchema>;

/** The message for a list over its limit, with the count found. */
export function tooMany(what: string, max: number) {
  return (issue: { input?: unknown }) =>
    `at most ${max} ${what} are allowed; found ${Array.isArray(issue.input) ? issue.input.length : "more"}`;
}

/**
 * The node labels a plugin or an agent requires (`labels: [gpu]`): only nodes started with
 * every one of them run its jobs, on the queue `pool.<plugin>.<labels>`. Tags place nothing.
 */
export function labelsField(what: string) {
  return z
    .array(nameField("label"))
    .max(MAX_LABELS, { error: tooMany(what, MAX_LABELS) })
    .superRefine((labels, ctx) => {
      for (const { index, value } of repeats(labels)) {
        ctx.addIssue({
          code: "custom",
          message: `label '${value}' is listed twice`,
          path: [index],
          input: value,
        });
      }
    });
}

/** The indexes of items that repeat an earlier one, with the value repeated. */
export function repeats(list: readonly string[]): { index: number; value: string }[] {
  const seen = new Set<string>();
  const found: { index: number; value: string }[] = [];
  list.forEach((value, index) => {
    if (seen.has(value)) found.push({ index, value });
    seen.add(value);
  });
  return found;
}

/** One of a fixed set of words, with the nearest word suggested for a typo. */
export function choiceField<const T extends readonly [string, ...string[]]>(values: T, what: string) {
  const allowed = values.length <= 2 ? values.join(" or ") : `one of ${values.join(", ")}`;
  return z.enum(values, {
    error: (issue) =>
      typeof issue.input === "string"
        ? `${what} must be ${allowed}, not '${issue.input}'${didYouMean(issue.input, values)}`
        : `${what} must be ${allowed}, got ${describe(issue.input)}`,
  });
}
