// `oz0 mcp` as a user runs it at the terminal: an agent calling an MCP-backed function through
// `oz0 run`, a server asking a person for a form, the functions the catalog lists from their
// server, and the secrets of MCP servers. (`oz0 mcp serve` started as its own process, for the
// MCP SDK's client and the MCP Inspector: mcp-serve.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcpHome } from "./mcp-helpers.js";
import { oz0 } from "./run-cli.js";

const SECRET = "sk-mcp-7c1e9a44d2f0";

let home: string;
let cleanup: () => Promise<void>;

const cli = (args: string[], env?: Record<string, string>) => {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  return oz0([...args, "--home", home]).finally(() => {
    for (const key of Object.keys(env ?? {})) if (!(key in saved)) delete process.env[key];
  });
};

beforeAll(async () => {
  ({ home, cleanup } = await mcpHome());
});
afterAll(() => cleanup());

describe("oz0 run with an MCP-backed function", () => {
  it("runs an agent on the test provider whose call goes to the MCP server", async () => {
    const result = await cli(["run", "demo/echoer", "go", "--json"]);
    expect(result.code).toBe(0);
    const job = result.json<{ id: string; status: string; output: unknown }>();
    expect(job).toMatchObject({ status: "succeeded", output: "echoed" });
    const trace = await cli(["job", "trace", job.id, "--json"]);
    const events = trace.json<{ kind: string; data: Record<string, unknown> }[]>();
    const result_ = events.find((entry) => entry.kind === "tool_result");
    expect(result_?.data).toMatchObject({ ok: true, result: "Echo: via oz0 run" });
  });
});

describe("oz0 run with a server that asks a person for a form (elicitation)", () => {
  it("waits with the form's message and fields, and oz0 job answer fills it and runs the job on", async () => {
    const asked = await cli(["run", "demo/asker", "go"]);
    expect(asked.code).toBe(2);
    const id = /job (\S+) asks/.exec(asked.stderr)?.[1] ?? "";
    expect(asked.stderr).toContain(
      `job ${id} asks, for demo/everything: Please provide inputs for the following fields: — answer with oz0 job answer ${id} JSON (fields: name, check,`,
    );
    const wrong = await cli(["job", "answer", id, '{"integer": 0}']);
    expect(wrong.code).not.toBe(0);
    expect(wrong.stderr).toContain("does not fill the form");
    const answered = await cli(["job", "answer", id, '{"name": "Grace Hopper"}', "--json"]);
    expect(answered.code).toBe(0);
    expect(answered.json()).toMatchObject({ status: "succeeded", output: "thanks" });
    const trace = await cli(["job", "trace", id]);
    expect(trace.stdout).toContain("form         1.1 demo/everything asks a person: Please provide inputs");
    expect(trace.stdout).toMatch(/form filled {2}1\.1 by \S+ → \{"name":"Grace Hopper"/);
    expect(trace.stdout).toContain("Grace Hopper");
  });
});

describe("oz0 catalog and oz0 plugin inspect", () => {
  it("list an MCP-backed tool's functions, from its server", async () => {
    const catalog = await cli(["catalog"]);
    expect(catalog.stdout).toContain("demo/everything.get-sum → everything__get-sum");
    const inspect = await cli(["plugin", "inspect", "demo"]);
    expect(inspect.stdout).toContain("demo/everything  (MCP server)");
    expect(inspect.stdout).toContain("demo/everything.echo → everything__echo");
  });
});

describe("oz0 mcp secret", () => {
  it("sets a secret from oz0's environment, lists it by name only, and removes it", async () => {
    const set = await cli(
      ["mcp", "secret", "set", "demo/everything", "env", "API_TOKEN", "--from-env", "TEST_TOKEN"],
      {
        TEST_TOKEN: SECRET,
      },
    );
    expect(set.code).toBe(0);
    expect(set.stdout).toBe("set env API_TOKEN of demo/everything; its server gets it from the next start\n");
    const list = await cli(["mcp", "secret", "list", "--json"]);
    expect(list.json()).toEqual([{ tool: "demo/everything", env: ["API_TOKEN"], headers: [], oauth: [] }]);
    expect(list.stdout).not.toContain(SECRET);
    const audit = await cli(["audit", "list", "--json"]);
    expect(audit.stdout).toContain("API_TOKEN");
    expect(audit.stdout).not.toContain(SECRET);
    const called = await cli(["tool", "call", "demo/everything.get-env"]);
    expect(called.stdout).toContain("[redacted]");
    expect(called.stdout).not.toContain(SECRET);
    const removed = await cli(["mcp", "secret", "remove", "demo/everything", "env", "API_TOKEN"]);
    expect(removed.stdout).toBe("removed env API_TOKEN of demo/everything\n");
  });

  it("refuses a header for a server started locally", async () => {
    const result = await cli([
      "mcp",
      "secret",
      "set",
      "demo/everything",
      "header",
      "Authorization",
      "--from-env",
      "HOME",
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      "oz0: demo/everything: its server is started locally (command:), so its secrets are env variables; set it with env instead of header.\n",
    );
  });

  it("checks the tool's address against its owner", async () => {
    const result = await cli(["mcp", "secret", "set", "other/everything", "env", "X", "--from-env", "HOME"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("other/everything is not a tool of other: everything is demo's");
  });
});

describe("oz0 mcp status", () => {
  it("lists each MCP-backed tool with its server and the functions it lists", async () => {
    const result = await cli(["mcp", "status", "--json"]);
    const [report] =
      result.json<{ address: string; transport: string; functions: string[]; error: null }[]>();
    expect(report).toMatchObject({ address: "demo/everything", transport: "stdio", error: null });
    expect(report?.functions).toContain("get-tiny-image");
  });
});
