import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { homeWithPlugins, LAB } from "./jobs-helpers.js";
import { oz0 } from "./run-cli.js";

let home: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ home, cleanup } = await homeWithPlugins());
});
afterAll(() => cleanup());

const run = (args: string[], lab = false) =>
  oz0([...args, "--home", home, ...(lab ? ["--tenant", LAB] : [])]);

describe("oz0 tool call", () => {
  it("calls a function by its address and prints its result", async () => {
    const result = await run(["tool", "call", "support-triage/tickets.lookup", "--args", '{"id": 8}']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      id: 8,
      subject: "App crashes when I upload a photo",
      queue: null,
    });
  });

  it("reports the call with --json, with the name a model sees and its idempotency key", async () => {
    const result = await run([
      "tool",
      "call",
      "support-triage/tickets.lookup",
      "--args",
      '{"id": 7}',
      "--json",
    ]);
    expect(result.json()).toMatchObject({
      address: "support-triage/tickets.lookup",
      modelName: "tickets__lookup",
      ok: true,
      result: { id: 7 },
      idempotencyKey: expect.stringMatching(/^manual:/),
    });
  });

  it("checks the arguments against the function's schema on the same path as jobs", async () => {
    const result = await run(["tool", "call", "support-triage/tickets.lookup", "--args", '{"id": "seven"}']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      "oz0: support-triage/tickets.lookup: INVALID_INPUT: arguments for tickets__lookup do not match its input schema: id: must be integer\n",
    );
  });

  it("reports a function's ordinary throw as the tool's failure (TOOL_FAILED), with exit code 1", async () => {
    const args = ["tool", "call", "support-triage/tickets.lookup", "--args", '{"id": 99}'];
    const result = await run([...args, "--json"]);
    expect(result.code).toBe(1);
    expect(result.json()).toMatchObject({
      ok: false,
      error: { code: "TOOL_FAILED", message: "no ticket with id 99" },
    });
    const text = await run(args);
    expect(text.code).toBe(1);
    expect(text.stderr).toBe("oz0: support-triage/tickets.lookup: TOOL_FAILED: no ticket with id 99\n");
  });

  it("refuses an address whose plugin does not own the tool, naming the owner", async () => {
    const result = await run(["tool", "call", "clash-a/tickets.lookup", "--args", '{"id": 7}'], true);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      "oz0: clash-a/tickets.lookup is not a function of clash-a: tickets.lookup is helpdesk's\n",
    );
  });

  it("refuses a built-in, which only an agent in a job calls", async () => {
    const result = await run(["tool", "call", "oz.fail", "--args", "{}"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("oz.fail is a built-in that acts on the job calling it");
  });

  it("refuses --args that are not JSON", async () => {
    const result = await run(["tool", "call", "support-triage/tickets.lookup", "--args", "{id: 7}"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^oz0: --args is not JSON/);
  });
});
