// Numbers given as options. Commander hands every option over as text; each numeric option
// parses it here, so "abc", "1.5" where a whole number goes, "-3" or "0x10" are refused at
// once, naming the option, instead of reaching the runtime or the database as NaN.
import { InvalidArgumentError } from "commander";

export interface NumberRule {
  /** Only whole numbers. */
  readonly whole?: boolean;
  readonly min?: number;
  readonly max?: number;
  /** What the number is, for the message: "a port", "seconds". */
  readonly what: string;
  /** A value to show as an example. */
  readonly example: string;
}

const WHOLE = /^[+-]?\d+$/;
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)$/;

/**
 * A commander argParser for a number option.
 * @example program.option("--limit <n>", "at most this many", numberOption({ whole: true, min: 1, what: "a count", example: "20" }), 50)
 */
export function numberOption(rule: NumberRule): (text: string) => number {
  return (text) => {
    const trimmed = text.trim();
    const value = Number(trimmed);
    const formed = (rule.whole === true ? WHOLE : DECIMAL).test(trimmed) && Number.isFinite(value);
    const fits =
      formed &&
      (rule.whole !== true || Number.isSafeInteger(value)) &&
      (rule.min === undefined || value >= rule.min) &&
      (rule.max === undefined || value <= rule.max);
    if (!fits) throw new InvalidArgumentError(`it takes ${describe(rule)}, such as ${rule.example}`);
    return value;
  };
}

function describe(rule: NumberRule): string {
  const kind = rule.whole === true ? "a whole number" : "a number";
  const range =
    rule.min !== undefined && rule.max !== undefined
      ? ` from ${rule.min} to ${rule.max}`
      : rule.min !== undefined
        ? ` of ${rule.min} or more`
        : rule.max !== undefined
          ? ` of ${rule.max} or less`
          : "";
  return `${kind}${range} (${rule.what})`;
}

/**
 * The values of a string union from the runtime, listed here so that building the command tree
 * (for `--help`) loads no runtime: leaving one out is a type error, so the two stay the same.
 * @example const TYPES = allOf<ProviderType>()(["openai", "openai-chat", "anthropic", "openai-compatible"]);
 */
export function allOf<T extends string>() {
  return <const L extends readonly T[]>(
    list: L & ([Exclude<T, L[number]>] extends [never] ? unknown : { missing: Exclude<T, L[number]> }),
  ): L => list;
}
