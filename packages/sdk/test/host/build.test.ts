import { describe, expect, test } from "vitest";
import { z } from "zod";
import { isOz0Error } from "../../src/errors/index.js";
import {
  buildHookHandlers,
  buildTool,
  createRecordingHost,
  type FunctionSpec,
  inputJsonSchema,
  isZodSchema,
} from "../../src/host/index.js";
import { testCall, testToolContext } from "../../src/testing/index.js";

function toolWith(...functions: unknown[]) {
  return createRecordingHost("p").addTool({
    name: "tickets",
    description: "Ticket store.",
    build: () => ({ functions: functions as FunctionSpec[] }),
  }).spec;
}

const lookup = {
  name: "lookup",
  description: "Look a ticket up by id.",
  input: z.object({ id: z.number().int(), include: z.boolean().default(false) }),
  run: (args: { id: number; include: boolean }) => args,
};

describe("buildTool", () => {
  test("converts a zod input to JSON Schema with z.toJSONSchema, as the model sees it", async () => {
    const built = await buildTool(toolWith(lookup), testToolContext());
    expect(built.functions[0]?.inputSchema).toEqual({
      type: "object",
      properties: {
        id: { type: "integer", minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER },
        include: { type: "boolean", default: false },
      },
      required: ["id"],
    });
  });

  test("keeps a JSON Schema input as it is", async () => {
    const input = { type: "object" as const, properties: { id: { type: "integer" } }, required: ["id"] };
    const built = await buildTool(toolWith({ ...lookup, input }), testToolContext());
    expect(built.functions[0]?.inputSchema).toEqual(input);
  });

  test("parses arguments with a zod input before run, applying defaults", async () => {
    const built = await buildTool(toolWith(lookup), testToolContext());
    expect(await built.functions[0]?.run({ id: 7 }, testCall())).toEqual({ id: 7, include: false });
  });

  test("refuses arguments that do not match a zod input with INVALID_INPUT and every issue", async () => {
    const built = await buildTool(toolWith(lookup), testToolContext());
    try {
      await built.functions[0]?.run({ id: "seven" }, testCall());
      expect.unreachable();
    } catch (error) {
      expect(isOz0Error(error, "INVALID_INPUT")).toBe(true);
      expect(
        (error as { data: { issues: { path: string }[] } }).data.issues.map((issue) => issue.path),
      ).toEqual(["id"]);
    }
  });

  test("refuses two functions of one name in a tool", async () => {
    await expect(buildTool(toolWith(lookup, lookup), testToolContext())).rejects.toSatisfy((error) =>
      isOz0Error(error, "DUPLICATE_REGISTRATION"),
    );
  });

  test("refuses a function name that breaks the function name rule", async () => {
    await expect(buildTool(toolWith({ ...lookup, name: "look__up" }), testToolContext())).rejects.toSatisfy(
      (error) => isOz0Error(error, "INVALID_NAME"),
    );
  });

  test("refuses a function without a description or run", async () => {
    for (const fn of [
      { ...lookup, description: " " },
      { ...lookup, run: undefined },
    ]) {
      await expect(buildTool(toolWith(fn), testToolContext())).rejects.toSatisfy((error) =>
        isOz0Error(error, "INVALID_PLUGIN"),
      );
    }
  });

  test("refuses a build that does not return { functions }", async () => {
    const spec = createRecordingHost("p").addTool({
      name: "t",
      description: "d",
      build: () => ({}) as never,
    }).spec;
    await expect(buildTool(spec, testToolContext())).rejects.toThrow("build(ctx) must return { functions");
  });

  test("passes the tool context to build", async () => {
    const spec = createRecordingHost("p").addTool({
      name: "paths",
      description: "Shows where it runs.",
      build: (ctx) => ({
        functions: [
          { name: "where", description: "Where.", input: { type: "object" }, run: () => ctx.paths.home },
        ],
      }),
    }).spec;
    const built = await buildTool(
      spec,
      testToolContext({ paths: { home: "/h", userRoot: "/u", toolsBinDir: "/b", agentRoot: "/a" } }),
    );
    expect(await built.functions[0]?.run({}, testCall())).toBe("/h");
  });
});

describe("function inputs", () => {
  test("must describe an object", () => {
    for (const input of [z.string(), { type: "string" }, undefined]) {
      try {
        inputJsonSchema(input, "tool 't', function 'f'");
        expect.unreachable();
      } catch (error) {
        expect(isOz0Error(error, "INVALID_PLUGIN")).toBe(true);
        expect((error as Error).message).toContain('type "object"');
      }
    }
  });

  test("refuse a zod type JSON Schema cannot express, saying so", () => {
    expect(() => inputJsonSchema(z.object({ when: z.date() }), "f")).toThrow(
      "cannot be written as JSON Schema",
    );
  });

  test("refuse a zod 3 schema, naming zod 4", () => {
    expect(() => inputJsonSchema({ _def: { typeName: "ZodObject" }, parse() {} }, "f")).toThrow("zod 3");
  });

  test("convert a zod input once, however many builds read it", async () => {
    // A tool's build runs for every job; its input, defined beside it, is the same object each time.
    const first = await buildTool(toolWith(lookup), testToolContext());
    const second = await buildTool(toolWith(lookup), testToolContext());
    const schema = first.functions[0]?.inputSchema;
    expect(second.functions[0]?.inputSchema).toBe(schema);
    // Shared by every job, so no job can change it for the others.
    expect(Object.isFrozen(schema)).toBe(true);
    expect(Object.isFrozen(schema?.properties?.id)).toBe(true);
    // A schema derived from it is another schema, converted on its own.
    const described = lookup.input.describe("The lookup.");
    expect(inputJsonSchema(described, "f")).toMatchObject({ description: "The lookup." });
    expect(inputJsonSchema(lookup.input, "f")).not.toHaveProperty("description");
  });

  test("refuse a zod input that cannot be converted at every build, naming the function each time", () => {
    const input = z.object({ when: z.date() });
    expect(() => inputJsonSchema(input, "tool 't', function 'a'")).toThrow("function 'a'");
    expect(() => inputJsonSchema(input, "tool 't', function 'b'")).toThrow("function 'b'");
  });

  test("tell zod schemas from JSON Schema by shape", () => {
    expect(isZodSchema(z.object({}))).toBe(true);
    expect(isZodSchema({ type: "object" })).toBe(false);
  });
});

describe("buildHookHandlers", () => {
  test("refuses handlers for an unknown hook with UNKNOWN_HOOK", async () => {
    const spec = createRecordingHost("p").addHook({
      name: "audit",
      build: () => ({ pre_tool_cal: () => {} }) as never,
    }).spec;
    await expect(buildHookHandlers(spec, { pluginId: "p", config: {} })).rejects.toSatisfy((error) =>
      isOz0Error(error, "UNKNOWN_HOOK"),
    );
  });

  test("passes plugin config to build", async () => {
    const spec = createRecordingHost("p").addHook({
      name: "audit",
      build: (ctx) => (ctx.config.on ? { on_error: () => undefined } : {}),
    }).spec;
    expect(Object.keys(await buildHookHandlers(spec, { pluginId: "p", config: { on: true } }))).toEqual([
      "on_error",
    ]);
  });
});
