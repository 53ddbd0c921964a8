// `oz0 mcp import`: the MCP client side of oz0 set up from what people already have. `import`
// turns an `mcpServers` JSON file (Claude Desktop, Cursor, `.mcp.json`) into a plugin folder and
// keeps the values that look like secrets in the tenant, encrypted, never in the folder.
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import type { McpImport } from "@oz0/runtime";
import type { Command } from "commander";
import { withRuntime } from "../context.js";
import { invalidInput } from "../errors.js";
import type { Output } from "../output.js";

export function registerMcpClient(mcp: Command, out: Output): void {
  mcp
    .command("import")
    .description(
      "write a plugin folder from an mcpServers JSON file (Claude Desktop, Cursor, .mcp.json): one MCP-backed tool per server, secrets kept in the tenant",
    )
    .argument("<file>", "claude_desktop_config.json, .cursor/mcp.json, .mcp.json, or any mcpServers JSON")
    .option("--name <plugin>", "the plugin's name", "mcp-servers")
    .option("--out <dir>", "the folder to write (it must not exist, or be empty); ./<name> by default")
    .action(async (file: string, options: { name: string; out?: string }) => {
      const tenant = out.options.tenant;
      const { importMcpServers, writeMcpImport } = await import("@oz0/runtime");
      const text = await readFile(file, "utf8").catch(async (error: NodeJS.ErrnoException) => {
        throw await invalidInput(`cannot read ${file}: ${error.code ?? error.message}`, "file", "unreadable");
      });
      const imported: McpImport = importMcpServers(text, { file, plugin: options.name });
      const dir = resolve(options.out ?? options.name);
      await withRuntime(out, async (runtime) => {
        // Secrets first: a folder is written only once its secrets are safe in the tenant.
        for (const secret of imported.secrets) {
          await runtime.mcp.secrets.set(
            tenant,
            imported.plugin,
            secret.tool,
            secret.kind,
            secret.name,
            secret.value,
          );
        }
        await writeMcpImport(imported, dir);
      });
      out.result(
        {
          plugin: imported.plugin,
          dir,
          tenant,
          tools: imported.tools,
          secrets: imported.secrets.map(({ tool, kind, name, why }) => ({ tool, kind, name, why })),
        },
        (data) =>
          [
            `wrote plugin ${data.plugin} to ${data.dir}: ${data.tools.map((tool) => (tool.id === tool.server ? tool.id : `${tool.id} (server ${tool.server})`)).join(", ")}`,
            ...data.secrets.map(
              (secret) =>
                `  kept ${secret.kind} ${secret.name} of ${data.plugin}/${secret.tool} as a secret of tenant ${tenant} (${secret.why})`,
            ),
            `install it with: oz0 plugin install ${data.dir}`,
          ].join("\n"),
      );
    });
}
