// `oz0 mcp`: serving oz0's functions to a real MCP client (the MCP SDK's), over stdio and over
// Streamable HTTP, with the oz0 CLI started as its own process; an agent calling an MCP-backed
// function through `oz0 run`; and the secrets of MCP servers.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdir, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SAMPLE } from "./jobs-helpers.js";
import { oz0, tempHome } from "./run-cli.js";

const require = createRequire(import.meta.url);
const EVERYTHING = require.resolve("@modelcontextprotocol/server-everything/dist/index.js");
/** The MCP Inspector's command-line mode (`mcp-inspector --cli` runs this file). */
const INSPECTOR = join(
  dirname(require.resolve("@modelcontextprotocol/inspector-cli/package.json")),
  "build",
  "index.js",
);
const MAIN = fileURLToPath(new URL("../src/main.ts", import.meta.url));
const RESOLVE_TS = fileURLToPath(new URL("../../runtime/test/store/fixtures/resolve-ts.ts", import.meta.url));
/** `node` running the CLI from its sources, as a user's MCP client would start `oz0`. */
const CLI = ["--conditions=@oz0/source", "--import", RESOLVE_TS, MAIN];
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
  ({ home, cleanup } = await tempHome());
  const dir = join(home, "plugins", "demo");
  await mkdir(join(dir, "scripts"), { recursive: true });
  await writeFile(
    join(dir, "plugin.yaml"),
    [
      "name: demo",
      "version: 1.0.0",
      "tools:",
      "  - id: everything",
      "    description: The MCP reference server.",
      `    mcp: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(EVERYTHING)}, stdio] }`,
      "agents:",
      "  - name: echoer",
      "    description: Echoes through the MCP server.",
      "    tools: [everything.echo]",
      "    skills: []",
      "    input: text",
      "    output: text",
      "    model: { use: test, script: scripts/echo.yaml }",
      "  - name: asker",
      "    description: Calls a function whose server asks a person for a form.",
      "    tools: [everything.trigger-elicitation-request]",
      "    skills: []",
      "    input: text",
      "    output: text",
      "    model: { use: test, script: scripts/ask.yaml }",
    ].join("\n"),
  );
  await writeFile(
    join(dir, "scripts", "ask.yaml"),
    [
      "turns:",
      "  - call: { function: everything__trigger-elicitation-request, args: {} }",
      '  - text: "thanks"',
    ].join("\n"),
  );
  await writeFile(
    join(dir, "scripts", "echo.yaml"),
    [
      "turns:",
      '  - call: { function: everything__echo, args: { message: "via oz0 run" } }',
      '  - text: "echoed"',
    ].join("\n"),
  );
  for (const plugin of [SAMPLE, dir]) {
    const installed = await cli(["plugin", "install", plugin]);
    if (installed.code !== 0) throw new Error(installed.stderr);
  }
});
afterAll(() => cleanup());

function text(result: CallToolResult): string {
  return result.content.map((block) => (block.type === "text" ? block.text : "")).join("");
}

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

describe("oz0 mcp serve", () => {
  it("serves the tenant's catalog on stdio to the MCP SDK's client, recording each call as a job", async () => {
    const client = new Client({ name: "sdk-client", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [...CLI, "--home", home, "mcp", "serve"],
        stderr: "pipe",
      }),
    );
    try {
      const { tools } = await client.listTools();
      const names = tools.map((tool) => tool.name);
      expect(names).toContain("tickets__lookup");
      expect(names).toContain("everything__echo");
      const result = (await client.callTool({
        name: "tickets__lookup",
        arguments: { id: 7 },
      })) as CallToolResult;
      expect(result.isError).toBeUndefined();
      const jobId = String(result._meta?.["oz0/job"]);
      const job = await cli(["job", "get", jobId, "--json"]);
      expect(job.json()).toMatchObject({ agent: "oz/mcp", status: "succeeded" });
    } finally {
      await client.close();
    }
  });

  it("serves an agent's functions over Streamable HTTP", async () => {
    const server = spawn(
      process.execPath,
      [...CLI, "--home", home, "mcp", "serve", "--agent", "support-triage/triage", "--http", "0", "--json"],
      {
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    try {
      const { url } = await firstJson<{ url: string }>(server);
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      const client = new Client({ name: "http-client", version: "1.0.0" });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(["tickets__assign", "tickets__lookup"]);
      const result = (await client.callTool({
        name: "tickets__assign",
        arguments: { id: 7, queue: "billing" },
      })) as CallToolResult;
      expect(JSON.parse(text(result))).toEqual({ id: 7, queue: "billing" });
      const job = await cli(["job", "get", String(result._meta?.["oz0/job"]), "--json"]);
      expect(job.json()).toMatchObject({ agent: "support-triage/triage", status: "succeeded" });
      await client.close();
    } finally {
      server.kill("SIGTERM");
    }
  });

  it("refuses to serve an agent the tenant does not have", async () => {
    const result = await cli(["mcp", "serve", "--agent", "support-triage/nobody"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe("oz0: no agent support-triage/nobody in tenant default\n");
  });
});

describe("oz0 mcp serve under the MCP Inspector (its CLI mode)", () => {
  /** Runs the Inspector against `target` (a command line, or a URL), with `args` after it. */
  async function inspect<T>(target: string[], args: string[]): Promise<T> {
    // From its own folder: the Inspector reads its package.json (its client name) relative to the working directory.
    const child = spawn(process.execPath, [INSPECTOR, ...target, ...args], {
      cwd: dirname(INSPECTOR),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const [code] = (await once(child, "exit")) as [number | null];
    if (code !== 0) throw new Error(`the Inspector exited ${code}: ${stderr}`);
    return JSON.parse(stdout) as T;
  }
  const stdio = () => [process.execPath, ...CLI, "--home", home, "mcp", "serve"];

  it("lists the tools, prompts and resource templates it serves on stdio", async () => {
    const { tools } = await inspect<{ tools: { name: string }[] }>(stdio(), ["--method", "tools/list"]);
    expect(tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(["tickets__lookup", "everything__echo"]),
    );
    const { prompts } = await inspect<{ prompts: { name: string }[] }>(stdio(), ["--method", "prompts/list"]);
    expect(prompts.map((prompt) => prompt.name)).toContain("demo/echoer");
    const { resourceTemplates } = await inspect<{ resourceTemplates: { uriTemplate: string }[] }>(stdio(), [
      "--method",
      "resources/templates/list",
    ]);
    expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual(
      expect.arrayContaining(["oz0://jobs/{id}/output", "oz0://jobs/{id}/trace"]),
    );
  });

  it("calls a function on stdio, as a job, and reads the job's output as a resource", async () => {
    const result = await inspect<CallToolResult>(stdio(), [
      "--method",
      "tools/call",
      "--tool-name",
      "everything__echo",
      "--tool-arg",
      "message=from the Inspector",
    ]);
    expect(result.isError).toBeUndefined();
    expect(text(result)).toBe("Echo: from the Inspector");
    const jobId = String(result._meta?.["oz0/job"]);
    const read = await inspect<{ contents: { uri: string; text: string }[] }>(stdio(), [
      "--method",
      "resources/read",
      "--uri",
      `oz0://jobs/${jobId}/output`,
    ]);
    expect(read.contents[0]?.uri).toBe(`oz0://jobs/${jobId}/output`);
    expect(read.contents[0]?.text).toContain("succeeded");
  });

  it("lists and calls an agent's functions over Streamable HTTP", async () => {
    const server = spawn(
      process.execPath,
      [...CLI, "--home", home, "mcp", "serve", "--agent", "support-triage/triage", "--http", "0", "--json"],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    try {
      const { url } = await firstJson<{ url: string }>(server);
      const { tools } = await inspect<{ tools: { name: string }[] }>([url], ["--method", "tools/list"]);
      expect(tools.map((tool) => tool.name).sort()).toEqual(["tickets__assign", "tickets__lookup"]);
      const result = await inspect<CallToolResult>(
        [url],
        ["--method", "tools/call", "--tool-name", "tickets__assign", "--tool-arg", "id=7", "queue=billing"],
      );
      expect(JSON.parse(text(result))).toEqual({ id: 7, queue: "billing" });
    } finally {
      server.kill("SIGTERM");
    }
  });
});

/** The first line the process prints on stdout, as JSON. */
function firstJson<T>(child: ChildProcess): Promise<T> {
  return new Promise((resolve, reject) => {
    let stdout = "";
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.stdout?.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      try {
        resolve(JSON.parse(stdout) as T);
      } catch {
        // Not all of it yet.
      }
    });
    child.on("exit", (code) =>
      reject(new Error(`oz0 exited (${code}) before it printed: ${stdout}${stderr}`)),
    );
  });
}
