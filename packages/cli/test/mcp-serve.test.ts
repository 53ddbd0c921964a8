// `oz0 mcp serve` started as its own process, as a user's MCP client starts `oz0`: serving oz0's
// functions to the MCP SDK's client over stdio and Streamable HTTP, and under the MCP Inspector's
// CLI mode (`@modelcontextprotocol/inspector-cli`). `oz0 mcp serve` runs only on this machine
// (src/local-only.ts), so these run once: the cli-through-server project leaves this file out.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcpHome } from "./mcp-helpers.js";
import { oz0 } from "./run-cli.js";

const require = createRequire(import.meta.url);
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

let home: string;
let cleanup: () => Promise<void>;

const cli = (args: string[]) => oz0([...args, "--home", home]);

beforeAll(async () => {
  // `oz0 mcp serve` reads the home itself: its other commands stay embedded too.
  ({ home, cleanup } = await mcpHome({ embedded: true }));
});
afterAll(() => cleanup());

function text(result: CallToolResult): string {
  return result.content.map((block) => (block.type === "text" ? block.text : "")).join("");
}

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
