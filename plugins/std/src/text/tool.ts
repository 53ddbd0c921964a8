// The `text` tool: count, regex search with positions, replace, extract, split and truncate.
// Every regular expression runs in a worker under a deadline (see regex.ts).
import { defineTool, type FunctionCall, type ToolSpec } from "@oz0/sdk";
import { z } from "zod";
import { DEFAULT_REGEX_TIMEOUT_MS, readStdConfig } from "../config.js";
import { badArgument, limitExceeded } from "../errors.js";
import type { ToolInfo } from "../tool-info.js";
import { codePointOffsets, countText, splitText, truncateText } from "./plain.js";
import { checkPattern, REGEX_FLAGS, runRegex } from "./regex.js";
import type { FoundMatch, OutcomeOf, RegexJob } from "./regex-worker.js";

/** At most this many characters of text per call. */
export const MAX_TEXT_CHARS = 1_048_576;
/** At most this many characters of pattern. */
export const MAX_PATTERN_CHARS = 2_000;
/** At most this many characters of output from replace. */
export const MAX_OUTPUT_CHARS = 2 * MAX_TEXT_CHARS;
/** At most this many matches or parts are listed; `count` still counts them all. */
export const MAX_LISTED = 1_000;

export const textInfo: ToolInfo = {
  id: "text",
  specName: "TextTool",
  description: "Count, search, replace, extract, split and truncate text, with regular expressions.",
  keyOperations: "count, search, replace, extract, split, truncate",
  externalDeps: "None",
  governance: "—",
  notes: [
    "Patterns are JavaScript regular expressions; `flags` takes any of `i` (ignore case), `m` (^ and $ at line breaks), `s` (. matches line breaks) and `u` (Unicode). In `replacement`, `$1`, `$<name>` and `$&` insert a group, a named group and the whole match; `$$` is a dollar sign.",
    `A pattern runs in a worker thread for at most ${DEFAULT_REGEX_TIMEOUT_MS} ms by default (the operator's \`text.regexTimeoutMs\` setting changes it); a pattern that backtracks catastrophically, such as \`(a+)+$\` on \`aaaa…!\`, is stopped and refused instead of hanging the node.`,
    `Lengths and positions count Unicode code points from 0 (\`end\` is exclusive). Text is at most ${MAX_TEXT_CHARS} characters, a pattern at most ${MAX_PATTERN_CHARS}, replace's output at most ${MAX_OUTPUT_CHARS}; search, extract and split list at most ${MAX_LISTED} items and add \`truncated: true\` when there were more (search's and split's \`count\` counts them all).`,
    "`split` splits on a literal delimiter (not a pattern), or on runs of whitespace when `delimiter` is left out. `truncate` keeps at most `max_length` characters including the ellipsis (`…` unless `ellipsis` says otherwise).",
  ],
  examples: [
    {
      function: "count",
      args: { text: "Hello world" },
      result: { characters: 11, words: 2, lines: 1 },
      checked: true,
    },
    {
      function: "search",
      args: { text: "Error: 404, Error: 500", pattern: "Error: (\\d+)" },
      result: {
        status: "ok",
        count: 2,
        matches: [
          { match: "Error: 404", start: 0, end: 10, groups: ["404"] },
          { match: "Error: 500", start: 12, end: 22, groups: ["500"] },
        ],
      },
      checked: true,
    },
    {
      function: "replace",
      args: { text: "Hello world", pattern: "world", replacement: "earth" },
      result: { status: "ok", result: "Hello earth" },
      checked: true,
    },
    {
      function: "extract",
      args: { text: "Call 123-456 or 789-012", pattern: "\\d{3}-\\d{3}" },
      result: { status: "ok", matches: ["123-456", "789-012"] },
      checked: true,
    },
    {
      function: "split",
      args: { text: "a,b,,c", delimiter: "," },
      result: { status: "ok", result: ["a", "b", "", "c"], count: 4 },
      checked: true,
    },
    {
      function: "truncate",
      args: { text: "The quick brown fox jumps over the lazy dog", max_length: 20 },
      result: { status: "ok", result: "The quick brown fox…", truncated: true },
      checked: true,
    },
  ],
};

const text = z.string().max(MAX_TEXT_CHARS).describe("The text to work on.");
const pattern = z
  .string()
  .min(1)
  .max(MAX_PATTERN_CHARS)
  .describe('A JavaScript regular expression, e.g. "Error: (\\\\d+)".');
const flags = z
  .string()
  .regex(new RegExp(`^[${REGEX_FLAGS}]*$`), `flags are letters among ${REGEX_FLAGS}`)
  .default("")
  .describe(
    `Regex flags among "${REGEX_FLAGS}": i ignore case, m multiline, s dot matches newline, u Unicode.`,
  );

// The inputs, made once: a build runs for every job, and oz0 converts each input to JSON Schema
// once per schema object.
const countInput = z.object({ text });
const matchInput = z.object({ text, pattern, flags });
const replaceInput = z.object({
  text,
  pattern,
  replacement: z
    .string()
    .max(MAX_TEXT_CHARS)
    .describe("What each match becomes; $1 and $<name> insert groups."),
  flags,
});
const splitInput = z.object({
  text,
  delimiter: z
    .string()
    .max(MAX_PATTERN_CHARS)
    .optional()
    .describe("The literal text to split on; left out, runs of whitespace."),
});
const truncateInput = z.object({
  text,
  max_length: z
    .number()
    .int()
    .min(1)
    .max(MAX_TEXT_CHARS)
    .describe("The most characters to keep, ellipsis included."),
  ellipsis: z.string().max(100).default("…").describe('What marks the cut (default "…").'),
});

/** The text tool; its regex deadline comes from the plugin config. */
export function textTool(): ToolSpec {
  return {
    name: textInfo.id,
    description: textInfo.description,
    build: (ctx) => {
      const timeoutMs = readStdConfig(ctx.config).text.regexTimeoutMs;
      const run: Runner = (job, call) => {
        checkPattern(job.source, job.flags);
        return runRegex(job, timeoutMs, call.signal);
      };
      return { functions: functions(run) };
    },
  };
}

type Runner = <J extends RegexJob>(job: J, call: FunctionCall) => Promise<OutcomeOf<J>>;

function functions(run: Runner) {
  const findAll = async (args: { text: string; pattern: string; flags: string }, call: FunctionCall) => {
    const job = {
      op: "match",
      source: args.pattern,
      flags: args.flags,
      text: args.text,
      maxMatches: MAX_LISTED,
    } as const;
    return run(job, call);
  };

  const count = defineTool({
    name: "count",
    description: "Count the characters, words and lines of a text.",
    input: countInput,
    run: ({ text }) => countText(text),
  });

  const search = defineTool({
    name: "search",
    description: "Find every match of a regular expression, with its position and capture groups.",
    input: matchInput,
    run: async (args, call) => {
      const { count, matches } = await findAll(args, call);
      return { status: "ok", count, matches: inCodePoints(args.text, matches), ...listed(count) };
    },
  });

  const replace = defineTool({
    name: "replace",
    description: "Replace every match of a regular expression ($1, $<name> and $& insert groups).",
    input: replaceInput,
    run: async ({ text, pattern, replacement, flags }, call) => {
      const { result } = await run(
        { op: "replace", source: pattern, flags, text, replacement } as const,
        call,
      );
      if (result.length > MAX_OUTPUT_CHARS) {
        throw limitExceeded(
          `the replaced text is ${result.length} characters long; at most ${MAX_OUTPUT_CHARS} are allowed.`,
          { limit: "output length", max: MAX_OUTPUT_CHARS, unit: "characters" },
        );
      }
      return { status: "ok", result };
    },
  });

  const extract = defineTool({
    name: "extract",
    description: "List the text of every match of a regular expression.",
    input: matchInput,
    run: async (args, call) => {
      const { count, matches } = await findAll(args, call);
      return { status: "ok", matches: matches.map((found) => found.match), ...listed(count) };
    },
  });

  const split = defineTool({
    name: "split",
    description: "Split a text on a literal delimiter, or on whitespace when no delimiter is given.",
    input: splitInput,
    run: ({ text, delimiter }) => {
      if (delimiter === "")
        throw badArgument(
          "delimiter",
          "an empty delimiter splits nothing; give one or more characters, or leave it out to split on whitespace.",
        );
      const parts = splitText(text, delimiter);
      return {
        status: "ok",
        result: parts.slice(0, MAX_LISTED),
        count: parts.length,
        ...listed(parts.length),
      };
    },
  });

  const truncate = defineTool({
    name: "truncate",
    description: "Shorten a text to at most max_length characters, ending with an ellipsis when cut.",
    input: truncateInput,
    run: ({ text, max_length, ellipsis }) => ({ status: "ok", ...truncateText(text, max_length, ellipsis) }),
  });

  return [count, search, replace, extract, split, truncate];
}

/** `{ truncated: true }` when more than MAX_LISTED items were found, else nothing. */
function listed(total: number): { truncated?: true } {
  return total > MAX_LISTED ? { truncated: true } : {};
}

function inCodePoints(text: string, matches: readonly FoundMatch[]): FoundMatch[] {
  const offsets = codePointOffsets(
    text,
    matches.flatMap((found) => [found.start, found.end]),
  );
  return matches.map((found, index) => ({
    ...found,
    start: offsets[2 * index]!,
    end: offsets[2 * index + 1]!,
  }));
}
