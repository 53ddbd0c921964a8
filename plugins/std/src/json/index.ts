// The json tool: parse, format, dot-path get and merge, within size and depth bounds.
export {
  MAX_JSON_CHARS,
  MAX_JSON_DEPTH,
  MAX_OUTPUT_CHARS,
  measure,
  readJson,
  writeJson,
} from "./document.js";
export { isJsonObject, mergeObjects } from "./merge.js";
export { pathSegments, valueAt } from "./path.js";
export { jsonInfo, jsonTool } from "./tool.js";
