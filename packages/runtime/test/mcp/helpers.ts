// What the MCP tests share: the reference servers from npm (run with this Node, so no PATH is
// needed), plugin folders written for each test with the server's path in their manifest, and a
// runtime on an in-memory store.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Runtime } from "../../src/runtime.js";

const require = createRequire(import.meta.url);

/** `@modelcontextprotocol/server-everything`'s entry; its first argument picks the transport. */
export const EVERYTHING = require.resolve("@modelcontextprotocol/server-everything/dist/index.js");
/** `@modelcontextprotocol/server-filesystem`'s entry; its arguments are the folders it may use. */
export const FILESYSTEM = require.resolve("@modelcontextprotocol/server-filesystem/dist/index.js");
/** A small MCP server of the tests' own, for what the reference servers cannot show (fixtures/). */
export const FIXTURE_SERVER = fileURLToPath(new URL("./fixtures/fixture-server.ts", import.meta.url));
/** Lets a child Node run TypeScript sources with NodeNext `.js` imports. */
export const RESOLVE_TS = fileURLToPath(new URL("../store/fixtures/resolve-ts.ts", import.meta.url));

/** A temporary folder, removed by `cleanup`. */
export async function tempDir(prefix: string): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** Writes a plugin folder with `plugin.yaml` (and any other files) under `root`; returns its path. */
export async function writePlugin(
  root: string,
  name: string,
  manifest: string,
  files: Readonly<Record<string, string>> = {},
): Promise<string> {
  const dir = join(root, name);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, "plugin.yaml"), manifest);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(dir, path, ".."), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  return dir;
}

/** A YAML flow sequence of strings, each quoted (paths may hold anything). */
export function yamlList(items: readonly string[]): string {
  return `[${items.map((item) => JSON.stringify(item)).join(", ")}]`;
}

/** `mcp:` of a tool served by `server-everything` over stdio, run by this Node. */
export function everythingStdio(env: Readonly<Record<string, string>> = {}): string {
  const args = yamlList([EVERYTHING, "stdio"]);
  const envText = Object.keys(env).length === 0 ? "" : `, env: ${JSON.stringify(env)}`;
  return `{ command: ${JSON.stringify(process.execPath)}, args: ${args}${envText} }`;
}

/** `mcp:` of a tool served by the fixture server over stdio. */
export function fixtureStdio(env: Readonly<Record<string, string>> = {}): string {
  const args = yamlList(["--conditions=@oz0/source", "--import", RESOLVE_TS, FIXTURE_SERVER, "stdio"]);
  const envText = Object.keys(env).length === 0 ? "" : `, env: ${JSON.stringify(env)}`;
  return `{ command: ${JSON.stringify(process.execPath)}, args: ${args}${envText} }`;
}

/** A runtime on an in-memory store, without default plugins, homed in a temporary folder. */
export async function openRuntime(home: string): Promise<Runtime> {
  return Runtime.open({ home, memory: true, defaultPlugins: [] });
}

/**
 * Waits until `check` holds, trying every 20 ms. It sets no deadline of its own, which a loaded
 * machine could outlast: a check that never holds fails at the test's timeout.
 */
export async function eventually(check: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 20));
}
