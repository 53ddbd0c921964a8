// The `json` tool: parse, pretty-print, read a dot path out of, and merge JSON documents.
import { defineTool, type ToolSpec } from "@oz0/sdk";
import { z } from "zod";
import { badArgument } from "../errors.js";
import type { ToolInfo } from "../tool-info.js";
import { MAX_JSON_CHARS, MAX_JSON_DEPTH, MAX_OUTPUT_CHARS, readJson, writeJson } from "./document.js";
import { isJsonObject, mergeObjects } from "./merge.js";
import { valueAt } from "./path.js";

export const jsonInfo: ToolInfo = {
  id: "json",
  specName: "JsonTool",
  description: "Parse, pretty-print, query with dot paths, and merge JSON documents.",
  keyOperations: "parse, format, get, merge",
  externalDeps: "None",
  governance: "—",
  notes: [
    `\`data\` and \`merge_with\` are JSON text (a string), at most ${MAX_JSON_CHARS} characters each, nesting at most ${MAX_JSON_DEPTH} levels; output is at most ${MAX_OUTPUT_CHARS} characters.`,
    "Paths are dot-separated keys and array indexes: `user.name`, `items.0`, `items.0.price`; `items[0].price` and a leading `$.` are read too. An empty path is the whole document. A path that does not exist is refused with the keys or indexes found where it stopped.",
    "`merge` lays `merge_with`'s keys over `data`'s (both must be objects); with `deep: true`, nested objects are merged key by key (arrays are replaced).",
  ],
  examples: [
    {
      function: "parse",
      args: { data: '{"a": 1}' },
      result: { status: "ok", result: { a: 1 } },
      checked: true,
    },
    {
      function: "get",
      args: { data: '{"user": {"name": "Alice"}}', path: "user.name" },
      result: { status: "ok", result: "Alice" },
      checked: true,
    },
    {
      function: "get",
      args: { data: '{"items": [{"id": 7}, {"id": 8}]}', path: "items.1.id" },
      result: { status: "ok", result: 8 },
      checked: true,
    },
    {
      function: "format",
      args: { data: '{"a":1,"b":2}' },
      result: { status: "ok", result: '{\n  "a": 1,\n  "b": 2\n}' },
      checked: true,
    },
    {
      function: "merge",
      args: { data: '{"a": 1}', merge_with: '{"b": 2}' },
      result: { status: "ok", result: { a: 1, b: 2 } },
      checked: true,
    },
    {
      function: "merge",
      args: { data: '{"db": {"host": "a", "port": 1}}', merge_with: '{"db": {"port": 2}}', deep: true },
      result: { status: "ok", result: { db: { host: "a", port: 2 } } },
      checked: true,
    },
  ],
};

const data = z.string().max(MAX_JSON_CHARS).describe("JSON text to process.");

const parse = defineTool({
  name: "parse",
  description: "Parse JSON text into a value; invalid JSON is refused, saying what is wrong.",
  input: z.object({ data }),
  run: ({ data }) => ({ status: "ok", result: readJson("data", data) }),
});

const format = defineTool({
  name: "format",
  description: "Pretty-print JSON text with indentation (indent 0 writes it on one line).",
  input: z.object({
    data,
    indent: z.number().int().min(0).max(8).default(2).describe("Spaces per level, 0 to 8 (default 2)."),
  }),
  run: ({ data, indent }) => ({
    status: "ok",
    result: writeJson(readJson("data", data), indent, data.length),
  }),
});

const get = defineTool({
  name: "get",
  description: "Read the value at a dot path such as user.name or items.0 from JSON text.",
  input: z.object({
    data,
    path: z.string().describe('Dot-separated keys and array indexes, e.g. "user.name" or "items.0".'),
  }),
  run: ({ data, path }) => ({ status: "ok", result: valueAt(readJson("data", data), path) }),
});

const merge = defineTool({
  name: "merge",
  description: "Merge two JSON objects; keys of merge_with win (deep: true merges nested objects too).",
  input: z.object({
    data,
    merge_with: z
      .string()
      .max(MAX_JSON_CHARS)
      .describe("The JSON object text whose keys are laid over data's."),
    deep: z.boolean().default(false).describe("Merge nested objects key by key instead of replacing them."),
  }),
  run: ({ data, merge_with, deep }) => {
    const base = readJson("data", data);
    const other = readJson("merge_with", merge_with);
    if (!isJsonObject(base)) throw badArgument("data", "merge needs a JSON object (text starting with '{').");
    if (!isJsonObject(other))
      throw badArgument("merge_with", "merge needs a JSON object (text starting with '{').");
    return { status: "ok", result: mergeObjects(base, other, deep) };
  },
});

/** The json tool. */
export function jsonTool(): ToolSpec {
  return {
    name: jsonInfo.id,
    description: jsonInfo.description,
    build: () => ({ functions: [parse, format, get, merge] }),
  };
}
