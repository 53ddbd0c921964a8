import { describe, expect, expectTypeOf, test } from "vitest";
import type {
  GenericHookPayload,
  HookHandler,
  HookHandlers,
  HookPayload,
  PreLlmCallPayload,
  PreToolCallPayload,
} from "../../src/hooks/index.js";

describe("hook payload types", () => {
  test("give the governance hooks typed payloads and the others a generic one", () => {
    expectTypeOf<HookPayload<"pre_llm_call">>().toEqualTypeOf<PreLlmCallPayload>();
    expectTypeOf<HookPayload<"pre_tool_call">>().toEqualTypeOf<PreToolCallPayload>();
    expectTypeOf<HookPayload<"skills_check">>().toEqualTypeOf<GenericHookPayload<"skills_check">>();
    expectTypeOf<HookPayload<"pre_tool_call">["args"]>().toEqualTypeOf<Readonly<Record<string, unknown>>>();
  });

  test("let a modifying hook's handler return the fields it changes, and nothing otherwise", async () => {
    const rewrite: HookHandler<"pre_tool_call"> = (payload) => ({ args: { ...payload.args, limit: 10 } });
    const observe: HookHandler<"post_execution"> = () => undefined;
    // @ts-expect-error post_execution is not modifying, so a handler returns nothing
    const wrong: HookHandler<"post_execution"> = () => ({ status: "failed" });
    const payload: HookPayload<"pre_tool_call"> = {
      hook: "pre_tool_call",
      tenant: "default",
      callId: "c1",
      address: "support-triage/tickets.lookup",
      tool: "tickets",
      function: "lookup",
      args: { id: 7 },
      idempotencyKey: "k",
    };
    expect(await rewrite(payload)).toEqual({ args: { id: 7, limit: 10 } });
    expect(observe).toBeTypeOf("function");
    expect(wrong).toBeTypeOf("function");
  });

  test("accept handlers with no return statement, sync or async", () => {
    const handlers: HookHandlers = {
      pre_llm_call: (payload) => {
        if (payload.step > 100) throw new Error("too many steps");
      },
      on_error: async () => {},
    };
    expect(Object.keys(handlers)).toEqual(["pre_llm_call", "on_error"]);
  });
});
