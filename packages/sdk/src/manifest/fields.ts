// Schema pieces shared by every manifest: names checked by the rules of ../names, paths inside
// a plugin, loose addresses, versions, and strict objects whose unknown keys are reported by
// name with the nearest known key.
import { parse as parseSemver, validRange } from "semver";
import * as z from "zod";
import { type NameKind, nameProblem } from "../names/index.js";
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

/** `model: { use, script? }`: the model alias an agent runs on, and a test provider script. */
export const modelChoiceSchema = strictObject({
  use: z
    .string()
    .max(128)
    .regex(MODEL_USE, "a model is a tenant's alias such as default or fast, or provider:model"),
  script: pluginPath().optional(),
});
export type ModelChoice = z.output<typeof modelChoiceSchema>;

/** The message for a list over its limit, with the count found. */
export function tooMany(what: string, max: number) {
  return (issue: { input?: unknown }) =>
    `at most ${max} ${what} are allowed; found ${Array.isArray(issue.input) ? issue.input.length : "more"}`;
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
