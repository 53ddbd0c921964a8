import { ERROR_CODES, type FunctionCall, Oz0Error, PolicyViolation } from "@oz0/sdk";
import { testCall } from "@oz0/sdk/testing";
import { describe, expect, it } from "vitest";
import {
  type CallableFunction,
  type CallOutcome,
  dispatchCall,
  OUTSIDE_CALL,
  prepareCall,
} from "../../src/tools/index.js";

function fn(run: CallableFunction["run"]): CallableFunction {
  return {
    address: "helpdesk/tickets.lookup",
    plugin: "helpdesk",
    tool: "tickets",
    function: "lookup",
    modelName: "tickets__lookup",
    description: "Look a ticket up by id.",
    inputSchema: {
      type: "object",
      properties: { id: { type: "integer" } },
      required: ["id"],
      additionalProperties: false,
    },
    run,
  };
}

describe("the dispatch path", () => {
  it("calls the function with its arguments and a FunctionCall carrying the idempotency key", async () => {
    const seen: { args: unknown; call: FunctionCall }[] = [];
    const call = testCall({ idempotencyKey: "triage-1:1.1", address: "helpdesk/tickets.lookup" });
    const outcome = await dispatchCall(
      fn(async (args, given) => {
        seen.push({ args, call: given });
        return { id: args.id };
      }),
      { id: 7 },
      call,
      { context: OUTSIDE_CALL },
    );
    expect(outcome).toMatchObject({ ok: true, result: { id: 7 } });
    expect(seen).toEqual([{ args: { id: 7 }, call }]);
    expect(seen[0]?.call.idempotencyKey).toBe("triage-1:1.1");
  });

  it("refuses arguments that do not match the schema without calling the function, saying what is wrong", async () => {
    let ran = false;
    const outcome = await dispatchCall(
      fn(async () => (ran = true)),
      { ticket: 7 },
      testCall(),
      { context: OUTSIDE_CALL },
    );
    expect(ran).toBe(false);
    expect(outcome.ok).toBe(false);
    const error = (outcome as Extract<CallOutcome, { ok: false }>).error;
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.issues).toEqual([
      { path: "", message: "must have required property 'id'" },
      { path: "", message: "must NOT have additional properties" },
    ]);
    expect(error.message).toBe(
      "arguments for tickets__lookup do not match its input schema: (arguments): must have required property 'id'; (arguments): must NOT have additional properties",
    );
  });

  it("refuses arguments that are not an object", async () => {
    const outcome = await dispatchCall(
      fn(async () => 1),
      [7],
      testCall(),
      { context: OUTSIDE_CALL },
    );
    expect(outcome).toMatchObject({ ok: false, error: { code: "INVALID_INPUT" } });
  });

  it("reports a tool's ordinary throw as the tool's failure (TOOL_FAILED, user side), not a platform fault", async () => {
    const outcome = await dispatchCall(
      fn(async () => {
        throw new TypeError("no ticket with id 99");
      }),
      { id: 99 },
      testCall(),
      { context: OUTSIDE_CALL },
    );
    expect(outcome).toEqual({
      ok: false,
      error: { code: "TOOL_FAILED", message: "no ticket with id 99" },
      ms: expect.any(Number),
    });
    expect(ERROR_CODES.TOOL_FAILED.side).toBe("user");
  });

  it("keeps the code of an Oz0Error a tool throws, also from a plugin's own copy of the SDK", async () => {
    class CopiedOz0Error extends Error {
      readonly code = "NOT_FOUND";
      override readonly name = "Oz0Error";
    }
    const outcome = await dispatchCall(
      fn(async () => {
        throw new CopiedOz0Error("no ticket with id 99");
      }),
      { id: 99 },
      testCall(),
      { context: OUTSIDE_CALL },
    );
    expect(outcome).toMatchObject({
      ok: false,
      error: { code: "NOT_FOUND", message: "no ticket with id 99" },
    });
  });

  it("records the call before it runs and its outcome after", async () => {
    const order: string[] = [];
    await dispatchCall(
      fn(async () => {
        order.push("run");
        return "ok";
      }),
      { id: 7 },
      testCall(),
      {
        context: OUTSIDE_CALL,
        recorder: {
          started: async (_fn, args) => void order.push(`started ${JSON.stringify(args)}`),
          finished: async (_fn, outcome) => void order.push(`finished ${outcome.ok}`),
        },
      },
    );
    expect(order).toEqual(['started {"id":7}', "run", "finished true"]);
  });

  it("records the arguments a call runs with, after an interceptor changed them, and who changed them", async () => {
    const started: unknown[] = [];
    const by = [{ plugin: "guard", handler: "clamp" }];
    await dispatchCall(
      fn(async (args) => args),
      { id: 7 },
      testCall(),
      {
        context: OUTSIDE_CALL,
        interceptors: [{ name: "rewrite", before: async () => ({ args: { id: 8 }, by }) }],
        recorder: { started: async (_fn, args, _call, changedBy) => void started.push({ args, changedBy }) },
      },
    );
    expect(started).toEqual([{ args: { id: 8 }, changedBy: by }]);
  });

  it("records a refused call too, so the model's attempt is in the history", async () => {
    const order: string[] = [];
    await dispatchCall(
      fn(async () => "never"),
      {},
      testCall(),
      {
        context: OUTSIDE_CALL,
        recorder: {
          started: async () => void order.push("started"),
          finished: async (_fn, outcome) => void order.push(`finished ${outcome.ok}`),
        },
      },
    );
    expect(order).toEqual(["started", "finished false"]);
  });

  it("lets an interceptor refuse a call with a PolicyViolation, which the function never sees", async () => {
    let ran = false;
    const outcome = await dispatchCall(
      fn(async () => (ran = true)),
      { id: 7 },
      testCall(),
      {
        context: OUTSIDE_CALL,
        interceptors: [
          {
            name: "policy",
            before: async () => {
              throw new PolicyViolation("tool_policy", "helpdesk/tickets.lookup is denied");
            },
          },
        ],
      },
    );
    expect(ran).toBe(false);
    expect(outcome).toMatchObject({ ok: false, error: { code: "POLICY_VIOLATION" } });
  });

  it("checks arguments an interceptor changed against the schema again", async () => {
    const outcome = await dispatchCall(
      fn(async (args) => args),
      { id: 7 },
      testCall(),
      {
        context: OUTSIDE_CALL,
        interceptors: [{ name: "rewrite", before: async () => ({ args: { id: "seven" }, by: [] }) }],
      },
    );
    expect(outcome).toMatchObject({ ok: false, error: { code: "INVALID_INPUT" } });
    const rewritten = await dispatchCall(
      fn(async (args) => args),
      { id: 7 },
      testCall(),
      {
        context: OUTSIDE_CALL,
        interceptors: [{ name: "rewrite", before: async () => ({ args: { id: 8 }, by: [] }) }],
      },
    );
    expect(rewritten).toMatchObject({ ok: true, result: { id: 8 } });
  });

  it("lets an interceptor replace the outcome after the call", async () => {
    const outcome = await dispatchCall(
      fn(async () => ({ secret: "s3cr3t" })),
      { id: 7 },
      testCall(),
      {
        context: OUTSIDE_CALL,
        interceptors: [
          { name: "redact", after: async () => ({ ok: true, result: { secret: "***" }, ms: 0 }) },
        ],
      },
    );
    expect(outcome).toMatchObject({ ok: true, result: { secret: "***" } });
  });

  it("gives back JSON: undefined becomes null, and a value JSON cannot hold fails the call", async () => {
    expect(
      await dispatchCall(
        fn(async () => undefined),
        { id: 7 },
        testCall(),
        { context: OUTSIDE_CALL },
      ),
    ).toMatchObject({ ok: true, result: null });
    expect(
      await dispatchCall(
        fn(async () => ({ at: new Date(0) })),
        { id: 7 },
        testCall(),
        { context: OUTSIDE_CALL },
      ),
    ).toMatchObject({
      ok: true,
      result: { at: "1970-01-01T00:00:00.000Z" },
    });
    const outcome = await dispatchCall(
      fn(async () => ({ big: 1n })),
      { id: 7 },
      testCall(),
      { context: OUTSIDE_CALL },
    );
    expect(outcome).toMatchObject({ ok: false });
    expect((outcome as Extract<CallOutcome, { ok: false }>).error.message).toContain(
      "returned a value that is not JSON",
    );
  });

  it("does not start a call whose signal is already aborted", async () => {
    const controller = new AbortController();
    controller.abort(new Oz0Error("INTERNAL", "the job was cancelled"));
    let ran = false;
    const outcome = await dispatchCall(
      fn(async () => (ran = true)),
      { id: 7 },
      testCall({ signal: controller.signal }),
      { context: OUTSIDE_CALL },
    );
    expect(ran).toBe(false);
    expect(outcome).toMatchObject({ ok: false, error: { message: "the job was cancelled" } });
  });

  it("prepares a call with the same checks without running it", async () => {
    expect(
      await prepareCall(
        fn(async () => 1),
        { id: 7 },
        testCall(),
        OUTSIDE_CALL,
      ),
    ).toMatchObject({ ok: true, request: { args: { id: 7 } } });
    expect(
      await prepareCall(
        fn(async () => 1),
        { id: "x" },
        testCall(),
        OUTSIDE_CALL,
      ),
    ).toMatchObject({
      ok: false,
      error: { code: "INVALID_INPUT" },
    });
  });
});
