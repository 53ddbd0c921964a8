import { isOz0Error } from "@oz0/sdk";
import { describe, expect, it } from "vitest";
import {
  type ModelFunction,
  type ModelMessage,
  type ModelRequest,
  parseTestScript,
  testModel,
} from "../../src/models/index.js";
import { keptTestScript } from "../../src/models/test-provider.js";

const lookup: ModelFunction = {
  name: "tickets__lookup",
  description: "Look a ticket up by id.",
  inputSchema: { type: "object", properties: { id: { type: "integer" } }, required: ["id"] },
};
const assign: ModelFunction = {
  name: "tickets__assign",
  description: "Put a ticket in a queue.",
  inputSchema: {
    type: "object",
    properties: { id: { type: "integer" }, queue: { enum: ["billing", "bugs"] } },
    required: ["id", "queue"],
  },
};
const fail: ModelFunction = {
  name: "oz__fail",
  description: "End the job.",
  inputSchema: { type: "object", properties: { kind: { type: "string" } }, required: ["kind"] },
};

function request(step: number, overrides: Partial<ModelRequest> = {}): ModelRequest {
  const messages: ModelMessage[] = [
    { role: "system", content: "You sort tickets." },
    { role: "user", content: "ticket 7" },
  ];
  return {
    step,
    messages,
    functions: [lookup, assign, fail],
    estimatedInputTokens: 12,
    signal: new AbortController().signal,
    ...overrides,
  };
}

const SCRIPT = `turns:
  - call: { function: tickets__lookup, args: { id: 7 } }   # the model-visible name
  - text: "billing"                                         # a final text answer
  - output: { queue: billing, confidence: 0.9 }             # a structured answer
`;

describe("test provider scripts", () => {
  it("reads the turns of the design's example script", () => {
    expect(parseTestScript(SCRIPT, "scripts/x.yaml")).toEqual({
      file: "scripts/x.yaml",
      turns: [
        { call: { function: "tickets__lookup", args: { id: 7 } } },
        { text: "billing" },
        { output: { queue: "billing", confidence: 0.9 } },
      ],
    });
  });

  it("gives a call without args empty arguments", () => {
    expect(parseTestScript("turns:\n  - call: { function: clock__now }\n", "s.yaml").turns).toEqual([
      { call: { function: "clock__now", args: {} } },
    ]);
  });

  it("refuses a turn that is none or several of call, text and output, with the line of each", () => {
    const text = "turns:\n  - text: a\n    output: b\n  - say: hello\n  - call: { args: {} }\n";
    try {
      parseTestScript(text, "scripts/bad.yaml");
      expect.unreachable();
    } catch (error) {
      expect(isOz0Error(error, "INVALID_MANIFEST")).toBe(true);
      const issues = (error as { data: { issues: { line: number; message: string }[] } }).data.issues;
      expect(issues.map((issue) => issue.line)).toEqual([2, 4, 5]);
      expect((error as Error).message).toContain("scripts/bad.yaml:4:5: turns[1].say: unknown key 'say'");
    }
  });

  it("refuses a script without turns", () => {
    expect(() => parseTestScript("turns: []\n", "s.yaml")).toThrow(
      /turns: lists the model's replies in order/,
    );
    expect(() => parseTestScript("steps: []\n", "s.yaml")).toThrow(/unknown key 'steps'/);
  });
});

describe("a test script read for every job", () => {
  it("is parsed once per text, and kept frozen for every job that plays it", () => {
    const first = keptTestScript(SCRIPT, "scripts/kept.yaml");
    expect(keptTestScript(SCRIPT, "scripts/kept.yaml")).toBe(first);
    expect(first).toEqual(parseTestScript(SCRIPT, "scripts/kept.yaml"));
    expect(Object.isFrozen(first.turns[0])).toBe(true);
  });

  it("is parsed again once its text changes: an edit counts from the next job", () => {
    const before = keptTestScript(SCRIPT, "scripts/edited.yaml");
    const edited = keptTestScript('turns:\n  - text: "edited"\n', "scripts/edited.yaml");
    expect(edited).not.toBe(before);
    expect(edited.turns).toEqual([{ text: "edited" }]);
  });

  it("throws for a script with problems at every read, keeping nothing", () => {
    expect(() => keptTestScript("steps: []\n", "s.yaml")).toThrow(/unknown key 'steps'/);
    expect(() => keptTestScript("steps: []\n", "s.yaml")).toThrow(/unknown key 'steps'/);
  });
});

describe("the scripted test model", () => {
  const script = parseTestScript(SCRIPT, "scripts/x.yaml");

  it("plays the turns in order, one per model step", async () => {
    const model = testModel({ script });
    expect(await model.generate(request(1))).toMatchObject({
      calls: [{ name: "tickets__lookup", args: { id: 7 } }],
    });
    expect(await model.generate(request(2))).toMatchObject({ calls: [], text: "billing" });
    expect(await model.generate(request(3))).toMatchObject({
      calls: [],
      output: { queue: "billing", confidence: 0.9 },
    });
  });

  it("fails clearly on a model call its script does not plan", async () => {
    const model = testModel({ script });
    const error = await model.generate(request(4)).catch((thrown: unknown) => thrown);
    expect(isOz0Error(error, "UNPLANNED_MODEL_CALL")).toBe(true);
    expect((error as Error).message).toBe(
      "the test model's script scripts/x.yaml plans 3 turns, and the job asked for model call 4. " +
        "Add the turn the job needs to scripts/x.yaml, or end the script with text: or output:.",
    );
  });

  it("reports the turns a job left unused, and nothing when it played them all", () => {
    const model = testModel({ script });
    expect(model.finish?.(1)).toEqual([
      "the test model's script scripts/x.yaml left turns 2–3 of 3 unused: the job ended after 1 model call",
    ]);
    expect(model.finish?.(3)).toEqual([]);
  });

  it("streams a text answer as it comes", async () => {
    const pieces: string[] = [];
    const reply = await testModel({
      script: { file: "s", turns: [{ text: "sorted into billing" }] },
    }).generate(request(1, { onText: (delta) => pieces.push(delta) }));
    expect(pieces.join("")).toBe(reply.text);
    expect(pieces.length).toBeGreaterThan(1);
  });
});

describe("the unscripted test model", () => {
  it("calls each function it may call once, with arguments from its schema, then answers in text", async () => {
    const model = testModel();
    expect(model.id).toBe("test:auto");
    expect((await model.generate(request(1))).calls).toEqual([{ name: "tickets__lookup", args: { id: 1 } }]);
    expect((await model.generate(request(2))).calls).toEqual([
      { name: "tickets__assign", args: { id: 1, queue: "billing" } },
    ]);
    const answer = await model.generate(request(3));
    expect(answer.calls).toEqual([]);
    expect(answer.text).toBe("Done: called tickets__lookup, tickets__assign (the offline test model).");
  });

  it("never calls a built-in on its own", async () => {
    const model = testModel();
    const replies = await Promise.all([1, 2, 3, 4].map((step) => model.generate(request(step))));
    expect(replies.flatMap((reply) => reply.calls.map((call) => call.name))).not.toContain("oz__fail");
  });

  it("is deterministic", async () => {
    const first = await testModel().generate(request(2));
    const second = await testModel().generate(request(2));
    expect(second).toEqual(first);
  });

  it("answers in the output schema's structure for an agent with one", async () => {
    const answer = await testModel().generate(
      request(1, {
        functions: [],
        outputSchema: { type: "object", properties: { queue: { enum: ["billing"] } }, required: ["queue"] },
      }),
    );
    expect(answer).toMatchObject({ calls: [], output: { queue: "billing" } });
  });

  it("reports the estimated input tokens as usage", async () => {
    const answer = await testModel().generate(request(3));
    expect(answer.usage.inputTokens).toBe(12);
    expect(answer.usage.outputTokens).toBeGreaterThan(0);
  });
});
