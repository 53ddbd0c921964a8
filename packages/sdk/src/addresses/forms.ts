// How each address form reads to a person, and the one error every malformed address raises:
// the input quoted, what was wrong, and the form that was expected with a correct example.
import { Oz0Error } from "../errors/index.js";
import type { AddressForm, PatternOf } from "./types.js";

/** The forms an error can say were expected: an address form, or a pattern over functions or skills. */
export type ExpectedForm = AddressForm | `${PatternOf} pattern`;

interface FormText {
  readonly label: string;
  readonly shape: string;
  readonly example: string;
  /** The form inside a plugin, where a bare name means the plugin's own part. */
  readonly bareShape: string;
  readonly bareExample: string;
}

const FORMS: Record<ExpectedForm, FormText> = {
  function: {
    label: "function address",
    shape: "<plugin>/<tool>.<function>",
    example: "github/oz0_github.get_pull_request",
    bareShape: "<tool>.<function>",
    bareExample: "oz0_github.get_pull_request",
  },
  tool: {
    label: "tool address",
    shape: "<plugin>/<tool>",
    example: "github/oz0_github",
    bareShape: "<tool>",
    bareExample: "oz0_github",
  },
  agent: {
    label: "agent address",
    shape: "<plugin>/<agent>",
    example: "pr-reviewer/pr-reviewer",
    bareShape: "<agent>",
    bareExample: "review",
  },
  flow: {
    label: "flow address",
    shape: "<plugin>/<flow>",
    example: "merge-when-green/merge-when-green",
    bareShape: "<flow>",
    bareExample: "merge-when-green",
  },
  skill: {
    label: "skill address",
    shape: "<plugin>/<skill>",
    example: "web/research",
    bareShape: "<skill>",
    bareExample: "research",
  },
  "function pattern": {
    label: "function pattern",
    shape: "<plugin>/<tool>.<function>, <plugin>/<tool>.* or <plugin>/*",
    example: "github/oz0_github.*",
    bareShape: "<tool>.<function> or <tool>.*",
    bareExample: "oz0_github.*",
  },
  "skill pattern": {
    label: "skill pattern",
    shape: "<plugin>/<skill> or <plugin>/*",
    example: "web/*",
    bareShape: "<skill>",
    bareExample: "research",
  },
};

// Long enough to recognise the input, short enough that a pasted document does not flood a log.
const QUOTED_MAX = 120;

/** Quotes user text for a message; JSON escapes keep control characters and quotes visible. */
export function quote(text: string): string {
  const shown = text.length > QUOTED_MAX ? `${text.slice(0, QUOTED_MAX)}…` : text;
  return /^[\x20-\x7e]*$/.test(shown) && !shown.includes("'") ? `'${shown}'` : JSON.stringify(shown);
}

/**
 * The `INVALID_ADDRESS` error for `input`, which was read as `form`. `bare` says whether a bare
 * name of the current plugin was allowed, so the fix offers both ways of writing it.
 */
export function invalidAddress(input: string, form: ExpectedForm, problem: string, bare: boolean): Oz0Error {
  const text = FORMS[form];
  const fix = bare
    ? `Write ${text.bareShape} for a part of this plugin or ${text.shape} for another plugin's, such as ${text.bareExample} or ${text.example}.`
    : `Write ${text.shape}, such as ${text.example}.`;
  return new Oz0Error("INVALID_ADDRESS", `${quote(input)} is not a valid ${text.label}: ${problem}. ${fix}`, {
    data: { input, form },
  });
}
