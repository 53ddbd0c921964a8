// ToolContract: one function written as a class. The runtime calls it like any other
// function; a static zod `Input` gives it its JSON Schema without writing one by hand.
import { Oz0Error } from "../errors/index.js";
import { inputJsonSchema, type JsonSchemaObject } from "../host/input-schema.js";
import type { FunctionSpec } from "../host/specs.js";
import { CapabilityContract } from "./base.js";

/**
 * A function as a class. Either give the class a static zod `Input` (the parameters schema
 * is derived from it, and `execute` gets the parsed arguments) or override
 * `getParametersSchema` with a JSON Schema.
 * @example
 * @plugin
 * class WeatherTool extends ToolContract {
 *   static Input = z.object({ city: z.string(), units: z.string().default("metric") });
 *   getName() { return "weather"; }
 *   getDescription() { return "Get current weather for a city."; }
 *   execute(args: z.output<typeof WeatherTool.Input>) { return { city: args.city, temp: 22 }; }
 * }
 */
export abstract class ToolContract extends CapabilityContract {
  static readonly contractId: string = "tool";

  /** The function name. */
  abstract getName(): string;

  abstract getDescription(): string;

  /** JSON Schema of the arguments; derived from the class's static zod `Input` unless overridden. */
  getParametersSchema(): JsonSchemaObject {
    const input = staticInput(this);
    if (input === undefined) {
      const name = this.constructor.name;
      throw new Oz0Error(
        "INVALID_PLUGIN",
        `${name} has no parameters schema: give it a static zod Input (static Input = z.object({ … })) or override getParametersSchema().`,
        { data: { plugin: name, detail: "no Input and no getParametersSchema()" } },
      );
    }
    return inputJsonSchema(input, `${this.constructor.name}.Input`);
  }

  abstract execute(args: Record<string, unknown>): unknown;
}

/**
 * The function a ToolContract defines, in the host's FunctionSpec form. Its input is the
 * static zod `Input` when the class derives its schema from it, so arguments get parsed.
 */
export function contractFunction(tool: ToolContract): FunctionSpec {
  const input = staticInput(tool);
  const derived = tool.getParametersSchema === ToolContract.prototype.getParametersSchema;
  return {
    name: tool.getName(),
    description: tool.getDescription(),
    input: derived && input !== undefined ? (input as FunctionSpec["input"]) : tool.getParametersSchema(),
    run: (args) => tool.execute(args),
  };
}

function staticInput(tool: ToolContract): unknown {
  return (tool.constructor as { Input?: unknown }).Input;
}
