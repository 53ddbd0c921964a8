// `oz0 mcp import`'s reading of the mcpServers JSON people have (Claude Desktop, Cursor,
// .mcp.json): one MCP-backed tool per server, every value that looks like a secret kept out of
// the folder, and every shape oz0 cannot run refused, naming the server and field.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { isOz0Error, parsePluginManifest } from "@oz0/sdk";
import { describe, expect, it } from "vitest";
import { importMcpServers, writeMcpImport } from "../../src/mcp/index.js";
import { openRuntime, tempDir } from "./helpers.js";

const FIXTURES = fileURLToPath(new URL("./fixtures/import/", import.meta.url));

async function fixture(name: string): Promise<string> {
  return readFile(join(FIXTURES, name), "utf8");
}

function refusal(text: string, env: Record<string, string> = {}): string {
  try {
    importMcpServers(text, { file: "mcp.json", plugin: "imported", env });
  } catch (error) {
    if (isOz0Error(error) && error.code === "INVALID_INPUT") return error.message;
    throw error;
  }
  throw new Error("the import was not refused");
}

describe("importing an mcpServers file", () => {
  it("reads Claude Desktop's config: stdio servers, secrets by name and shape kept out of the manifest", async () => {
    const imported = importMcpServers(await fixture("claude_desktop_config.json"), {
      file: "claude_desktop_config.json",
      plugin: "desktop",
      env: {},
    });
    expect(imported.tools).toEqual([
      { server: "filesystem", id: "filesystem", transport: "stdio" },
      { server: "github", id: "github", transport: "stdio" },
      { server: "Brave Search", id: "brave-search", transport: "stdio" },
    ]);
    expect(imported.secrets.map(({ tool, kind, name, value }) => ({ tool, kind, name, value }))).toEqual([
      {
        tool: "github",
        kind: "env",
        name: "GITHUB_PERSONAL_ACCESS_TOKEN",
        value: "ghp_exampleexampleexample0000",
      },
      { tool: "brave-search", kind: "env", name: "BRAVE_API_KEY", value: "BSAexampleexample" },
    ]);
    expect(imported.manifest).not.toContain("ghp_example");
    expect(imported.manifest).not.toContain("BSAexample");
    const manifest = parsePluginManifest(imported.manifest, { file: "plugin.yaml" });
    expect(manifest.tools?.find((tool) => tool.id === "github")?.mcp).toEqual({
      command: "/Users/ada/.local/bin/github-mcp-server",
      args: ["stdio"],
      env: { GITHUB_HOST: "github.com" },
    });
  });

  it("reads Cursor's config: an HTTP server's secret headers and a ${VAR} taken from the shell as secrets", async () => {
    const imported = importMcpServers(await fixture("cursor-mcp.json"), {
      file: ".cursor/mcp.json",
      plugin: "cursor",
      env: { SERVICE_TOKEN: "from-the-shell-1234" },
    });
    expect(imported.tools.map((tool) => [tool.id, tool.transport])).toEqual([
      ["linear", "http"],
      ["everything", "stdio"],
    ]);
    expect(imported.secrets.map(({ tool, kind, name, value }) => ({ tool, kind, name, value }))).toEqual([
      { tool: "linear", kind: "header", name: "Authorization", value: "Bearer lin_api_exampleexample" },
      { tool: "everything", kind: "env", name: "SERVICE_TOKEN", value: "from-the-shell-1234" },
    ]);
    const manifest = parsePluginManifest(imported.manifest, { file: "plugin.yaml" });
    expect(manifest.tools?.[0]?.mcp).toEqual({
      url: "https://mcp.linear.app/mcp",
      headers: { "X-Team": "support" },
    });
    expect(manifest.tools?.[1]?.mcp?.env).toEqual({ LOG_LEVEL: "info" });
  });

  it("reads a project's .mcp.json with its type: fields", async () => {
    const imported = importMcpServers(await fixture("dot-mcp.json"), {
      file: ".mcp.json",
      plugin: "project",
      env: {},
    });
    expect(imported.tools).toEqual([
      { server: "sentry", id: "sentry", transport: "http" },
      { server: "local_db", id: "local_db", transport: "stdio" },
    ]);
    expect(imported.secrets).toEqual([]);
  });

  it("refuses a ${VAR} the shell does not set, naming it", () => {
    expect(refusal('{"mcpServers":{"a":{"command":"x","env":{"TOKEN":"${TOKEN}"}}}}')).toMatch(
      /mcpServers\.a\.env\.TOKEN is \$\{TOKEN\}, and TOKEN is not set here/,
    );
  });

  it("refuses a legacy SSE server, a field oz0 does not import, and a file that is not mcpServers JSON", () => {
    expect(refusal('{"mcpServers":{"old":{"type":"sse","url":"https://x.example/sse"}}}')).toMatch(
      /mcpServers\.old\.type is sse/,
    );
    expect(refusal('{"mcpServers":{"a":{"command":"x","alwaysAllow":["read"]}}}')).toMatch(
      /mcpServers\.a\.alwaysAllow is not something oz0 imports/,
    );
    expect(refusal('{"mcpServers":{"a":{"command":"x","url":"https://x.example"}}}')).toMatch(
      /both command: and url:/,
    );
    expect(refusal('{"servers":{"a":{"command":"x"}}}')).toMatch(/VS Code's format/);
    expect(refusal("not json")).toMatch(/is not JSON/);
    expect(refusal('{"mcpServers":{"a":{"command":"x","env":{"PORT":8080}}}}')).toMatch(/values are text/);
  });

  it("writes a folder that installs, and keeps its secrets in the tenant encrypted, never in clear", async () => {
    const temp = await tempDir("oz0-mcp-import-");
    const runtime = await openRuntime(temp.dir);
    try {
      const imported = importMcpServers(await fixture("claude_desktop_config.json"), {
        file: "claude_desktop_config.json",
        plugin: "desktop",
        env: {},
      });
      for (const secret of imported.secrets) {
        await runtime.mcp.secrets.set(
          "default",
          "desktop",
          secret.tool,
          secret.kind,
          secret.name,
          secret.value,
        );
      }
      const dir = join(temp.dir, "desktop");
      await writeMcpImport(imported, dir);
      await runtime.catalog.install("default", dir);
      expect((await readFile(join(dir, "plugin.yaml"), "utf8")).includes("ghp_")).toBe(false);
      const stored = await runtime.store.db.selectFrom("settings").select(["value"]).execute();
      expect(stored.some((row) => row.value.includes("ghp_exampleexample"))).toBe(false);
      expect(await runtime.mcp.secrets.list("default")).toEqual([
        { tool: "desktop/brave-search", env: ["BRAVE_API_KEY"], headers: [], oauth: [] },
        { tool: "desktop/github", env: ["GITHUB_PERSONAL_ACCESS_TOKEN"], headers: [], oauth: [] },
      ]);
      await expect(writeMcpImport(imported, dir)).rejects.toThrow(/is not empty/);
    } finally {
      await runtime.close();
      await temp.cleanup();
    }
  });
});
