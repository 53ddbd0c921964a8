// A client for the conformance suite's `auth/*` scenarios that is a person at a terminal: it
// runs the oz0 CLI as its own processes, as a user types it. `oz0 plugin install` a plugin whose
// tool is the suite's server, `oz0 mcp login <tool> --no-browser` (with `--client-id` and the
// secret on stdin when the scenario registered a client beforehand), whose printed URL the
// person's browser follows; then `oz0 tool call` of `test-tool`, which must go through on the
// tokens the login stored. In `auth/metadata-default` the login opens the desktop's browser
// instead: `xdg-open` (and macOS's `open`) on its PATH is a browser that approves at once.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { approve } from "./oauth-browser.js";

const MAIN = fileURLToPath(new URL("../packages/cli/src/main.ts", import.meta.url));
const RESOLVE_TS = fileURLToPath(
  new URL("../packages/runtime/test/store/fixtures/resolve-ts.ts", import.meta.url),
);
const CLI = ["--conditions=@oz0/source", "--no-warnings", "--import", RESOLVE_TS, MAIN];

interface Context {
  readonly client_id?: string;
  readonly client_secret?: string;
}

/** The scenario whose login opens the browser rather than printing the URL only. */
const BROWSER_SCENARIO = "auth/metadata-default";

function oz0(home: string, args: readonly string[], env: NodeJS.ProcessEnv = process.env): ChildProcess {
  return spawn(process.execPath, [...CLI, "--home", home, ...args], { stdio: ["pipe", "pipe", "pipe"], env });
}

/** A folder holding `xdg-open` and `open`: a browser that follows the URL's redirects to the loopback. */
async function desktopBrowser(home: string): Promise<string> {
  const bin = join(home, "bin");
  await mkdir(bin, { recursive: true });
  const follow = "fetch(process.argv[1]).then((response) => response.body?.cancel())";
  const script = `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} -e ${JSON.stringify(follow)} "$1"\n`;
  for (const name of ["xdg-open", "open"]) {
    await writeFile(join(bin, name), script);
    await chmod(join(bin, name), 0o755);
  }
  return bin;
}

/** Runs `oz0 …` to its end; throws with its stderr unless it exits 0. */
async function run(home: string, args: readonly string[]): Promise<string> {
  const child = oz0(home, args);
  child.stdin?.end();
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const [code] = (await once(child, "exit")) as [number | null];
  if (code !== 0) throw new Error(`oz0 ${args.join(" ")} exited ${code}: ${stderr}`);
  return stdout;
}

/**
 * `oz0 mcp login`: with `browser`, the folder of the desktop's browser, which the login opens;
 * without, `--no-browser`, and the person's browser follows the URL it prints.
 */
async function login(home: string, tool: string, context: Context, browser?: string): Promise<string> {
  const registered = context.client_id === undefined ? [] : ["--client-id", context.client_id];
  const child =
    browser === undefined
      ? oz0(home, ["mcp", "login", tool, "--no-browser", ...registered])
      : oz0(home, ["mcp", "login", tool, ...registered], {
          ...process.env,
          PATH: `${browser}:${process.env.PATH ?? ""}`,
        });
  child.stdin?.end(context.client_secret ?? "");
  let stdout = "";
  let stderr = "";
  let approving: Promise<void> | undefined;
  child.stdout?.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
    const url = /authorize oz0 for \S+ at\n {2}(\S+)\n/.exec(stderr)?.[1];
    if (url !== undefined && approving === undefined) {
      approving = browser === undefined ? approve(new URL(url)) : Promise.resolve();
    }
  });
  const [code] = (await once(child, "exit")) as [number | null];
  await approving;
  if (approving === undefined) throw new Error(`oz0 mcp login printed no authorization URL: ${stderr}`);
  if (code !== 0) throw new Error(`oz0 mcp login exited ${code}: ${stderr}`);
  return stdout;
}

async function main(): Promise<void> {
  const serverUrl = process.argv[2];
  if (serverUrl === undefined) throw new Error("usage: mcp-login-cli <server-url>");
  const home = await mkdtemp(join(tmpdir(), "oz0-login-cli-"));
  try {
    const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}") as Context;
    const dir = join(home, "conformance");
    await mkdir(dir, { recursive: true });
    await writeFile(
      join(dir, "plugin.yaml"),
      [
        "name: conformance",
        "version: 1.0.0",
        "tools:",
        "  - id: remote",
        `    mcp: { url: "${serverUrl}" }`,
        "",
      ].join("\n"),
    );
    await run(home, ["plugin", "install", dir]);
    const browser =
      process.env.MCP_CONFORMANCE_SCENARIO === BROWSER_SCENARIO ? await desktopBrowser(home) : undefined;
    const said = await login(home, "conformance/remote", context, browser);
    if (!said.startsWith("logged in to the MCP server of conformance/remote")) {
      throw new Error(`oz0 mcp login said: ${said}`);
    }
    await run(home, ["tool", "call", "conformance/remote.test-tool"]);
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}

await main();
