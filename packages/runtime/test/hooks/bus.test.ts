// The hook bus's rules, from the spec's "Governance Events" and the hook reference: order,
// blocking and modifying semantics, and the events each outcome records.
import { GovernanceContract, type HookPayload, PolicyViolation, plugin } from "@oz0/sdk";
import { describe, expect, test } from "vitest";
import { busOver, hookPlugin } from "./helpers.js";

const toolCall = {
  callId: "1.1",
  address: "helpdesk/tickets.lookup",
  tool: "tickets",
  function: "lookup",
  args: { id: 7 },
  idempotencyKey: "job-1:1.1",
};

describe("the order handlers run in", () => {
  test("runs lifecycle specs by order, and hook specs and contracts at order 0, ties in registration order", async () => {
    const seen: string[] = [];
    const { bus } = await busOver([
      hookPlugin("alpha", (host) => {
        host.addHook({ name: "first", build: () => ({ pre_tool_call: () => void seen.push("alpha hook") }) });
        host.addBeforeToolCall({ name: "late", order: 10, run: () => void seen.push("alpha late") });
        host.addBeforeToolCall({ name: "early", order: -5, run: () => void seen.push("alpha early") });
      }),
      hookPlugin("beta", (host) => {
        host.addBeforeToolCall({ name: "zero", run: () => void seen.push("beta zero") });
      }),
    ]);
    await bus.fire("pre_tool_call", toolCall);
    expect(seen).toEqual(["alpha early", "alpha hook", "beta zero", "alpha late"]);
  });

  test("runs each handler with one payload object carrying the hook, tenant, job and agent", async () => {
    const payloads: unknown[] = [];
    const { bus } = await busOver([
      hookPlugin("alpha", (host) => {
        host.addBeforeToolCall({ name: "look", run: (payload) => void payloads.push(payload) });
        host.addHook({
          name: "also",
          build: () => ({ pre_tool_call: (...args) => void payloads.push(args) }),
        });
      }),
    ]);
    await bus.fire("pre_tool_call", toolCall);
    const payload = {
      ...toolCall,
      hook: "pre_tool_call",
      tenant: "default",
      jobId: "job-1",
      agent: "helpdesk/triage",
    };
    expect(payloads).toEqual([payload, [payload]]);
  });

  test("lifecycle specs get the operator's config of their plugin, as a hook spec's build does", async () => {
    const seen: unknown[] = [];
    const { bus } = await busOver([
      hookPlugin(
        "alpha",
        (host) => {
          host.addBeforeRun({ name: "run", run: (_payload, ctx) => void seen.push(["before_run", ctx]) });
          host.addBeforeToolCall({
            name: "call",
            run: (_payload, ctx) => void seen.push(["before_tool_call", ctx]),
          });
          host.addAfterToolResult({
            name: "result",
            run: (_payload, ctx) => void seen.push(["after_tool_result", ctx]),
          });
        },
        { limit: 3 },
      ),
      hookPlugin("beta", (host) => {
        host.addBeforeToolCall({ name: "call", run: (_payload, ctx) => void seen.push(["beta", ctx]) });
      }),
    ]);
    await bus.fire("pre_execution", { kind: "agent", target: "helpdesk/triage", input: "hi" });
    await bus.fire("pre_tool_call", toolCall);
    await bus.fire("post_tool_call", { ...toolCall, result: { id: 7 }, durationMs: 1 });
    expect(seen).toEqual([
      ["before_run", { pluginId: "alpha", config: { limit: 3 } }],
      ["before_tool_call", { pluginId: "alpha", config: { limit: 3 } }],
      ["beta", { pluginId: "beta", config: {} }],
      ["after_tool_result", { pluginId: "alpha", config: { limit: 3 } }],
    ]);
  });
});

describe("governance_checked", () => {
  test("is recorded when every handler of a blocking hook point passed, with checks_passed and outcome allowed", async () => {
    const { bus, events } = await busOver([
      hookPlugin("alpha", (host) => {
        host.addBeforeToolCall({ name: "one", run: () => undefined });
        host.addHook({ name: "two", build: () => ({ pre_tool_call: () => undefined }) });
      }),
    ]);
    const outcome = await bus.fire("pre_tool_call", toolCall);
    expect(outcome.ok).toBe(true);
    expect(events).toEqual([
      { kind: "governance_checked", data: { hook: "pre_tool_call", checks_passed: 2, outcome: "allowed" } },
    ]);
  });

  test("is not recorded when no handler is registered", async () => {
    const { bus, events } = await busOver([hookPlugin("alpha", () => {})]);
    expect(
      (await bus.fire("pre_llm_call", { step: 1, model: "test:x", messages: [], tools: [], settings: {} }))
        .ok,
    ).toBe(true);
    expect(events).toEqual([]);
  });

  test("is not recorded for a non-blocking hook point", async () => {
    let ran = false;
    const { bus, events } = await busOver([
      hookPlugin("alpha", (host) => {
        host.addAfterToolResult({
          name: "after",
          run: () => {
            ran = true;
          },
        });
      }),
    ]);
    await bus.fire("post_tool_call", { ...toolCall, result: { id: 7 }, durationMs: 1 });
    expect(ran).toBe(true);
    expect(events).toEqual([]);
  });
});

describe("governance_denied", () => {
  test("is recorded for a PolicyViolation with hook, plugin, contract_id, reason and details, and the chain stops", async () => {
    const seen: string[] = [];
    const { bus, events } = await busOver([
      hookPlugin("budgets", (host) => {
        host.addHook({
          name: "budget",
          build: () => ({
            pre_llm_call: () => {
              throw new PolicyViolation("budget", "Token ceiling exceeded", { remaining: 0, requested: 500 });
            },
          }),
        });
        host.addHook({ name: "after", build: () => ({ pre_llm_call: () => void seen.push("after") }) });
      }),
    ]);
    const outcome = await bus.fire("pre_llm_call", {
      step: 1,
      model: "test:x",
      messages: [],
      tools: [],
      settings: {},
    });
    expect(outcome).toMatchObject({
      ok: false,
      denied: true,
      error: { code: "POLICY_VIOLATION", contractId: "budget" },
    });
    expect(seen).toEqual([]);
    expect(events).toEqual([
      {
        kind: "governance_denied",
        data: {
          hook: "pre_llm_call",
          plugin: "budgets",
          contract_id: "budget",
          reason: "Token ceiling exceeded",
          details: { remaining: 0, requested: 500 },
          handler: "budget",
        },
      },
    ]);
  });

  test("tells a PolicyViolation from another copy of the SDK by its code", async () => {
    const foreign = Object.assign(new Error("rate_limit refused: Rate limit exceeded: 1/min"), {
      code: "POLICY_VIOLATION",
      contractId: "rate_limit",
      reason: "Rate limit exceeded: 1/min",
      details: { current_count: 1 },
    });
    const { bus, events } = await busOver([
      hookPlugin("limits", (host) => {
        host.addBeforeToolCall({
          name: "limit",
          run: () => {
            throw foreign;
          },
        });
      }),
    ]);
    expect((await bus.fire("pre_tool_call", toolCall)).ok).toBe(false);
    expect(events[0]).toMatchObject({ kind: "governance_denied", data: { contract_id: "rate_limit" } });
  });
});

describe("hook_error", () => {
  test("is recorded for any other error, and an optional handler's chain goes on", async () => {
    const seen: string[] = [];
    const { bus, events } = await busOver([
      hookPlugin("flaky", (host) => {
        host.addBeforeToolCall({
          name: "broken",
          run: () => {
            throw new Error("Connection refused");
          },
        });
        host.addBeforeToolCall({ name: "next", order: 1, run: () => void seen.push("next") });
      }),
    ]);
    const outcome = await bus.fire("pre_tool_call", toolCall);
    expect(outcome.ok).toBe(true);
    expect(seen).toEqual(["next"]);
    expect(events).toEqual([
      {
        kind: "hook_error",
        data: {
          hook: "pre_tool_call",
          plugin: "flaky",
          error: "Connection refused",
          handler: "broken",
          required: false,
        },
      },
    ]);
  });

  test("governance_checked is recorded only when no blocking handler raised", async () => {
    const { bus, events } = await busOver([
      hookPlugin("flaky", (host) => {
        host.addBeforeToolCall({
          name: "broken",
          run: () => {
            throw new Error("Connection refused");
          },
        });
        host.addBeforeToolCall({ name: "fine", order: 1, run: () => undefined });
      }),
    ]);
    expect((await bus.fire("pre_tool_call", toolCall)).ok).toBe(true);
    expect(events.map((entry) => entry.kind)).toEqual(["hook_error"]);
  });

  test("of a required handler fails the action with HOOK_FAILED", async () => {
    const { bus, events } = await busOver([
      hookPlugin("strict", (host) => {
        host.addBeforeRun({
          name: "guard",
          required: true,
          run: () => {
            throw new Error("the guard's database is down");
          },
        });
      }),
    ]);
    const outcome = await bus.fire("pre_execution", { kind: "agent", target: "helpdesk/triage", input: "x" });
    expect(outcome).toMatchObject({ ok: false, denied: false, error: { code: "HOOK_FAILED" } });
    if (!outcome.ok) {
      expect(outcome.error.message).toContain(
        "handler guard of plugin strict failed (the guard's database is down)",
      );
    }
    expect(events.map((entry) => entry.kind)).toEqual(["hook_error"]);
    expect(events[0]?.data).toMatchObject({ required: true });
  });

  test("is recorded for a PolicyViolation on a non-blocking hook point, which cannot refuse", async () => {
    const { bus, events } = await busOver([
      hookPlugin("late", (host) => {
        host.addAfterToolResult({
          name: "too-late",
          run: () => {
            throw new PolicyViolation("budget", "too late");
          },
        });
      }),
    ]);
    const outcome = await bus.fire("post_tool_call", { ...toolCall, result: 1, durationMs: 1 });
    expect(outcome.ok).toBe(true);
    expect(events[0]).toMatchObject({ kind: "hook_error", data: { hook: "post_tool_call" } });
    expect(events[0]?.data).toMatchObject({
      error: expect.stringContaining("not a blocking hook and cannot refuse"),
    });
  });

  test("tells on_error which hook and plugin failed", async () => {
    const heard: unknown[] = [];
    const { bus } = await busOver([
      hookPlugin("flaky", (host) => {
        host.addBeforeToolCall({
          name: "broken",
          run: () => {
            throw new Error("boom");
          },
        });
        host.addHook({
          name: "listener",
          build: () => ({ on_error: (payload) => void heard.push(payload) }),
        });
      }),
    ]);
    await bus.fire("pre_tool_call", toolCall);
    expect(heard).toEqual([
      expect.objectContaining({
        hook: "on_error",
        error: { code: "INTERNAL", message: "boom" },
        where: "pre_tool_call",
        plugin: "flaky",
      }),
    ]);
  });
});

describe("modifying hook points", () => {
  test("pass each handler's changes to the next handler and to the caller", async () => {
    const seen: unknown[] = [];
    const { bus } = await busOver([
      hookPlugin("rewriter", (host) => {
        host.addBeforeToolCall({ name: "one", run: (payload) => ({ args: { ...payload.args, limit: 10 } }) });
        host.addBeforeToolCall({
          name: "two",
          order: 1,
          run: (payload) => {
            seen.push(payload.args);
            return { args: { ...payload.args, id: 8 } };
          },
        });
      }),
    ]);
    const outcome = await bus.fire("pre_tool_call", toolCall);
    expect(seen).toEqual([{ id: 7, limit: 10 }]);
    expect(outcome).toMatchObject({ ok: true, changed: true, payload: { args: { id: 8, limit: 10 } } });
  });

  test("ignore the fields a handler may not change", async () => {
    const { bus } = await busOver([
      hookPlugin("sneaky", (host) => {
        host.addBeforeToolCall({
          name: "swap",
          run: () => ({ address: "other/tool.fn", tenant: "other" }) as never,
        });
      }),
    ]);
    const outcome = await bus.fire("pre_tool_call", toolCall);
    expect(outcome).toMatchObject({
      ok: true,
      changed: false,
      payload: { address: toolCall.address, tenant: "default" },
    });
  });

  test("a non-modifying hook point keeps its payload whatever handlers return", async () => {
    const { bus } = await busOver([
      hookPlugin("noisy", (host) => {
        host.addHook({ name: "noisy", build: () => ({ collect_tools: () => ({ tools: [] }) as never }) });
      }),
    ]);
    const tools = [
      { name: "tickets__lookup", address: "helpdesk/tickets.lookup", description: "d", inputSchema: {} },
    ];
    const outcome = await bus.fire("collect_tools", { tools });
    expect(outcome).toMatchObject({ ok: true, changed: false, payload: { tools } });
  });
});

describe("registration", () => {
  test("a governance contract's on_<hook> methods handle the hooks of those names (host.addContract)", async () => {
    class QuotaGovernance extends GovernanceContract {
      static readonly contractId: string = "quota";
      on_pre_llm_call(payload: HookPayload<"pre_llm_call">): void {
        if (payload.step > 1) throw new PolicyViolation("quota", "one call only", { step: payload.step });
      }
    }
    plugin(QuotaGovernance);
    const { bus, events } = await busOver([
      hookPlugin("quotas", (host) => void host.addContract(QuotaGovernance)),
    ]);
    const call = { model: "test:x", messages: [], tools: [], settings: {} };
    expect((await bus.fire("pre_llm_call", { ...call, step: 1 })).ok).toBe(true);
    expect((await bus.fire("pre_llm_call", { ...call, step: 2 })).ok).toBe(false);
    expect(events).toEqual([
      { kind: "governance_checked", data: { hook: "pre_llm_call", checks_passed: 1, outcome: "allowed" } },
      {
        kind: "governance_denied",
        data: {
          hook: "pre_llm_call",
          plugin: "quotas",
          contract_id: "quota",
          reason: "one call only",
          details: { step: 2 },
          handler: "quota_governance",
        },
      },
    ]);
  });

  test("a hook spec's build gets the plugin's config in the tenant", async () => {
    const { bus, events } = await busOver([
      hookPlugin(
        "configured",
        (host) => {
          host.addHook({
            name: "cap",
            build: (ctx) => ({
              pre_tool_call: (payload) => {
                if ((payload.args.id as number) > (ctx.config.maxId as number)) {
                  throw new PolicyViolation("cap", `ids up to ${String(ctx.config.maxId)}`);
                }
              },
            }),
          });
        },
        { maxId: 5 },
      ),
    ]);
    expect((await bus.fire("pre_tool_call", toolCall)).ok).toBe(false);
    expect(events[0]).toMatchObject({ kind: "governance_denied", data: { reason: "ids up to 5" } });
  });

  test("a disabled registration's handlers do not run, unless it is required", async () => {
    const seen: string[] = [];
    const { bus } = await busOver([
      hookPlugin("toggles", (host) => {
        host.addBeforeToolCall({ name: "off", run: () => void seen.push("off") }).disable();
        host.addBeforeToolCall({ name: "core", required: true, run: () => void seen.push("core") }).disable();
      }),
    ]);
    await bus.fire("pre_tool_call", toolCall);
    expect(seen).toEqual(["core"]);
  });

  test("a hook spec whose build fails is left out, its handlers never run", async () => {
    const { table } = await busOver([
      hookPlugin("broken", (host) => {
        host.addHook({
          name: "bad",
          build: () => {
            throw new Error("no config");
          },
        });
      }),
    ]);
    expect(table.size).toBe(0);
    expect(table.broken).toEqual([
      { plugin: "broken", handler: "bad", error: expect.stringContaining("its build(ctx) failed") },
    ]);
  });
});
