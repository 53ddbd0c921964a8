// Cards: a job's answer as plain data to draw (text, key-values, a table or a diff), built
// from its output schema; and the line diffs that diff cards and skill proposals use.
export {
  buildCard,
  CARD_KEYWORDS,
  type Card,
  type CardColumn,
  type CardField,
  type CardSchema,
} from "./build.js";
export { type DiffLine, lineDiff, splitLines, unifiedPatch } from "./diff.js";
