// References to `kind: Tool` manifests (spec/plugin-and-tool-authoring.txt §4): an agent names
// a function a plugin ships as `tools/<file>.tool.yaml` by `<plugin>:<path>`, such as
// `samples:tools/memory-search.tool.yaml`, in its `tools:` list, written as that text or as
// `{ ref: <plugin>:<path> }`. The loader reads the manifest and resolves the reference to the
// function's address; an address never holds a ':', so the two forms cannot be confused.
import * as z from "zod";
import { nameProblem } from "../names/index.js";
import { addressField } from "./fields.js";

/** The folder of a plugin that holds its `kind: Tool` manifests, and how their files end. */
export const TOOL_MANIFEST_DIR = "tools";
const MANIFEST_FILE = /^tools\/[A-Za-z0-9][A-Za-z0-9_.-]*\.tool\.ya?ml$/;

/** `<plugin>:<path>`, read. */
export interface ToolRef {
  readonly plugin: string;
  /** The manifest's path inside the plugin: `tools/<file>.tool.yaml`. */
  readonly path: string;
}

/** Whether `text` is written as a manifest reference (it has a ':'), valid or not. */
export function isToolRef(text: string): boolean {
  return text.includes(":");
}

/** Why `text` is not a manifest reference, or `undefined` when it is one. */
export function toolRefProblem(text: string): string | undefined {
  const at = text.indexOf(":");
  const plugin = text.slice(0, at);
  const path = text.slice(at + 1);
  const form = "write <plugin>:tools/<file>.tool.yaml, such as samples:tools/memory-search.tool.yaml";
  if (at < 0 || path.includes(":")) return `'${text}' is not a tool manifest reference: ${form}`;
  const named = nameProblem("plugin", plugin);
  if (named !== undefined) return `'${text}' is not a tool manifest reference: ${named}`;
  if (!MANIFEST_FILE.test(path) || path.split("/").includes("..")) {
    return `'${text}' names '${path}', which is not a kind: Tool manifest of the plugin: ${form}`;
  }
  return undefined;
}

/**
 * Reads a manifest reference; `undefined` when `text` is not one.
 * @example parseToolRef("samples:tools/memory-search.tool.yaml") // { plugin: "samples", path: "tools/memory-search.tool.yaml" }
 */
export function parseToolRef(text: string): ToolRef | undefined {
  if (toolRefProblem(text) !== undefined) return undefined;
  const at = text.indexOf(":");
  return { plugin: text.slice(0, at), path: text.slice(at + 1) };
}

/** `<plugin>:<path>`. */
export function formatToolRef(ref: ToolRef): string {
  return `${ref.plugin}:${ref.path}`;
}

const ADDRESS_WHAT = "tool function (<tool>.<function> or <plugin>/<tool>.<function>)";
const address = z.lazy(() => addressField(ADDRESS_WHAT));

/** `{ ref: <text> }` and nothing else: the spec's `tools[].ref` form. */
function refObject(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const keys = Object.keys(value);
  const ref = (value as { ref?: unknown }).ref;
  return keys.length === 1 && typeof ref === "string" ? ref : undefined;
}

/**
 * One entry of an agent's `tools:`: an address (`tickets.lookup`, `github/oz0_github.get_file`,
 * `oz.fail`), or a manifest reference as text or as `{ ref: … }`. Read as text either way.
 */
export function toolEntryField() {
  return z.unknown().transform((value, ctx): string => {
    const text = typeof value === "string" ? value : refObject(value);
    if (text === undefined) {
      ctx.addIssue({
        code: "custom",
        message: `a tools entry is an address such as tickets.lookup or github/oz0_github.get_file, or { ref: <plugin>:tools/<file>.tool.yaml }; not ${describeEntry(value)}`,
        input: value,
      });
      return z.NEVER;
    }
    if (isToolRef(text)) {
      const problem = toolRefProblem(text);
      if (problem !== undefined) ctx.addIssue({ code: "custom", message: problem, input: text });
      return text;
    }
    const checked = address.safeParse(text);
    for (const issue of checked.error?.issues ?? []) {
      ctx.addIssue({ code: "custom", message: issue.message, input: text });
    }
    return text;
  });
}

function describeEntry(value: unknown): string {
  if (value === null || value === undefined) return "an empty value";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a map other than { ref: … }";
  return `the ${typeof value} ${String(value)}`;
}
