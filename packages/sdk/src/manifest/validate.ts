// Checks YAML read by safe-yaml against a zod schema and turns zod's issues into manifest
// issues placed at the line and column of the value (or key) they are about.
import type * as z from "zod";
import { describe } from "./fields.js";
import type { ManifestIssue, ManifestPath } from "./issues.js";
import type { SafeYamlDocument } from "./safe-yaml.js";

type ZodIssue = z.core.$ZodIssue;

interface Finding {
  readonly path: ManifestPath;
  readonly message: string;
  readonly at: "key" | "value";
}

const TYPE_WORDS: Record<string, string> = {
  array: "a list",
  object: "a map",
  string: "text",
  number: "a number",
  boolean: "true or false",
};

/** Checks `doc` against `schema`: the parsed value, or every problem with its place. */
export function checkSchema<S extends z.ZodType>(
  schema: S,
  doc: SafeYamlDocument,
): { ok: true; value: z.output<S> } | { ok: false; issues: ManifestIssue[] } {
  const result = schema.safeParse(doc.value);
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, issues: toManifestIssues(result.error.issues, doc) };
}

/** zod issues as manifest issues, each at its place in `doc`. */
export function toManifestIssues(issues: readonly ZodIssue[], doc: SafeYamlDocument): ManifestIssue[] {
  return issues
    .flatMap((issue) => findings(issue, [], doc))
    .map((finding) => {
      const place = doc.locate(finding.path, finding.at);
      const last = finding.path.at(-1);
      const message =
        !place.found && typeof last === "string" && finding.at === "value"
          ? "required, but missing"
          : finding.message;
      return { file: doc.file, line: place.line, column: place.column, path: finding.path, message };
    });
}

function findings(issue: ZodIssue, prefix: ManifestPath, doc: SafeYamlDocument): Finding[] {
  const path = [...prefix, ...issue.path.filter((part) => typeof part !== "symbol")];
  switch (issue.code) {
    case "invalid_union": {
      // Report the branch whose type matched (a list for a list, a map for a map), since its
      // problems are the author's; when none matched, say which types would have.
      const matched = issue.errors.find(
        (branch) => !branch.some((inner) => inner.code === "invalid_type" && inner.path.length === 0),
      );
      if (matched !== undefined) return matched.flatMap((inner) => findings(inner, path, doc));
      const expected = new Set(
        issue.errors
          .flat()
          .flatMap((inner) =>
            inner.code === "invalid_type" ? [TYPE_WORDS[inner.expected] ?? inner.expected] : [],
          ),
      );
      return [
        {
          path,
          message: `expected ${[...expected].join(" or ")}, got ${describe(valueAt(doc.value, path))}`,
          at: "value",
        },
      ];
    }
    case "unrecognized_keys": {
      // strictObject writes one line per unknown key, in the order of `keys`.
      const lines = issue.message.split("\n");
      return issue.keys.map((key, index) => ({
        path: [...path, key],
        message: lines.length === issue.keys.length ? (lines[index] ?? "") : `unknown key '${key}'`,
        at: "key",
      }));
    }
    case "invalid_key":
      return [{ path, message: issue.issues[0]?.message ?? issue.message, at: "key" }];
    case "invalid_type": {
      // zod's own wording names JavaScript types; an author wrote YAML.
      const message = issue.message.startsWith("Invalid input")
        ? `expected ${TYPE_WORDS[issue.expected] ?? issue.expected}, got ${describe(valueAt(doc.value, path))}`
        : issue.message;
      return [{ path, message, at: "value" }];
    }
    case "custom":
      // A custom issue about a key itself (a refused argument name) asks to be placed at it.
      return [{ path, message: issue.message, at: issue.params?.at === "key" ? "key" : "value" }];
    default:
      return [{ path, message: issue.message, at: "value" }];
  }
}

function valueAt(value: unknown, path: ManifestPath): unknown {
  let current = value;
  for (const part of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<string | number, unknown>)[part];
  }
  return current;
}
