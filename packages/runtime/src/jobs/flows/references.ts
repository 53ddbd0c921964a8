// `${...}` references in a YAML flow's step arguments and result: `${input}`, `${input.a.b}`,
// `${steps.<id>.output}` and a path into it. A string that is exactly one reference takes the
// value as it is; a longer string gets it as text; `$${` writes a literal `${`. The manifest
// schema already checked that each reference names the input or an earlier step.
import { Oz0Error } from "@oz0/sdk";
import { parseFlowReference } from "@oz0/sdk/internal";

/** What references read: the flow's input and the outputs of the steps so far. */
export interface FlowScope {
  readonly input: unknown;
  readonly steps: ReadonlyMap<string, unknown>;
}

const REFERENCE = /(?<!\$)\$\{([^}]*)\}/g;
const WHOLE = /^\$\{([^}]*)\}$/;

/**
 * `value` with every reference in it replaced, strings inside lists and maps included.
 * @example resolveReferences({ pr: "${input.number}" }, { input: { number: 12 }, steps: new Map() }) // { pr: 12 }
 */
export function resolveReferences(value: unknown, scope: FlowScope, where: string): unknown {
  if (typeof value === "string") return resolveText(value, scope, where);
  if (Array.isArray(value)) return value.map((item) => resolveReferences(item, scope, where));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, resolveReferences(item, scope, where)]),
    );
  }
  return value;
}

function resolveText(text: string, scope: FlowScope, where: string): unknown {
  const whole = WHOLE.exec(text);
  if (whole !== null) return read(whole[1] ?? "", scope, where);
  return text
    .replace(REFERENCE, (_match, expression: string) => {
      const found = read(expression, scope, where);
      return typeof found === "string" ? found : JSON.stringify(found);
    })
    .replaceAll("$${", "${");
}

function read(expression: string, scope: FlowScope, where: string): unknown {
  const reference = parseFlowReference(expression);
  if (reference === undefined) throw unresolved(expression, where, "it is not a reference");
  let value: unknown;
  if (reference.source === "input") {
    value = scope.input;
  } else {
    if (!scope.steps.has(reference.step)) {
      throw unresolved(expression, where, `step ${reference.step} has not run`);
    }
    value = scope.steps.get(reference.step);
  }
  let at = reference.source === "input" ? "input" : `steps.${reference.step}.output`;
  for (const segment of reference.path) {
    const next = child(value, segment);
    if (next === undefined) throw unresolved(expression, where, `${at} has no ${segment}`);
    value = next;
    at = `${at}.${segment}`;
  }
  return value;
}

function child(value: unknown, segment: string): unknown {
  if (Array.isArray(value)) return /^\d+$/.test(segment) ? value[Number(segment)] : undefined;
  if (value !== null && typeof value === "object" && Object.hasOwn(value, segment)) {
    return (value as Record<string, unknown>)[segment];
  }
  return undefined;
}

/** `where` is the step's id, or `result` for the flow's result. */
function unresolved(expression: string, where: string, why: string): Oz0Error {
  const label = where === "result" ? "the flow's result" : `step ${where}`;
  return new Oz0Error("STEP_FAILED", `${label}: \${${expression}} names nothing: ${why}`, {
    data: { step: where, address: "" },
  });
}
