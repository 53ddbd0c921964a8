// The official MCP conformance suite (`@modelcontextprotocol/conformance`, its server scenarios)
// run against `oz0 mcp serve`, over Streamable HTTP and over stdio. The suite speaks only HTTP,
// so for stdio each of its sessions is carried by a small relay: an MCP Streamable HTTP endpoint
// (the SDK's transport) whose messages go, unchanged, to an `oz0 mcp serve` started for that
// session on stdio. `npm run conformance` prints what passes, beside the counts before oz0
// served more than tools; `packages/cli/test/mcp-conformance.test.ts` asserts it in CI. Its
// client `auth/*` scenarios run against oz0 as an MCP client (`mcp-auth-client.ts`: a plugin
// whose tool is the suite's server, logged in as `oz0 mcp login` does, or, for the extensions'
// grants that need no person, given the `oauth:` grant and credentials; its tool then called).
import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";

const require = createRequire(import.meta.url);
const SUITE = require.resolve("@modelcontextprotocol/conformance/dist/index.js");
const MAIN = fileURLToPath(new URL("../packages/cli/src/main.ts", import.meta.url));
const RESOLVE_TS = fileURLToPath(
  new URL("../packages/runtime/test/store/fixtures/resolve-ts.ts", import.meta.url),
);
const SAMPLES = fileURLToPath(new URL("../plugins/samples", import.meta.url));
/** `oz0` from its sources. */
const CLI = ["--conditions=@oz0/source", "--no-warnings", "--import", RESOLVE_TS, MAIN];

export type Transport = "http" | "stdio";

/**
 * The server scenarios that need nothing of a server but MCP itself. Every other scenario of the
 * suite calls a tool, reads a resource or gets a prompt by a name of its own fixture server
 * (`test_simple_text`, `test://static-text`, `test_prompt_with_arguments`, …), which a server
 * offering its own catalog does not have; `completion-complete` among them, since it asks to
 * complete an argument of the fixture prompt `test_prompt_with_arguments`, and the MCP spec has
 * a server refuse an unknown prompt (InvalidParams), as oz0 does.
 */
export const FIXTURE_FREE: Readonly<Record<Transport, readonly string[]>> = {
  http: [
    "server-initialize",
    "logging-set-level",
    "ping",
    "tools-list",
    "resources-list",
    "prompts-list",
    "server-sse-multiple-streams",
    "dns-rebinding-protection",
  ],
  // What HTTP itself is checked for (several streams, Host and Origin) is the relay's over stdio.
  stdio: ["server-initialize", "logging-set-level", "ping", "tools-list", "resources-list", "prompts-list"],
};

/**
 * What CI runs of FIXTURE_FREE over stdio (packages/cli/test/mcp-conformance.test.ts): the
 * handshake and a listing, each session an `oz0 mcp serve` of its own. The other scenarios ask
 * the same of oz0 as over HTTP, where CI runs them all; `npm run conformance` runs every one on
 * both transports and fails when one of FIXTURE_FREE does.
 */
export const STDIO_IN_CI: readonly string[] = ["server-initialize", "tools-list"];

/** Scenarios of HTTP itself: over stdio they test the relay, not oz0. */
const HTTP_ONLY = new Set(["server-sse-multiple-streams", "dns-rebinding-protection"]);

/** The suite's active scenarios that passed against `oz0 mcp serve` before resources, prompts and logging (commit dad7bb8). */
export const BEFORE: Readonly<Record<Transport, readonly string[]>> = {
  http: [
    "server-initialize",
    "ping",
    "tools-list",
    "server-sse-multiple-streams",
    "dns-rebinding-protection",
  ],
  stdio: ["server-initialize", "ping", "tools-list", "server-sse-multiple-streams"],
};

/** The suite's client `auth/*` scenarios, in its order. */
export const AUTH_SCENARIOS: readonly string[] = [
  "auth/metadata-default",
  "auth/metadata-var1",
  "auth/metadata-var2",
  "auth/metadata-var3",
  "auth/basic-cimd",
  "auth/scope-from-www-authenticate",
  "auth/scope-from-scopes-supported",
  "auth/scope-omitted-when-undefined",
  "auth/scope-step-up",
  "auth/scope-retry-limit",
  "auth/token-endpoint-auth-basic",
  "auth/token-endpoint-auth-post",
  "auth/token-endpoint-auth-none",
  "auth/pre-registration",
  "auth/2025-03-26-oauth-metadata-backcompat",
  "auth/2025-03-26-oauth-endpoint-fallback",
  "auth/resource-mismatch",
  "auth/offline-access-scope",
  "auth/offline-access-not-supported",
  "auth/client-credentials-jwt",
  "auth/client-credentials-basic",
  "auth/cross-app-access-complete-flow",
];

/**
 * The suite's authorization extensions, beyond the MCP authorization spec: machine-to-machine
 * client credentials (SEP-1046: a secret or a signed JWT instead of a person's login) and
 * cross-app access (SEP-990), a tool's `oauth:` grant.
 */
export const AUTH_EXTENSIONS: ReadonlySet<string> = new Set([
  "auth/client-credentials-jwt",
  "auth/client-credentials-basic",
  "auth/cross-app-access-complete-flow",
]);

const AUTH_CLIENT = fileURLToPath(new URL("./mcp-auth-client.ts", import.meta.url));
/** The same scenarios' client as a person at a terminal: `oz0 plugin install`, `oz0 mcp login`, `oz0 tool call`. */
export const LOGIN_CLI_CLIENT = fileURLToPath(new URL("./mcp-login-cli.ts", import.meta.url));

/**
 * Runs the client `auth/*` scenarios (all when left out) against oz0 as a client, four at a
 * time; `client` is the script the suite starts (oz0's runtime, unless told).
 */
export async function runClientConformance(
  scenarios: readonly string[] = AUTH_SCENARIOS,
  client: string = AUTH_CLIENT,
): Promise<ScenarioResult[]> {
  const output = await mkdtemp(join(tmpdir(), "oz0-conformance-client-"));
  const command = [process.execPath, ...CLI.slice(0, -1), client].join(" ");
  try {
    const queue = [...scenarios];
    const worker = async () => {
      for (let scenario = queue.shift(); scenario !== undefined; scenario = queue.shift()) {
        const args = [SUITE, "client", "--command", command, "--scenario", scenario, "-o", output];
        const suite = spawn(process.execPath, args, { stdio: "ignore", cwd: output });
        await once(suite, "exit");
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
    return (await readResults(join(output, "auth"), /^(.+)-\d{4}-\d\d-\d\dT/)).map((result) => ({
      ...result,
      scenario: `auth/${result.scenario}`,
    }));
  } finally {
    await rm(output, { recursive: true, force: true });
  }
}

export interface ScenarioResult {
  readonly scenario: string;
  readonly passed: boolean;
  /** The failed checks' messages. */
  readonly failures: readonly string[];
}

/** A home with the sample plugins installed, for the served catalog. */
export async function conformanceHome(): Promise<{ home: string; cleanup: () => Promise<void> }> {
  const home = await mkdtemp(join(tmpdir(), "oz0-conformance-"));
  const install = spawn(process.execPath, [...CLI, "plugin", "install", SAMPLES, "--home", home], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  install.stderr.on("data", (chunk) => {
    stderr += String(chunk);
  });
  const [code] = await once(install, "exit");
  if (code !== 0) throw new Error(`oz0 plugin install failed: ${stderr}`);
  return { home, cleanup: () => rm(home, { recursive: true, force: true }) };
}

/** Runs `scenarios` (the suite's active ones when left out) against `oz0 mcp serve` over `transport`. */
export async function runConformance(
  home: string,
  transport: Transport,
  scenarios?: readonly string[],
): Promise<ScenarioResult[]> {
  const serving = transport === "http" ? await serveHttp(home) : await stdioRelay(home);
  const output = await mkdtemp(join(tmpdir(), "oz0-conformance-results-"));
  try {
    for (const scenario of scenarios ?? [undefined]) {
      const args = [SUITE, "server", "--url", serving.url, "-o", output];
      if (scenario !== undefined) args.push("--scenario", scenario);
      const suite = spawn(process.execPath, args, { stdio: "ignore", cwd: output });
      await once(suite, "exit");
    }
    return await readResults(output);
  } finally {
    await serving.close();
    await rm(output, { recursive: true, force: true });
  }
}

async function readResults(
  output: string,
  named: RegExp = /^server-(.+)-\d{4}-\d\d-\d\dT/,
): Promise<ScenarioResult[]> {
  const results: ScenarioResult[] = [];
  for (const dir of (await readdir(output).catch(() => [])).sort()) {
    const match = named.exec(dir);
    if (match === null) continue;
    const checks = JSON.parse(await readFile(join(output, dir, "checks.json"), "utf8")) as {
      status: string;
      id: string;
      errorMessage?: string;
    }[];
    const failed = checks.filter((check) => check.status === "FAILURE");
    results.push({
      scenario: match[1] ?? dir,
      passed: checks.length > 0 && failed.length === 0,
      failures: failed.map((check) => `${check.id}: ${check.errorMessage ?? "failed"}`),
    });
  }
  return results;
}

interface Serving {
  readonly url: string;
  close(): Promise<void>;
}

/** `oz0 mcp serve --http 0`, once it says where. */
async function serveHttp(home: string): Promise<Serving> {
  const child = spawn(process.execPath, [...CLI, "mcp", "serve", "--http", "0", "--json", "--home", home], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let text = "";
    child.stdout.on("data", (chunk) => {
      text += String(chunk);
      const url = /"url": "([^"]+)"/.exec(text)?.[1];
      if (url !== undefined) resolve(url);
    });
    child.once("exit", (code) => reject(new Error(`oz0 mcp serve --http ended (${code}) before serving`)));
  });
  return { url, close: () => stop(child) };
}

/** An HTTP endpoint whose every session is an `oz0 mcp serve` on stdio, spoken to unchanged. */
async function stdioRelay(home: string): Promise<Serving> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const servers = new Set<StdioClientTransport>();
  const http = createServer((request, response) => {
    void (async () => {
      const id = request.headers["mcp-session-id"];
      if (typeof id === "string") {
        const front = sessions.get(id);
        if (front === undefined) return void response.writeHead(404).end();
        return front.handleRequest(request, response);
      }
      const front = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (session) => void sessions.set(session, front),
      });
      const back = new StdioClientTransport({
        command: process.execPath,
        args: [...CLI, "mcp", "serve", "--home", home],
        env: Object.fromEntries(
          Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined),
        ),
        stderr: "ignore",
      });
      servers.add(back);
      front.onmessage = (message) => void back.send(message);
      back.onmessage = (message) => void front.send(message).catch(() => undefined);
      front.onclose = () => void back.close();
      await back.start();
      await front.start();
      await front.handleRequest(request, response);
    })().catch(() => {
      if (!response.headersSent) response.writeHead(500).end();
    });
  });
  http.listen(0, "127.0.0.1");
  await once(http, "listening");
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    async close() {
      await Promise.all([...sessions.values()].map((front) => front.close().catch(() => undefined)));
      await Promise.all([...servers].map((back) => back.close().catch(() => undefined)));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = once(child, "exit");
  child.kill("SIGTERM");
  await exited;
}

/**
 * Prints each transport's results, and the counts of passing scenarios before and now; exits 1
 * when a scenario that needs none of the suite's fixtures, or an auth scenario, fails.
 */
async function main(): Promise<void> {
  const { home, cleanup } = await conformanceHome();
  try {
    const asked = process.argv.slice(2);
    for (const transport of ["http", "stdio"] as const) {
      if (asked.length > 0 && !asked.includes(transport)) continue;
      const results = await runConformance(home, transport);
      const passing = results.filter((result) => result.passed);
      const free = FIXTURE_FREE[transport];
      const freePassing = free.filter((name) => passing.some((result) => result.scenario === name));
      console.log(`MCP conformance (${SUITE_VERSION}), server scenarios, oz0 mcp serve over ${transport}:`);
      for (const result of results) {
        const mark = result.passed
          ? "pass"
          : free.includes(result.scenario)
            ? "FAIL"
            : transport === "stdio" && HTTP_ONLY.has(result.scenario)
              ? "fail (HTTP checks: the relay's)"
              : "fail (needs the suite's fixtures)";
        console.log(`  ${mark.padEnd(34)} ${result.scenario}`);
      }
      if (freePassing.length < free.length) process.exitCode = 1;
      const before = BEFORE[transport];
      console.log(
        `  passing: before ${before.length} of ${results.length}, now ${passing.length} of ${results.length}; ` +
          `without fixture names: before ${free.filter((name) => before.includes(name)).length} of ${free.length}, now ${freePassing.length} of ${free.length}\n`,
      );
    }
    if (asked.length === 0 || asked.includes("auth")) {
      const results = await runClientConformance();
      const core = results.filter((result) => !AUTH_EXTENSIONS.has(result.scenario));
      const extensions = results.filter((result) => AUTH_EXTENSIONS.has(result.scenario));
      console.log(`MCP conformance (${SUITE_VERSION}), client auth/* scenarios, oz0 as an MCP client:`);
      for (const result of results) {
        const mark = result.passed ? "pass" : "FAIL";
        if (!result.passed) process.exitCode = 1;
        console.log(
          `  ${mark.padEnd(6)} ${result.scenario}${AUTH_EXTENSIONS.has(result.scenario) ? " (extension)" : ""}`,
        );
      }
      // Before oz0's client spoke OAuth (commit f42ed58), no auth scenario could pass; before the
      // `oauth:` grants (commit 90ecb32), no extension scenario did.
      console.log(
        `  passing: before 0 of ${results.length}, now ${results.filter((result) => result.passed).length} of ${results.length}; ` +
          `of the MCP authorization spec's: before 0 of ${core.length}, now ${core.filter((result) => result.passed).length} of ${core.length}; ` +
          `of the extensions': before 0 of ${extensions.length}, now ${extensions.filter((result) => result.passed).length} of ${extensions.length}\n`,
      );
    }
  } finally {
    await cleanup();
  }
}

const SUITE_VERSION = `@modelcontextprotocol/conformance ${(require("@modelcontextprotocol/conformance/package.json") as { version: string }).version}`;

if (import.meta.main) await main();
