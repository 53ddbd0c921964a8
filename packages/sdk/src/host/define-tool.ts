// defineTool: one function in plain functional form, checked when it is defined, with the
// handler's arguments typed from a zod input.
import type { z } from "zod";
import { checkFunction } from "./build.js";
import type { JsonSchemaObject, ZodSchema } from "./input-schema.js";
import type { FunctionCall, FunctionSpec } from "./specs.js";

export interface ZodToolDefinition<S extends ZodSchema> {
  readonly name: string;
  readonly description: string;
  readonly input: S;
  run(args: z.output<S>, call: FunctionCall): unknown;
}

export interface JsonToolDefinition<Args> {
  readonly name: string;
  readonly description: string;
  readonly input: JsonSchemaObject;
  run(args: Args, call: FunctionCall): unknown;
}

/**
 * A function for a tool's `build`. With a zod input, `run` gets the parsed arguments.
 * @example
 * const lookup = defineTool({
 *   name: "lookup",
 *   description: "Look a ticket up by id.",
 *   input: z.object({ id: z.number().int() }),
 *   run: async ({ id }) => ({ id, queue: "billing" }),
 * });
 * host.addTool({ name: "tickets", description: "Ticket store.", build: () => ({ functions: [lookup] }) });
 */
export function defineTool<S extends ZodSchema>(definition: ZodToolDefinition<S>): FunctionSpec<z.output<S>>;
export function defineTool<Args = Record<string, unknown>>(
  definition: JsonToolDefinition<Args>,
): FunctionSpec<Args>;
export function defineTool(definition: FunctionSpec): FunctionSpec {
  checkFunction(definition, "defineTool");
  return Object.freeze({ ...definition });
}
