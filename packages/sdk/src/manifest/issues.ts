// The shape of a manifest problem and the INVALID_MANIFEST / UNSAFE_YAML errors built from
// them: every problem names its file, line and column, so an author can jump straight to it.
import { Oz0Error } from "../errors/index.js";

/** A place in a manifest: keys and list indexes from the document's root. */
export type ManifestPath = readonly (string | number)[];

/** One problem found in a manifest file; `line` and `column` are 1-based. */
export interface ManifestIssue {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly path: ManifestPath;
  readonly message: string;
}

/** How many problems an error message lists before it says how many more there are. */
const MAX_LISTED_ISSUES = 20;

const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/**
 * A path as an author reads it.
 * @example formatManifestPath(["agents", 0, "failures", 2, "kind"]) // "agents[0].failures[2].kind"
 */
export function formatManifestPath(path: ManifestPath): string {
  let text = "";
  for (const part of path) {
    if (typeof part === "number") text += `[${part}]`;
    else if (PLAIN_KEY.test(part)) text += text === "" ? part : `.${part}`;
    else text += `[${JSON.stringify(part)}]`;
  }
  return text;
}

/** `file:line:col: path: message`, the form editors and terminals link to. */
export function formatManifestIssue(issue: ManifestIssue): string {
  const where = issue.path.length === 0 ? "" : `${formatManifestPath(issue.path)}: `;
  return `${issue.file}:${issue.line}:${issue.column}: ${where}${issue.message}`;
}

/** The INVALID_MANIFEST error for a list of problems, ordered by their place in the file. */
export function invalidManifest(issues: readonly ManifestIssue[]): Oz0Error {
  const sorted = [...issues].sort((a, b) => a.line - b.line || a.column - b.column);
  const listed = sorted.slice(0, MAX_LISTED_ISSUES).map(formatManifestIssue);
  if (sorted.length > MAX_LISTED_ISSUES) listed.push(`… and ${sorted.length - MAX_LISTED_ISSUES} more`);
  const files = [...new Set(sorted.map((issue) => issue.file))].join(", ");
  const count = sorted.length === 1 ? "1 problem" : `${sorted.length} problems`;
  return new Oz0Error(
    "INVALID_MANIFEST",
    `${files}: ${count}; fix them and load again:\n${listed.join("\n")}`,
    {
      data: { issues: sorted },
    },
  );
}

/** The UNSAFE_YAML error for a construct refused in untrusted YAML. */
export function unsafeYaml(
  place: { file: string; line: number; column: number },
  message: string,
  limit?: number,
): Oz0Error {
  const data: Record<string, unknown> = { file: place.file, line: place.line, column: place.column };
  if (limit !== undefined) data.limit = limit;
  return new Oz0Error("UNSAFE_YAML", `${place.file}:${place.line}:${place.column}: ${message}`, { data });
}
