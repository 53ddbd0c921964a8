// Flows written as YAML steps in plugin.yaml: each step calls a function or runs an agent,
// and later steps use earlier results through `${...}` references. Flows with branches or
// loops are written in code and registered through the host instead.
//
//   flows:
//     - name: weekly-notes
//       input: text
//       steps:
//         - id: prs
//           call: github/oz0_github.list_pull_requests
//           args: { repo: "${input}", state: merged }
//         - id: notes
//           agent: acme-release-notes
//           input: "Write release notes for ${steps.prs.output}"
//       result: "${steps.notes.output}"
//
// References: `${input}` (the flow's input), `${input.a.b}`, `${steps.<id>.output}` and
// `${steps.<id>.output.a.0}`. A string that is exactly one reference takes the referenced
// value as it is; a longer string gets it as text. `$${` writes a literal `${`.
import * as z from "zod";
import { addressField, nameField, pluginPath, repeats, strictObject } from "./fields.js";

const STEP_ID = /^[a-z][a-z0-9_-]{0,62}$/;
const REFERENCE = /(?<!\$)\$\{([^}]*)\}/g;
const SEGMENT = "[A-Za-z0-9_-]+";
const INPUT_REFERENCE = new RegExp(`^input((?:\\.${SEGMENT})*)$`);
const STEP_REFERENCE = new RegExp(`^steps\\.(${SEGMENT})\\.output((?:\\.${SEGMENT})*)$`);

/** What a `${...}` reference reads: the flow's input or a step's output, then a path into it. */
export type FlowReference =
  | { readonly source: "input"; readonly path: readonly string[] }
  | { readonly source: "step"; readonly step: string; readonly path: readonly string[] };

/**
 * Reads the inside of one `${...}`; `undefined` when it is not a reference.
 * @example parseFlowReference("steps.prs.output.items") // { source: "step", step: "prs", path: ["items"] }
 */
export function parseFlowReference(expression: string): FlowReference | undefined {
  const text = expression.trim();
  const input = INPUT_REFERENCE.exec(text);
  if (input !== null) return { source: "input", path: splitPath(input[1]) };
  const step = STEP_REFERENCE.exec(text);
  if (step !== null) return { source: "step", step: step[1] ?? "", path: splitPath(step[2]) };
  return undefined;
}

function splitPath(dotted: string | undefined): string[] {
  return (dotted ?? "").split(".").filter((part) => part !== "");
}

/** Every `${...}` in `value` (strings inside lists and maps included), with where it sits. */
export function findFlowReferences(
  value: unknown,
  path: (string | number)[] = [],
): { expression: string; path: (string | number)[] }[] {
  if (typeof value === "string") {
    return [...value.matchAll(REFERENCE)].map((match) => ({ expression: match[1] ?? "", path }));
  }
  if (Array.isArray(value)) return value.flatMap((item, index) => findFlowReferences(item, [...path, index]));
  if (value !== null && typeof value === "object") {
    return Object.entries(value).flatMap(([key, item]) => findFlowReferences(item, [...path, key]));
  }
  return [];
}

const stepId = () =>
  z
    .string()
    .regex(
      STEP_ID,
      "a step id is a lowercase letter, then lowercase letters, digits, '_' or '-' (at most 63)",
    );

/** One step of a YAML flow: `call` a function with `args`, or run an `agent` on `input`. */
export const flowStepSchema = z.lazy(() =>
  strictObject({
    id: stepId(),
    description: z.string().optional(),
    call: addressField("function address (<tool>.<function> or <plugin>/<tool>.<function>)").optional(),
    args: z.record(z.string(), z.unknown()).optional(),
    agent: addressField("agent address (<agent> or <plugin>/<agent>)").optional(),
    input: z.unknown().optional(),
  }).superRefine((step, ctx) => {
    if ((step.call === undefined) === (step.agent === undefined)) {
      ctx.addIssue({
        code: "custom",
        message: "a step has either call: (a function) or agent: (an agent)",
        input: step,
      });
    }
    if (step.args !== undefined && step.call === undefined) {
      ctx.addIssue({
        code: "custom",
        message: "args: goes with call:; an agent step takes input:",
        path: ["args"],
        input: step,
      });
    }
    if (step.input !== undefined && step.agent === undefined) {
      ctx.addIssue({
        code: "custom",
        message: "input: goes with agent:; a call step takes args:",
        path: ["input"],
        input: step,
      });
    }
  }),
);
export type FlowStep = z.output<typeof flowStepSchema>;

/** A flow written as YAML steps. */
export const flowDefinitionSchema = z.lazy(() =>
  strictObject({
    name: nameField("flow"),
    description: z.string().optional(),
    input: z
      .literal("text", {
        error: "input may only be text; for structured input name a JSON Schema file with input_schema",
      })
      .optional(),
    input_schema: pluginPath().optional(),
    output_schema: pluginPath().optional(),
    steps: z.array(flowStepSchema).min(1, "a flow needs at least one step"),
    /** What the flow returns; left out, the last step's output. */
    result: z.unknown().optional(),
  }).superRefine((flow, ctx) => {
    if (flow.input !== undefined && flow.input_schema !== undefined) {
      ctx.addIssue({
        code: "custom",
        message: "declare input: text or input_schema, not both",
        path: ["input_schema"],
        input: flow,
      });
    }
    const ids = flow.steps.map((step) => step.id);
    for (const { index, value } of repeats(ids)) {
      ctx.addIssue({
        code: "custom",
        message: `step id '${value}' is used twice`,
        path: ["steps", index, "id"],
        input: value,
      });
    }
    const check = (
      value: unknown,
      path: (string | number)[],
      earlier: readonly string[],
      laterStep: boolean,
    ) => {
      for (const found of findFlowReferences(value, path)) {
        const reference = parseFlowReference(found.expression);
        // zod prefixes an issue's path in place, so each issue gets its own copy.
        const problem = (message: string) =>
          ctx.addIssue({ code: "custom", message, path: [...found.path], input: value });
        if (reference === undefined) {
          problem(
            `\${${found.expression}} is not a reference: write \${input}, \${input.<field>} or \${steps.<id>.output}`,
          );
        } else if (reference.source === "step" && !earlier.includes(reference.step)) {
          problem(
            ids.includes(reference.step) && laterStep
              ? `step '${reference.step}' has not run yet here: a step can use only the results of steps before it`
              : `no step has the id '${reference.step}'`,
          );
        }
      }
    };
    flow.steps.forEach((step, index) => {
      const earlier = ids.slice(0, index);
      check(step.args, ["steps", index, "args"], earlier, true);
      check(step.input, ["steps", index, "input"], earlier, true);
    });
    check(flow.result, ["result"], ids, false);
  }),
);
export type FlowDefinition = z.output<typeof flowDefinitionSchema>;
