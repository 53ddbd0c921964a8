// oz0's std library from the command line: installed by default in a new home and a new tenant
// (and removable for good), each of its functions called with `oz0 tool call`, and several of
// them called by an agent on the offline model (examples/std-tour).
import { realpath } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type { PluginSummary, ToolCallReport } from "@oz0/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { oz0, tempHome } from "./run-cli.js";

const STD = fileURLToPath(new URL("../../../plugins/std", import.meta.url));
const STD_TOUR = fileURLToPath(new URL("../../../examples/std-tour", import.meta.url));
const SUPPORT_TRIAGE = fileURLToPath(new URL("../../../examples/support-triage", import.meta.url));

interface TraceEvent {
  seq: number;
  kind: string;
  data: Record<string, unknown>;
}

const homes: (() => Promise<void>)[] = [];
afterAll(() => Promise.all(homes.map((cleanup) => cleanup())));

/** A fresh home, and `oz0 <args> --home <it>`. */
async function newHome(): Promise<(...args: string[]) => ReturnType<typeof oz0>> {
  const { home, cleanup } = await tempHome();
  homes.push(cleanup);
  return (...args) => oz0([...args, "--home", home]);
}

const names = (list: PluginSummary[]) => list.map((one) => one.name);

describe("std, installed by default", () => {
  it("is in the default tenant of a new home from its first command on", async () => {
    const run = await newHome();
    const list = await run("plugin", "list", "--json");
    expect(list.stderr).toBe("");
    expect(list.json<PluginSummary[]>().map((one) => [one.name, one.version, one.dir])).toEqual([
      ["std", "0.1.0", await realpath(STD)],
    ]);
    const changes = (await run("plugin", "inspect", "std", "--json")).json<{
      changes: { action: string }[];
    }>();
    expect(changes.changes.map((change) => change.action)).toEqual(["install"]);
  });

  it("comes with a new tenant's first install", async () => {
    const run = await newHome();
    expect((await run("plugin", "install", SUPPORT_TRIAGE, "--tenant", "travel")).code).toBe(0);
    expect(names((await run("plugin", "list", "--tenant", "travel", "--json")).json())).toEqual([
      "std",
      "support-triage",
    ]);
  });

  it("stays removed once removed: neither the next command nor the next install brings it back", async () => {
    const run = await newHome();
    expect((await run("plugin", "remove", "std")).stdout).toMatch(
      /^removed std 0\.1\.0 from tenant default\n/,
    );
    expect((await run("plugin", "list")).stdout).toBe(
      "no plugins installed in tenant default; add one with oz0 plugin install <dir>\n",
    );
    expect((await run("plugin", "install", SUPPORT_TRIAGE)).code).toBe(0);
    expect(names((await run("plugin", "list", "--json")).json())).toEqual(["support-triage"]);
    const call = await run("tool", "call", "std/json.parse", "--args", '{"data": "1"}');
    expect(call.stderr).toContain("no plugin of tenant default provides tool json");
  });

  it("installs again by hand after it was removed", async () => {
    const run = await newHome();
    await run("plugin", "remove", "std");
    expect((await run("plugin", "install", STD)).code).toBe(0);
    expect(names((await run("plugin", "list", "--json")).json())).toEqual(["std"]);
  });
});

describe("each std function through oz0 tool call", () => {
  let run: (...args: string[]) => ReturnType<typeof oz0>;
  beforeAll(async () => {
    run = await newHome();
  });

  /** `oz0 tool call std/<name> --args <args> --json`, as its report. */
  async function call(name: string, args: Record<string, unknown>): Promise<ToolCallReport> {
    const result = await run("tool", "call", `std/${name}`, "--args", JSON.stringify(args), "--json");
    return result.json<ToolCallReport>();
  }
  const result = async (name: string, args: Record<string, unknown>) => {
    const report = await call(name, args);
    expect(report.ok, JSON.stringify(report.error)).toBe(true);
    return report.result;
  };

  it("datetime.now gives a Unix timestamp, and any strftime pattern in a UTC offset", async () => {
    const before = Date.now() / 1000;
    const unix = (await result("datetime.now", { format: "unix" })) as { timestamp: number; format: string };
    expect(unix.format).toBe("unix");
    expect(unix.timestamp).toBeGreaterThanOrEqual(Math.floor(before));
    expect(unix.timestamp).toBeLessThanOrEqual(Date.now() / 1000 + 1);
    const local = (days: number) => new Date(Date.now() + days + 5.5 * 3600_000).toISOString().slice(0, 10);
    const dated = (await result("datetime.now", { format: "%Y-%m-%d", timezone: "+05:30" })) as {
      datetime: string;
    };
    expect([local(-60_000), local(0)]).toContain(dated.datetime);
    const iso = (await result("datetime.now", {})) as { datetime: string; format: string };
    expect(iso).toMatchObject({
      format: "iso",
      datetime: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*\+00:00$/),
    });
  });

  it("json.parse, json.format, json.get and json.merge work on JSON text", async () => {
    expect(await result("json.parse", { data: '{"a": 1}' })).toEqual({ status: "ok", result: { a: 1 } });
    expect(await result("json.format", { data: '{"a":1,"b":2}' })).toEqual({
      status: "ok",
      result: '{\n  "a": 1,\n  "b": 2\n}',
    });
    expect(await result("json.get", { data: '{"user": {"name": "Alice"}}', path: "user.name" })).toEqual({
      status: "ok",
      result: "Alice",
    });
    expect(await result("json.get", { data: '{"items": ["x", "y"]}', path: "items.0" })).toEqual({
      status: "ok",
      result: "x",
    });
    expect(await result("json.merge", { data: '{"a": 1}', merge_with: '{"b": 2}' })).toEqual({
      status: "ok",
      result: { a: 1, b: 2 },
    });
  });

  it("text.count, search, replace, extract, split and truncate work on text", async () => {
    expect(await result("text.count", { text: "Hello world" })).toEqual({
      characters: 11,
      words: 2,
      lines: 1,
    });
    expect(await result("text.search", { text: "Error: 404, Error: 500", pattern: "Error: (\\d+)" })).toEqual(
      {
        status: "ok",
        count: 2,
        matches: [
          { match: "Error: 404", start: 0, end: 10, groups: ["404"] },
          { match: "Error: 500", start: 12, end: 22, groups: ["500"] },
        ],
      },
    );
    expect(
      await result("text.replace", { text: "Hello world", pattern: "world", replacement: "earth" }),
    ).toEqual({
      status: "ok",
      result: "Hello earth",
    });
    expect(
      await result("text.extract", { text: "Call 123-456 or 789-012", pattern: "\\d{3}-\\d{3}" }),
    ).toEqual({
      status: "ok",
      matches: ["123-456", "789-012"],
    });
    expect(await result("text.split", { text: "a,b,,c", delimiter: "," })).toEqual({
      status: "ok",
      result: ["a", "b", "", "c"],
      count: 4,
    });
    const truncated = (await result("text.truncate", { text: "a".repeat(200), max_length: 50 })) as {
      result: string;
      truncated: boolean;
    };
    expect([truncated.result.length, truncated.result.endsWith("…"), truncated.truncated]).toEqual([
      50,
      true,
      true,
    ]);
  });

  it("text.search refuses a catastrophically backtracking pattern instead of hanging", async () => {
    const report = await call("text.search", { text: `${"a".repeat(40)}!`, pattern: "^(a+)+$" });
    expect(report.ok).toBe(false);
    expect(report.error?.code).toBe("LIMIT_EXCEEDED");
  });

  it("http.request refuses a loopback address before sending anything, saying why", async () => {
    const report = await call("http.request", { url: "http://127.0.0.1:9/" });
    expect(report.ok).toBe(false);
    expect(report.error?.code).toBe("POLICY_VIOLATION");
    expect(report.error?.message).toContain("127.0.0.1");
    const text = await run(
      "tool",
      "call",
      "std/http.request",
      "--args",
      '{"url": "http://169.254.169.254/latest/"}',
    );
    expect(text.code).toBe(1);
    expect(text.stderr).toMatch(/^oz0: std\/http\.request: POLICY_VIOLATION: /);
  });

  it("calculator.evaluate evaluates arithmetic and refuses anything else", async () => {
    expect(await result("calculator.evaluate", { expression: "2 + 3 * 4" })).toEqual({ result: 14 });
    expect(await result("calculator.evaluate", { expression: "(1 + 2) ^ 2 / 4" })).toEqual({ result: 2.25 });
    const refused = await call("calculator.evaluate", { expression: "process.exit(1)" });
    expect([refused.ok, refused.error?.code]).toEqual([false, "INVALID_INPUT"]);
  });

  it("checks a std function's arguments against its schema, as for a job's calls", async () => {
    const report = await call("json.get", { data: "{}" });
    expect(report.ok).toBe(false);
    expect(report.error?.code).toBe("INVALID_INPUT");
    expect(report.modelName).toBe("json__get");
  });
});

describe("std functions through an agent", () => {
  it("runs std-tour/receipt on the offline model, each std function answering in its trace", async () => {
    const run = await newHome();
    expect((await run("plugin", "install", STD_TOUR)).stderr).toBe("");
    const job = (await run("run", "std-tour/receipt", '{"items": []}', "--json")).json<{
      id: string;
      status: string;
      output: string;
    }>();
    expect([job.status, job.output]).toEqual([
      "succeeded",
      "ORD-1042, ORD-1043: 19.75 in all (tea 4.50, cups 12.00, shipping 3.25).",
    ]);
    const trace = (await run("job", "trace", job.id, "--json")).json<TraceEvent[]>();
    const calls = trace.filter((event) => event.kind === "tool_call").map((event) => event.data.address);
    expect(calls).toEqual([
      "std/json.get",
      "std/json.merge",
      "std/calculator.evaluate",
      "std/text.search",
      "std/datetime.now",
      "std/text.truncate",
    ]);
    const results = trace.filter((event) => event.kind === "tool_result").map((event) => event.data);
    expect(results.every((data) => data.ok === true)).toBe(true);
    expect(results.map((data) => data.result)).toEqual([
      { status: "ok", result: 12 },
      { status: "ok", result: { subtotal: 16.5, shipping: 3.25 } },
      { result: 19.75 },
      {
        status: "ok",
        count: 2,
        matches: [
          { match: "ORD-1042", start: 5, end: 13, groups: ["1042"] },
          { match: "ORD-1043", start: 19, end: 27, groups: ["1043"] },
        ],
      },
      { datetime: expect.stringMatching(/^\d{4}-\d\d-\d\d$/), format: "%Y-%m-%d" },
      {
        status: "ok",
        result: "Receipt for ORD-1042 and ORD-1043: tea and cups, 19.75 in a…",
        truncated: true,
      },
    ]);
  });
});
