// What the `oz0 mcp` tests share: a home with the support-triage example and a plugin whose tool
// is the MCP reference server (`@modelcontextprotocol/server-everything`, run by this Node), with
// agents that call it on the `test` provider.
import { mkdir, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { SAMPLE } from "./jobs-helpers.js";
import { oz0, tempHome } from "./run-cli.js";

const require = createRequire(import.meta.url);
const EVERYTHING = require.resolve("@modelcontextprotocol/server-everything/dist/index.js");

/**
 * A fresh home with support-triage and `demo` (its tool `everything`, agents echoer and asker)
 * installed; `embedded` as tempHome takes it.
 */
export async function mcpHome(
  options: { readonly embedded?: boolean } = {},
): Promise<{ home: string; cleanup: () => Promise<void> }> {
  const { home, cleanup } = await tempHome(options);
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
    const installed = await oz0(["--home", home, "plugin", "install", plugin]);
    if (installed.code !== 0) throw new Error(installed.stderr);
  }
  return { home, cleanup };
}
