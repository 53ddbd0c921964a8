import { describe, expect, expectTypeOf, test } from "vitest";
import { z } from "zod";
import { isOz0Error } from "../../src/errors/index.js";
import { definePlugin, defineTool } from "../../src/host/index.js";
import { callFunction, loadPluginForTest } from "../../src/testing/index.js";

describe("defineTool", () => {
  test("types run's arguments from a zod input and registers as a function", async () => {
    const lookup = defineTool({
      name: "lookup",
      description: "Look a ticket up by id.",
      input: z.object({ id: z.number().int(), queue: z.string().default("billing") }),
      run: async (args) => {
        expectTypeOf(args).toEqualTypeOf<{ id: number; queue: string }>();
        return { id: args.id, queue: args.queue };
      },
    });
    const host = await loadPluginForTest(
      definePlugin({
        setup(host) {
          host.addTool({
            name: "tickets",
            description: "Ticket store.",
            build: () => ({ functions: [lookup] }),
          });
        },
      }),
    );
    expect(await callFunction(host, "lookup", { id: 7 })).toEqual({ id: 7, queue: "billing" });
  });

  test("takes a JSON Schema input", () => {
    const echo = defineTool<{ text: string }>({
      name: "echo",
      description: "Says it back.",
      input: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
      run: (args) => args.text,
    });
    expect(echo.name).toBe("echo");
    expect(Object.isFrozen(echo)).toBe(true);
  });

  test("refuses a bad definition when it is defined, not at first call", () => {
    try {
      defineTool({ name: "bad name", description: "x", input: z.object({}), run: () => null });
      expect.unreachable();
    } catch (error) {
      expect(isOz0Error(error, "INVALID_NAME")).toBe(true);
    }
    expect(() =>
      defineTool({ name: "list", description: "x", input: z.array(z.string()) as never, run: () => null }),
    ).toThrow('type "object"');
  });
});
