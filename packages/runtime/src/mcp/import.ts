// `oz0 mcp import`: the `mcpServers` JSON people already have, written as an oz0 plugin folder.
// The mapping itself (plugin-dir/mcp-servers.ts) sits low, where a Claude Code plugin's
// .mcp.json is read with it too.
import { mkdir, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Oz0Error } from "@oz0/sdk";
import type { McpImport } from "../plugin-dir/index.js";

export {
  importMcpServers,
  type McpImport,
  type McpImportedTool,
  type McpImportOptions,
  type McpImportSecret,
} from "../plugin-dir/index.js";

/** Writes the plugin folder `dir` (which must not exist, or be empty); returns the files written. */
export async function writeMcpImport(imported: McpImport, dir: string): Promise<string[]> {
  const present = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return [];
    throw error;
  });
  if (present.length > 0) {
    throw new Oz0Error(
      "INVALID_INPUT",
      `${dir} is not empty; oz0 mcp import writes a new plugin folder. Choose another with --out, or remove it.`,
      { data: { issues: [{ path: "out", message: "not empty" }] } },
    );
  }
  await mkdir(dir, { recursive: true });
  const manifest = join(dir, "plugin.yaml");
  await writeFile(manifest, imported.manifest);
  return [manifest];
}
