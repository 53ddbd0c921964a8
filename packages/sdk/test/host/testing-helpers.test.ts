// The helpers of src/testing, which plugin authors get on the `./testing` subpath.
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { PolicyViolation } from "../../src/contracts/index.js";
import { isOz0Error } from "../../src/errors/index.js";
import { createRecordingHost, defineTool, type ToolRuntime } from "../../src/host/index.js";
import {
  callFunction,
  loadPluginForTest,
  runHook,
  testCall,
  testToolContext,
} from "../../src/testing/index.js";

const echo = defineTool({
  name: "echo",
  description: "Says it back.",
  input: z.object({ text: z.string() }),
  run: (args, call) => ({ text: args.text, address: call.address, job: call.jobId }),
});

function hostWith(...tools: string[]) {
  const host = createRecordingHost("kit");
  for (const name of tools) host.addTool({ name, description: "d", build: () => ({ functions: [echo] }) });
  return host;
}

describe("callFunction", () => {
  test("calls <tool>.<function> with a test call that carries the function's address", async () => {
    expect(await callFunction(hostWith("words"), "words.echo", { text: "hi" })).toEqual({
      text: "hi",
      address: "kit/words.echo",
      job: "test-job",
    });
  });

  test("takes registrations as well as the host", async () => {
    expect(await callFunction(hostWith("words").registrations(), "echo", { text: "a" })).toMatchObject({
      text: "a",
    });
  });

  test("refuses a bare function name two tools share, and a name no tool has, listing what exists", async () => {
    const host = hostWith("one", "two");
    await expect(callFunction(host, "echo", { text: "a" })).rejects.toThrow("more than one tool has it");
    await expect(callFunction(host, "one.shout", {})).rejects.toThrow(
      "Registered functions: one.echo, two.echo",
    );
  });

  test("refuses to call a disabled tool", async () => {
    const host = hostWith("words");
    host.registration("tool", "words")?.disable();
    await expect(callFunction(host, "words.echo", { text: "a" })).rejects.toThrow("is disabled");
  });

  test("gives tools a runtime that refuses until a test passes one", async () => {
    const host = createRecordingHost("kit");
    host.addTool({
      name: "files",
      description: "Reads files.",
      build: (ctx) => ({
        functions: [
          defineTool({
            name: "read",
            description: "Reads.",
            input: z.object({ path: z.string() }),
            run: (a) => ctx.runtime.readFile(a.path),
          }),
        ],
      }),
    });
    await expect(callFunction(host, "files.read", { path: "a.txt" })).rejects.toThrow("has no runtime");
    const runtime = { readFile: async (path: string) => `contents of ${path}` } as unknown as ToolRuntime;
    expect(await callFunction(host, "files.read", { path: "a.txt" }, { context: { runtime } })).toBe(
      "contents of a.txt",
    );
  });
});

describe("runHook", () => {
  const toolCall = {
    tenant: "default",
    callId: "c1",
    address: "kit/words.echo",
    tool: "words",
    function: "echo",
    args: { text: "hi" },
    idempotencyKey: "k",
  };

  test("runs lifecycle handlers by order and merges each one's changes on a modifying hook", async () => {
    const host = createRecordingHost("kit");
    host.addBeforeToolCall({
      name: "second",
      order: 2,
      run: (p) => ({ args: { ...p.args, by: `${String(p.args.by)}+second` } }),
    });
    host.addBeforeToolCall({ name: "first", order: 1, run: (p) => ({ args: { ...p.args, by: "first" } }) });
    host.addHook({
      name: "audit",
      build: () => ({ pre_tool_call: (p) => ({ args: { ...p.args, audited: true } }) }),
    });
    const result = await runHook(host, "pre_tool_call", toolCall);
    expect(result.args).toEqual({ text: "hi", audited: true, by: "first+second" });
    expect(result.hook).toBe("pre_tool_call");
  });

  test("gives a lifecycle handler the plugin's config, as the bus does", async () => {
    const host = createRecordingHost("kit");
    host.addBeforeToolCall({
      name: "tag",
      run: (p, ctx) => ({ args: { ...p.args, tag: `${ctx.pluginId}:${String(ctx.config.tag)}` } }),
    });
    const result = await runHook(host, "pre_tool_call", toolCall, { config: { tag: "blue" } });
    expect(result.args).toEqual({ text: "hi", tag: "kit:blue" });
  });

  test("ignores what a handler returns on a hook that does not modify", async () => {
    const host = createRecordingHost("kit");
    host.addHook({
      name: "audit",
      build: () => ({ post_execution: (() => ({ status: "failed" })) as never }),
    });
    const result = await runHook(host, "post_execution", {
      tenant: "default",
      status: "succeeded",
      failure: null,
    });
    expect(result.status).toBe("succeeded");
  });

  test("throws a handler's PolicyViolation on, and skips disabled registrations", async () => {
    const host = createRecordingHost("kit");
    const guard = host.addBeforeToolCall({
      name: "guard",
      run: () => {
        throw new PolicyViolation("tool_guard", "echo is not allowed here");
      },
    });
    await expect(runHook(host, "pre_tool_call", toolCall)).rejects.toSatisfy((error) =>
      isOz0Error(error, "POLICY_VIOLATION"),
    );
    guard.disable();
    await expect(runHook(host, "pre_tool_call", toolCall)).resolves.toMatchObject({ args: { text: "hi" } });
  });

  test("refuses an unknown hook", async () => {
    await expect(
      runHook(createRecordingHost("kit"), "pre_tool_cal" as never, toolCall as never),
    ).rejects.toSatisfy((error) => isOz0Error(error, "UNKNOWN_HOOK"));
  });
});

describe("test contexts", () => {
  test("loadPluginForTest records under test-plugin unless told otherwise", async () => {
    expect((await loadPluginForTest({ setup() {} })).pluginId).toBe("test-plugin");
  });

  test("testCall and testToolContext take overrides", () => {
    expect(testCall({ attempt: 2 }).attempt).toBe(2);
    expect(testCall().signal.aborted).toBe(false);
    expect(testToolContext({ tenant: "acme" }).tenant).toBe("acme");
  });
});
