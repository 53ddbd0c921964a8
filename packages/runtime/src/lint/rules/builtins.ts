// OZ-S024: a built-in (`oz.<name>`) that oz0 does not have. A job would leave it out of what
// the model is offered, so the agent would run without the function its author meant
// (`oz.fial` for `oz.fail`).
import { BUILTIN_FUNCTIONS, BUILTIN_TOOL_ID } from "@oz0/sdk";
import { closestWord } from "@oz0/sdk/internal";
import { partReferences } from "../collect.js";
import { finding, type LintFinding } from "../finding.js";
import { placeOf } from "../source.js";
import type { LintRule } from "./rule.js";

const PREFIX = `${BUILTIN_TOOL_ID}.`;
const NAMES: readonly string[] = BUILTIN_FUNCTIONS.map((name) => `${PREFIX}${name}`);

export const checkBuiltins: LintRule = (files) => {
  const found: LintFinding[] = [];
  for (const reference of partReferences(files)) {
    const { value } = reference;
    if (reference.kind !== "function" || !value.startsWith(PREFIX) || value === `${PREFIX}*`) continue;
    if (NAMES.includes(value)) continue;
    found.push(finding("OZ-S024", placeOf(reference.source, reference.path), unknownBuiltin(value)));
  }
  return found;
};

/**
 * The message for a built-in oz0 does not have.
 * @example unknownBuiltin("oz.fial") // "oz0 has no built-in oz.fial; did you mean oz.fail? …"
 */
export function unknownBuiltin(name: string): string {
  const guess = closestWord(name, NAMES);
  const hint = guess === undefined ? "." : `; did you mean ${guess}?`;
  return `oz0 has no built-in ${name}${hint} Its built-ins: ${NAMES.join(", ")}.`;
}
