// The rate limit contract on its own, as the spec's example writes it.
import type { HookPayload } from "@oz0/sdk";
import { describe, expect, test } from "vitest";
import { RateLimitGovernance } from "../src/index.js";

const llmCall = (tenant = "default"): HookPayload<"pre_llm_call"> => ({
  hook: "pre_llm_call",
  tenant,
  step: 1,
  model: "test:x",
  messages: [],
  tools: [],
  settings: {},
});

const toolCall: HookPayload<"pre_tool_call"> = {
  hook: "pre_tool_call",
  tenant: "default",
  callId: "1.1",
  address: "desk/notes.write",
  tool: "notes",
  function: "write",
  args: {},
  idempotencyKey: "k",
};

function refusal(call: () => void): unknown {
  try {
    call();
  } catch (error) {
    return error;
  }
  throw new Error("the rate limit let the call through");
}

describe("RateLimitGovernance", () => {
  test("is the rate_limit contract", () => {
    expect(RateLimitGovernance.contractId).toBe("rate_limit");
    expect(RateLimitGovernance.implements).toEqual(["rate_limit"]);
  });

  test("refuses the call past max_calls_per_minute: Rate limit exceeded: 60/min, with current_count", () => {
    const limit = new RateLimitGovernance({ now: () => 0 });
    for (let call = 0; call < 60; call += 1) limit.on_pre_llm_call(llmCall());
    expect(refusal(() => limit.on_pre_llm_call(llmCall()))).toMatchObject({
      code: "POLICY_VIOLATION",
      contractId: "rate_limit",
      reason: "Rate limit exceeded: 60/min",
      details: { current_count: 60 },
    });
  });

  test("counts only the calls of the last 60 seconds", () => {
    let now = 0;
    const limit = new RateLimitGovernance({ maxCallsPerMinute: 2, now: () => now });
    limit.on_pre_llm_call(llmCall());
    now = 30_000;
    limit.on_pre_llm_call(llmCall());
    expect(refusal(() => limit.on_pre_llm_call(llmCall()))).toMatchObject({ details: { current_count: 2 } });
    now = 60_000;
    expect(() => limit.on_pre_llm_call(llmCall())).not.toThrow();
  });

  test("keeps one window per tenant", () => {
    const limit = new RateLimitGovernance({ maxCallsPerMinute: 1, now: () => 0 });
    limit.on_pre_llm_call(llmCall("a"));
    expect(() => limit.on_pre_llm_call(llmCall("b"))).not.toThrow();
    expect(() => limit.on_pre_llm_call(llmCall("a"))).toThrow("Rate limit exceeded: 1/min");
  });

  test("limits function calls only when a tool rate is given", () => {
    const open = new RateLimitGovernance({ now: () => 0 });
    for (let call = 0; call < 100; call += 1) open.on_pre_tool_call(toolCall);
    const limit = new RateLimitGovernance({ maxToolCallsPerMinute: 1, now: () => 0 });
    limit.on_pre_tool_call(toolCall);
    expect(() => limit.on_pre_tool_call(toolCall)).toThrow("Rate limit exceeded: 1/min");
  });
});

describe("the rate limit's window", () => {
  test("counts the last 60 seconds exactly across many calls, as old ones drop out", () => {
    let now = 0;
    const limit = new RateLimitGovernance({ maxCallsPerMinute: 3000, now: () => now });
    // 100 calls a second for 30 seconds.
    for (let call = 0; call < 3000; call += 1) {
      now = call * 10;
      limit.on_pre_llm_call(llmCall());
    }
    // At 30 s the window holds the 3,000 calls of 0..29,990 ms: the next is refused.
    now = 30_000;
    expect(refusal(() => limit.on_pre_llm_call(llmCall()))).toMatchObject({
      details: { current_count: 3000 },
    });
    // At 60,000 ms the call at 0 is 60 s old and drops out: one call fits.
    now = 60_000;
    expect(() => limit.on_pre_llm_call(llmCall())).not.toThrow();
    expect(refusal(() => limit.on_pre_llm_call(llmCall()))).toMatchObject({
      details: { current_count: 3000 },
    });
    // Long after, the window is empty again (and what dropped out is let go).
    now = 200_000;
    for (let call = 0; call < 3000; call += 1) limit.on_pre_llm_call(llmCall());
    expect(refusal(() => limit.on_pre_llm_call(llmCall()))).toMatchObject({
      details: { current_count: 3000 },
    });
  });
});
