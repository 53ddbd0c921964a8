// The agent loop: the tools a model sees, bad calls going back to it, built-ins, limits, the
// test provider's contract, and what each step records.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LanguageModel } from "../../src/models/index.js";
import { type Harness, harness, kinds, ofKind, scripted, TENANT, using } from "./helpers.js";

let h: Harness;
beforeAll(async () => {
  h = await harness(["helpdesk", "clash-a"]);
});
afterAll(() => h.close());

describe("the tools a model sees", () => {
  it("offers the agent's functions under their model-visible names, bare in its own plugin", async () => {
    const { events } = await h.run("helpdesk/triage", "ticket 7");
    const [assembled] = ofKind(events, "context_assembled");
    expect(assembled?.data.functions).toEqual(["tickets__lookup", "tickets__assign", "oz__skill"]);
    expect(ofKind(events, "tool_call").map((entry) => entry.data.address)).toEqual([
      "helpdesk/tickets.lookup",
      "helpdesk/tickets.assign",
    ]);
  });

  it("leaves out a function whose model-visible name is over 64 characters, saying which", async () => {
    const { job, events } = await h.run("helpdesk/longnames", "go");
    expect(job.status).toBe("succeeded");
    const [left] = ofKind(events, "function_left_out");
    expect(left?.data).toEqual({
      name: "a_rather_long_tool_identifier_for_tests__a_function_with_a_long_name_too",
      address: "helpdesk/a_rather_long_tool_identifier_for_tests.a_function_with_a_long_name_too",
      reason:
        "a model would see it as a_rather_long_tool_identifier_for_tests__a_function_with_a_long_name_too, 72 characters; a node offers no function whose name is over 64, whatever the provider",
      length: 72,
      limit: 64,
    });
    expect(ofKind(events, "context_assembled")[0]?.data.functions).toEqual(["tickets__lookup"]);
  });

  it("fails a job at its start with ToolClash, in the one text the catalog gives a tool clash too", async () => {
    const clash = await harness(["clash-a", "clash-b"]);
    try {
      const { job, events } = await clash.run("clash-a/pinger", "ping");
      expect(job.status).toBe("failed");
      expect(job.failure).toEqual({
        kind: "tool_clash",
        code: "TOOL_CLASH",
        message:
          "plugins clash-a and clash-b each define the tool shared, so neither runs. Remove one of the plugins, or update one to a version whose tool has another ID.",
      });
      expect(kinds(events)).not.toContain("model_call");
    } finally {
      await clash.close();
    }
  });
});

describe("function calls", () => {
  it("sends a call whose arguments do not match back to the model as an error it can correct", async () => {
    const { job, events } = await h.run("helpdesk/fixer", "ticket 7");
    expect(job).toMatchObject({ status: "succeeded", output: "found it" });
    const results = ofKind(events, "tool_result");
    expect(results[0]?.data).toMatchObject({
      ok: false,
      error: { code: "INVALID_INPUT", issues: [{ path: "", message: "must have required property 'id'" }] },
    });
    expect(results[1]?.data).toMatchObject({ ok: true, result: { id: 7 } });
  });

  it("tells the model a tool's ordinary throw as the tool's failure (TOOL_FAILED), not a platform fault", async () => {
    const { job, events } = await h.run("helpdesk/triage", "ticket 99", {
      models: scripted([{ call: { function: "tickets__lookup", args: { id: 99 } } }, { text: "none" }]),
    });
    expect(job.status).toBe("succeeded");
    expect(ofKind(events, "tool_result")[0]?.data).toMatchObject({
      ok: false,
      error: { code: "TOOL_FAILED", message: "no ticket with id 99" },
    });
  });

  it("sends a call of a function the agent does not have back to the model", async () => {
    const { job, events } = await h.run("helpdesk/triage", "ticket 7", {
      models: scripted([{ call: { function: "tickets__close", args: { id: 7 } } }, { text: "ok" }]),
    });
    expect(job.status).toBe("succeeded");
    expect(ofKind(events, "tool_result")[0]?.data.error?.message).toBe(
      "there is no function tickets__close; the functions you may call: tickets__lookup, tickets__assign, oz__skill",
    );
  });

  it("gives each call an idempotency key of the job and the call", async () => {
    const { job, events } = await h.run("helpdesk/counter", "count");
    expect(ofKind(events, "tool_call").map((entry) => entry.data.key)).toEqual([
      `${job.id}:1.1`,
      `${job.id}:2.1`,
      `${job.id}:3.1`,
    ]);
    const results = ofKind(events, "tool_result").map((entry) => entry.data.result);
    expect(results).toEqual([{ written: "one" }, { written: "two" }, { written: "three" }]);
  });

  it("reads a skill's body with oz.skill", async () => {
    const { events } = await h.run("helpdesk/triage", "ticket 7", {
      models: scripted([{ call: { function: "oz__skill", args: { name: "escalation" } } }, { text: "ok" }]),
    });
    expect(ofKind(events, "tool_result")[0]?.data.result).toEqual({
      name: "escalation",
      body: "Escalate when the customer mentions a legal matter or a security incident.\n",
    });
  });
});

describe("oz.fail", () => {
  it("ends the job with a failure kind the agent declares", async () => {
    const { job, events } = await h.run("helpdesk/quitter", "ticket 99");
    expect(job).toMatchObject({
      status: "failed",
      failure: { kind: "no_such_ticket", message: "ticket 99 does not exist" },
    });
    expect(kinds(events).slice(-2)).toEqual(["tool_call", "job_failed"]);
  });

  it("ends the job as undeclared for a kind the agent does not declare", async () => {
    const { job } = await h.run("helpdesk/auto", "x", {
      models: scripted([{ call: { function: "oz__fail", args: { kind: "gave_up", message: "too hard" } } }]),
    });
    expect(job.failure).toEqual({
      kind: "undeclared",
      message: "too hard (the agent failed with kind gave_up, which it does not declare)",
      retryable: false,
      partial: false,
      person: false,
    });
  });
});

describe("limits", () => {
  it("fails a job that reaches limits.max_turns with max_turns", async () => {
    const { job, events } = await h.run("helpdesk/looper", "ticket 7");
    expect(job.failure).toEqual({
      kind: "max_turns",
      message: "the job made 2 model calls, the most limits.max_turns (2) allows, without an answer",
    });
    expect(ofKind(events, "model_call")).toHaveLength(2);
  });

  it("fails a job whose model calls used limits.max_tokens with token_limit", async () => {
    const greedy: LanguageModel = {
      id: "test:greedy",
      generate: async () => ({
        calls: [{ name: "tickets__lookup", args: { id: 7 } }],
        usage: { inputTokens: 400_000, outputTokens: 100_000 },
      }),
    };
    const { job, events } = await h.run("helpdesk/triage", "ticket 7", { models: async () => greedy });
    expect(job.failure?.kind).toBe("token_limit");
    expect(ofKind(events, "model_call")).toHaveLength(1);
  });

  it("fails a job past limits.wall_seconds with timeout", async () => {
    const engine = h.engine();
    const started = await engine.start({ tenant: TENANT, agent: "helpdesk/triage", input: "ticket 7" });
    await h.store.db.updateTable("jobs").set({ created_at: 0 }).where("id", "=", started.id).execute();
    const job = await engine.run(started.id, { tenant: TENANT });
    expect(job.failure).toMatchObject({ kind: "timeout" });
    expect(job.failure?.message).toContain("limits.wall_seconds (3600 s)");
  });

  it("stops a call in flight when the wall time runs out", async () => {
    const engine = h.engine({
      models: using({
        id: "test:slow",
        generate: (request) =>
          new Promise((_, reject) =>
            request.signal.addEventListener("abort", () => reject(request.signal.reason)),
          ),
      }),
    });
    const started = await engine.start({ tenant: TENANT, agent: "helpdesk/triage", input: "ticket 7" });
    const now = await h.store.now();
    // 3600 s of wall time, of which all but 300 ms have passed.
    await h.store.db
      .updateTable("jobs")
      .set({ created_at: now - 3_599_700 })
      .where("id", "=", started.id)
      .execute();
    const job = await engine.run(started.id, { tenant: TENANT });
    expect(job.failure?.kind).toBe("timeout");
  });
});

describe("the test provider in a job", () => {
  it("runs an unscripted agent: each function once with arguments from its schema, then a text answer", async () => {
    const { job, events } = await h.run("helpdesk/auto", "anything");
    expect(job).toMatchObject({
      status: "succeeded",
      output: "Done: called tickets__lookup, tickets__assign (the offline test model).",
    });
    expect(ofKind(events, "model_call")[0]?.data.calls).toEqual([
      { id: "1.1", name: "tickets__lookup", args: { id: 1 } },
    ]);
  });

  it("fails the job clearly on an unplanned model call", async () => {
    const { job } = await h.run("helpdesk/short", "ticket 7");
    expect(job.failure).toEqual({
      kind: "unplanned_model_call",
      code: "UNPLANNED_MODEL_CALL",
      message:
        "the test model's script scripts/short.yaml plans 1 turn, and the job asked for model call 2. Add the turn the job needs to scripts/short.yaml, or end the script with text: or output:.",
    });
  });

  it("reports the turns a job left unused", async () => {
    const { job, events } = await h.run("helpdesk/early", "go");
    expect(job.output).toBe("done early");
    expect(ofKind(events, "model_warning").map((entry) => entry.data.message)).toEqual([
      "the test model's script scripts/early.yaml left turns 2–3 of 3 unused: the job ended after 1 model call",
    ]);
  });

  it("runs an agent of the default alias on the test provider when no model is configured", async () => {
    const { events } = await h.run("helpdesk/auto", "x");
    expect(ofKind(events, "model_call")[0]?.data.model).toBe("test:auto");
  });

  it("fails a job whose alias nobody set with model_error", async () => {
    const { job } = await h.run("helpdesk/fast", "x");
    expect(job.failure).toMatchObject({ kind: "model_error", code: "MODEL_NOT_CONFIGURED" });
  });
});

describe("input and output schemas", () => {
  it("fails a job whose input does not match input_schema with invalid_input before the agent starts", async () => {
    const { job, events } = await h.run("helpdesk/typed", { ticket: "seven" });
    expect(job.failure).toEqual({
      kind: "invalid_input",
      code: "INVALID_INPUT",
      message:
        "the input does not match helpdesk/typed's input_schema schemas/in.json: ticket: must be integer",
    });
    expect(kinds(events)).toEqual(["job_started", "job_claimed", "job_failed"]);
  });

  it("runs a job whose structured input matches", async () => {
    const { job, events } = await h.run("helpdesk/typed", { ticket: 7 });
    expect(job.status).toBe("succeeded");
    expect(ofKind(events, "job_started")[0]?.data.input).toEqual({ ticket: 7 });
  });

  it("refuses structured input for an agent that takes text", async () => {
    const { job } = await h.run("helpdesk/triage", { ticket: 7 });
    expect(job.failure?.kind).toBe("invalid_input");
  });

  it("sends a structured answer that does not match output_schema back to the model", async () => {
    const { job, events } = await h.run("helpdesk/structured", "ticket 7");
    expect(job).toMatchObject({ status: "succeeded", output: { queue: "billing", confidence: 0.9 } });
    expect(ofKind(events, "output_rejected")[0]?.data).toEqual({
      step: 1,
      problems: "queue: must be equal to one of the allowed values",
    });
  });

  it("fails with invalid_output when the answer still does not match after two retries", async () => {
    const wrong = { output: { queue: "nowhere" } };
    const { job, events } = await h.run("helpdesk/structured", "ticket 7", {
      models: scripted([wrong, wrong, wrong]),
    });
    expect(job.failure?.kind).toBe("invalid_output");
    expect(ofKind(events, "output_rejected")).toHaveLength(2);
  });
});

describe("history", () => {
  it("records what each step adds, never the conversation again, so it grows linearly", async () => {
    const steps = (count: number): LanguageModel => ({
      id: "test:steps",
      generate: async (request) =>
        request.step > count
          ? { calls: [], text: "done", usage: { inputTokens: 1, outputTokens: 1 } }
          : {
              calls: [{ name: "tickets__lookup", args: { id: 7 } }],
              usage: { inputTokens: 1, outputTokens: 1 },
            },
    });
    const sizes = async (count: number) => {
      const { events } = await h.run("helpdesk/triage", "ticket 7", { models: using(steps(count)) });
      const modelCalls = ofKind(events, "model_call").map((entry) => JSON.stringify(entry.data).length);
      const total = events.reduce((sum, entry) => sum + JSON.stringify(entry.data).length, 0);
      return { modelCalls, total };
    };
    const short = await sizes(5);
    const long = await sizes(50);
    // The 50th model call records no more than the 2nd did (step numbers aside).
    expect(Math.max(...long.modelCalls) - Math.min(...long.modelCalls)).toBeLessThan(10);
    // Ten times the steps, about ten times the bytes (the start-up context is once per job).
    const perStepShort = short.total / 5;
    const perStepLong = long.total / 50;
    expect(perStepLong).toBeLessThan(perStepShort);
    expect(long.total).toBeLessThan(short.total * 10);
  });
});
