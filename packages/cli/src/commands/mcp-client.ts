// `oz0 mcp login` and `oz0 mcp import`: the MCP client side of oz0 set up by a person. `login`
// runs a remote server's OAuth flow (the browser opened, or the URL printed, and the code taken
// at a loopback redirect) and keeps the tokens in the tenant, encrypted. `import` turns an
// `mcpServers` JSON file (Claude Desktop, Cursor, `.mcp.json`) into a plugin folder and keeps the
// values that look like secrets in the tenant, encrypted, never in the folder.
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import type { McpImport } from "@oz0/runtime";
import type { Command } from "commander";
import { withLocalRuntime, withRuntime } from "../context.js";
import { invalidInput } from "../errors.js";
import { numberOption } from "../options.js";
import type { Output } from "../output.js";

export function registerMcpClient(mcp: Command, out: Output): void {
  mcp
    .command("login")
    .description(
      "log in to the remote MCP server behind a tool with OAuth: opens the authorization page (or prints its URL) and waits for its redirect on 127.0.0.1",
    )
    .argument("<tool>", "the MCP-backed tool, by address (<plugin>/<tool>), whose server is reached at url:")
    .option(
      "--port <port>",
      "the loopback port of the redirect (0: any free one)",
      numberOption({
        whole: true,
        min: 0,
        max: 65_535,
        what: "a port (0 picks a free one)",
        example: "8976",
      }),
    )
    .option("--no-browser", "print the URL only; do not try to open a browser")
    .option(
      "--client-id <id>",
      "a client registered with the authorization server beforehand (its secret, if any, from stdin)",
    )
    .action(async (tool: string, options: { port?: number; browser: boolean; clientId?: string }) => {
      const clientSecret =
        options.clientId === undefined || process.stdin.isTTY ? undefined : await readAll();
      const result = await withLocalRuntime(out, async ({ runtime, caller }) => {
        const { loopback } = await import("@oz0/runtime");
        let redirect: Awaited<ReturnType<typeof loopback>> | undefined;
        try {
          const authorizer = async (address: string) => {
            const opened = await loopback(options.port ?? 0);
            redirect = opened;
            return {
              redirectUrl: opened.redirectUrl,
              authorize: async (url: URL, state: string) => {
                const code = opened.code(state);
                out.stderr(`oz0 mcp login: authorize oz0 for ${address} at\n  ${url.href}\n`);
                if (options.browser) openBrowser(url.href);
                out.stderr(
                  `oz0 mcp login: waiting for the redirect to ${opened.redirectUrl} (Ctrl-C stops)\n`,
                );
                return code;
              },
            };
          };
          const client =
            options.clientId === undefined
              ? undefined
              : { clientId: options.clientId, clientSecret: clientSecret || undefined };
          return await runtime.services.mcp.login(caller, tool, authorizer, client);
        } finally {
          await redirect?.close();
        }
      });
      out.result(result, (data) =>
        data.asked
          ? `logged in to the MCP server of ${data.tool}; oz0 keeps its tokens (encrypted) and refreshes them. It lists ${data.functions.length} functions.`
          : `the MCP server of ${data.tool} did not ask for a login; it lists ${data.functions.length} functions.`,
      );
    });

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
      await withRuntime(out, async ({ services, caller }) => {
        // Secrets first: a folder is written only once its secrets are safe in the tenant.
        await services.mcp.keepSecrets(caller, imported.plugin, imported.secrets);
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

/** Opens `url` in the desktop's browser, if there is one; the URL is printed either way. */
function openBrowser(url: string): void {
  const command =
    process.platform === "darwin" ? "open" : process.platform === "win32" ? "explorer" : "xdg-open";
  void import("node:child_process").then(({ spawn }) => {
    const child = spawn(command, [url], { stdio: "ignore", detached: true });
    child.on("error", () => undefined);
    child.unref();
  });
}

async function readAll(): Promise<string> {
  let text = "";
  for await (const chunk of process.stdin) text += String(chunk);
  return text.replace(/\r?\n$/, "");
}
