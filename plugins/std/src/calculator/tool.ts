// The `calculator` tool: safe arithmetic, parsed and computed by hand (no eval, no Function).
import { defineTool, type ToolSpec } from "@oz0/sdk";
import { z } from "zod";
import type { ToolInfo } from "../tool-info.js";
import { CONSTANTS, evaluate, FUNCTIONS, MAX_DEPTH, MAX_EXPRESSION_LENGTH } from "./evaluate.js";

const FUNCTION_LIST = Object.keys(FUNCTIONS).join(", ");
const CONSTANT_LIST = Object.keys(CONSTANTS)
  .filter((name) => name !== "π")
  .join(", ");

export const calculatorInfo: ToolInfo = {
  id: "calculator",
  specName: "CalculatorTool",
  description:
    "Evaluate arithmetic expressions safely: numbers, + - * / % ^, parentheses and common functions.",
  keyOperations: "safe math evaluation",
  externalDeps: "None",
  governance: "—",
  notes: [
    "Operators, loosest first: `+ -`, then `* / %`, then unary `-`, then `^` (also `**`; right-associative, so `2^3^2` is 512 and `-2^2` is -4). `%` is the modulo with the divisor's sign (`-7 % 3` is 2). Numbers may have decimals and exponents (`1.5e3`).",
    `Functions: ${FUNCTION_LIST} (\`round(x, digits)\` rounds half away from zero; \`log(x)\` is the natural log, \`log(x, base)\` any base; angles in radians). Constants: ${CONSTANT_LIST}.`,
    `Nothing is evaluated as code: anything else (names, assignments, strings) is refused with the position of the problem. An expression is at most ${MAX_EXPRESSION_LENGTH} characters and nests at most ${MAX_DEPTH} levels. Division or modulo by zero, overflow and results outside a function's domain are refused. Fractions are given to 15 significant digits (\`0.1 + 0.2\` is 0.3).`,
  ],
  examples: [
    { function: "evaluate", args: { expression: "2 + 3 * 4" }, result: { result: 14 }, checked: true },
    {
      function: "evaluate",
      args: { expression: "(1 + 2) ^ 2 / 4" },
      result: { result: 2.25 },
      checked: true,
    },
    {
      function: "evaluate",
      args: { expression: "round(sqrt(2) * 100, 2)" },
      result: { result: 141.42 },
      checked: true,
    },
    {
      function: "evaluate",
      args: { expression: "max(3, -7 % 3, 2 * pi)" },
      result: { result: 6.28318530717959 },
      checked: true,
    },
  ],
};

const evaluateFunction = defineTool({
  name: "evaluate",
  description: `Evaluate an arithmetic expression: numbers, + - * / % ^, parentheses, functions ${FUNCTION_LIST}, constants ${CONSTANT_LIST}.`,
  input: z.object({
    expression: z
      .string()
      .max(MAX_EXPRESSION_LENGTH)
      .describe("The expression, e.g. '2 + 3 * 4' or 'sqrt(16) + round(2.567, 2)'."),
  }),
  run: ({ expression }) => ({ result: evaluate(expression) }),
});

/** The calculator tool. */
export function calculatorTool(): ToolSpec {
  return {
    name: calculatorInfo.id,
    description: calculatorInfo.description,
    build: () => ({ functions: [evaluateFunction] }),
  };
}
