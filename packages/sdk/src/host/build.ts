// Building what a plugin registered, checked the same way for every caller (the runtime's
// loader, lint's listing, the testing helpers): a tool's functions get their names checked
// and their zod inputs converted to JSON Schema; hook handlers get their hook names checked.
import { Oz0Error } from "../errors/index.js";
import { checkHookHandlers } from "../hooks/handlers.js";
import type { HookHandlers } from "../hooks/payloads.js";
import { nameProblem } from "../names/index.js";
import {
  type FunctionInput,
  inputJsonSchema,
  type JsonSchemaObject,
  parseArguments,
} from "./input-schema.js";
import type {
  FunctionCall,
  FunctionSpec,
  HookContext,
  HookSpec,
  Registered,
  ToolContext,
  ToolSpec,
} from "./specs.js";

/** A function ready to list and call. */
export interface BuiltFunction {
  readonly name: string;
  readonly description: string;
  /** The input as JSON Schema, converted from zod when it was given as zod. */
  readonly inputSchema: JsonSchemaObject;
  /** The input as given. */
  readonly input: FunctionInput;
  /** Calls the function; with a zod input, parses the arguments first (`INVALID_INPUT` if they do not match). */
  run(args: unknown, call: FunctionCall): Promise<unknown>;
}

export interface BuiltTool {
  readonly pluginId: string;
  readonly name: string;
  readonly description: string;
  readonly functions: readonly BuiltFunction[];
}

/** Builds a registered tool and checks its functions. */
export async function buildTool(spec: Registered<ToolSpec>, ctx: ToolContext): Promise<BuiltTool> {
  const where = `tool '${spec.name}' of plugin '${spec.pluginId}'`;
  const built: unknown = await spec.build(ctx);
  const functions = (built as { functions?: unknown } | undefined)?.functions;
  if (!Array.isArray(functions)) {
    throw new Oz0Error("INVALID_PLUGIN", `${where}: build(ctx) must return { functions: [ … ] }.`, {
      data: { plugin: spec.pluginId, detail: "build did not return functions" },
    });
  }
  const seen = new Set<string>();
  const checked = functions.map((fn: unknown) => {
    const described = checkFunction(fn, where);
    if (seen.has(described.name)) {
      throw new Oz0Error(
        "DUPLICATE_REGISTRATION",
        `${where} has two functions named '${described.name}'. Function names are unique within a tool.`,
        { data: { plugin: spec.pluginId, kind: "function", name: `${spec.name}.${described.name}` } },
      );
    }
    seen.add(described.name);
    return described;
  });
  return Object.freeze({
    pluginId: spec.pluginId,
    name: spec.name,
    description: spec.description,
    functions: Object.freeze(checked),
  });
}

/**
 * Checks one function spec: its name, description and run, and that its input describes an
 * object (converting zod to JSON Schema). `where` names its tool in messages.
 */
export function checkFunction(fn: unknown, where: string): BuiltFunction {
  const spec = (typeof fn === "object" && fn !== null ? fn : {}) as Partial<FunctionSpec>;
  const name = typeof spec.name === "string" ? spec.name : "";
  const problem = nameProblem("function", name);
  if (problem !== undefined) {
    throw new Oz0Error("INVALID_NAME", `${where}: ${problem}.`, { data: { kind: "function", name } });
  }
  const at = `${where}, function '${name}'`;
  if (typeof spec.description !== "string" || spec.description.trim() === "") {
    throw new Oz0Error(
      "INVALID_PLUGIN",
      `${at}: needs a description, which the model reads to decide when to call it.`,
      {
        data: { detail: "function without description" },
      },
    );
  }
  if (typeof spec.run !== "function") {
    throw new Oz0Error("INVALID_PLUGIN", `${at}: needs run(args, call), the function's handler.`, {
      data: { detail: "function without run" },
    });
  }
  const input = spec.input as FunctionInput;
  const inputSchema = inputJsonSchema(input, at);
  const run = spec.run.bind(spec);
  return Object.freeze({
    name,
    description: spec.description,
    inputSchema,
    input,
    run: async (args: unknown, call: FunctionCall) => run(parseArguments(input, args, at) as never, call),
  });
}

/** Builds a registered hook spec and checks that every key names a hook point. */
export async function buildHookHandlers(spec: Registered<HookSpec>, ctx: HookContext): Promise<HookHandlers> {
  return checkHookHandlers(await spec.build(ctx), `hook '${spec.name}' of plugin '${spec.pluginId}'`);
}
