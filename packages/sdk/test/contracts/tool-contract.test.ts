import { describe, expect, test } from "vitest";
import { z } from "zod";
import { contractFunction, plugin, ToolContract } from "../../src/contracts/index.js";
import { isOz0Error } from "../../src/errors/index.js";

const WeatherTool = plugin(
  class WeatherTool extends ToolContract {
    static Input = z.object({
      city: z.string().describe("City name"),
      units: z.string().default("metric").describe("metric or imperial"),
    });
    getName() {
      return "weather";
    }
    getDescription() {
      return "Get current weather for a city.";
    }
    execute(args: z.output<typeof WeatherTool.Input>) {
      return { city: args.city, temp: 22, units: args.units };
    }
  },
);

describe("ToolContract", () => {
  test("derives its parameters schema from a static zod Input", () => {
    expect(new WeatherTool().getParametersSchema()).toEqual({
      type: "object",
      properties: {
        city: { type: "string", description: "City name" },
        units: { type: "string", default: "metric", description: "metric or imperial" },
      },
      required: ["city"],
    });
  });

  test("uses an overridden getParametersSchema as it is (Style B)", () => {
    class CalculatorTool extends ToolContract {
      getName() {
        return "calculator";
      }
      getDescription() {
        return "Evaluate a math expression.";
      }
      override getParametersSchema() {
        return {
          type: "object" as const,
          properties: { expression: { type: "string" } },
          required: ["expression"],
        };
      }
      execute() {
        return { result: 42 };
      }
    }
    expect(contractFunction(new CalculatorTool()).input).toEqual(new CalculatorTool().getParametersSchema());
  });

  test("refuses a tool with neither Input nor getParametersSchema, saying how to fix it", () => {
    class BareTool extends ToolContract {
      getName() {
        return "bare";
      }
      getDescription() {
        return "No schema.";
      }
      execute() {
        return null;
      }
    }
    try {
      new BareTool().getParametersSchema();
      expect.unreachable();
    } catch (error) {
      expect(isOz0Error(error, "INVALID_PLUGIN")).toBe(true);
      expect((error as Error).message).toContain("static Input");
    }
  });

  test("becomes a function whose input is the zod Input, so arguments get parsed", async () => {
    const fn = contractFunction(new WeatherTool());
    expect(fn.name).toBe("weather");
    expect(fn.description).toBe("Get current weather for a city.");
    expect(fn.input).toBe(WeatherTool.Input);
  });
});
