// The text tool: counting, regex search/replace/extract under a deadline, split, truncate.
export { codePointOffsets, countText, splitText, truncateText } from "./plain.js";
export { checkPattern, REGEX_FLAGS, runRegex } from "./regex.js";
export type { FoundMatch, RegexJob, RegexOutcome } from "./regex-worker.js";
export {
  MAX_LISTED,
  MAX_OUTPUT_CHARS,
  MAX_PATTERN_CHARS,
  MAX_TEXT_CHARS,
  textInfo,
  textTool,
} from "./tool.js";
