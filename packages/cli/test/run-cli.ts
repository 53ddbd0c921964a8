// Runs oz0 command lines in the test's process with captured output, so CLI tests are fast
// and see exactly what a user sees on stdout and stderr. With OZ0_TEST_CLI_THROUGH=server
// (`npm run test:cli-server`), every command that can go through a server does: a real server
// (test-server.ts: startServer over the home's runtime, on 127.0.0.1, in a process of its own)
// is started once per home and database, and the command runs with --server and a key in
// place of --home. The server's identity takes
// that key as the embedded CLI's own caller (the local admin of the command's tenant), so the
// two answer for the same person and every answer can be compared byte for byte; keys
// themselves are tested in server-client.test.ts and the server's tests. The commands that
// run only on this machine (src/local-only.ts) run embedded as before.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll } from "vitest";
import { type ChatLines, chatInput } from "../src/commands/chat.js";
import { localOnlyReason } from "../src/local-only.js";
import { Output } from "../src/output.js";
import { runCli } from "../src/program.js";
import { TEST_KEY } from "./test-server.js";

/** Whether this run sends the commands through a server. */
export const THROUGH_SERVER = process.env.OZ0_TEST_CLI_THROUGH === "server";

export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  /** stdout parsed as JSON (for `--json` runs). */
  json<T = unknown>(): T;
}

export async function oz0(
  args: readonly string[],
  options: { readonly onStderr?: (text: string) => void } = {},
): Promise<CliResult> {
  const through = THROUGH_SERVER ? await throughServer(args) : undefined;
  if (through === undefined) return runHere(args, options);
  const before = process.env.OZ0_API_KEY;
  process.env.OZ0_API_KEY = through.key;
  try {
    return await runHere(through.args, options);
  } finally {
    if (before === undefined) delete process.env.OZ0_API_KEY;
    else process.env.OZ0_API_KEY = before;
  }
}

async function runHere(
  args: readonly string[],
  options: { readonly onStderr?: (text: string) => void },
): Promise<CliResult> {
  let stdout = "";
  let stderr = "";
  const code = await runCli(
    args,
    new Output(
      (text) => {
        stdout += text;
      },
      (text) => {
        stderr += text;
        options.onStderr?.(text);
      },
    ),
  );
  return { code, stdout, stderr, json: <T>() => JSON.parse(stdout) as T };
}

/** A fresh oz0 home folder for one test file, removed by the returned cleanup (its server closed first). */
export async function tempHome(): Promise<{ home: string; cleanup: () => Promise<void> }> {
  const home = await mkdtemp(join(tmpdir(), "oz0-home-"));
  return {
    home,
    cleanup: async () => {
      await closeServers(home);
      await rm(home, { recursive: true, force: true });
    },
  };
}

// The servers of this test file, one per home and database, each a process of its own.
interface HomeServer {
  readonly home: string;
  readonly url: string;
  readonly process: ChildProcess;
}
const servers = new Map<string, Promise<HomeServer>>();

const TEST_SERVER = join(import.meta.dirname, "test-server.ts");
const RESOLVE_TS = join(import.meta.dirname, "../../runtime/test/store/fixtures/resolve-ts.ts");

afterAll(() => closeServers());

async function closeServers(home?: string): Promise<void> {
  for (const [at, started] of [...servers]) {
    const running = await started.catch(() => undefined);
    if (home !== undefined && running?.home !== home) continue;
    servers.delete(at);
    if (running === undefined || running.process.exitCode !== null) continue;
    const exited = once(running.process, "exit");
    running.process.kill("SIGTERM");
    await exited;
  }
}

/** Global options that take a value: skipped when reading a command line's command words. */
const VALUED = new Set(["--home", "--tenant", "--server", "--api-key-file"]);

/**
 * The command line as it goes through the home's server, with the key to send; undefined for
 * one that runs embedded.
 */
async function throughServer(args: readonly string[]): Promise<{ args: string[]; key: string } | undefined> {
  const words: string[] = [];
  let home: string | undefined;
  let tenant = "default";
  for (let at = 0; at < args.length; at++) {
    const arg = args[at]!;
    if (arg === "--home") home = args[at + 1];
    if (arg === "--tenant") tenant = args[at + 1] ?? tenant;
    if (VALUED.has(arg)) {
      at++;
      continue;
    }
    if (arg.startsWith("-")) {
      if (arg === "--json") continue;
      break;
    }
    if (words.length < 3) words.push(arg);
  }
  home ??= process.env.OZ0_HOME;
  if (home === undefined || words.length === 0) return undefined;
  if (args.some((arg) => arg === "--server" || arg === "--api-key-file" || arg === "--help" || arg === "-h"))
    return undefined;
  for (let count = 1; count <= words.length; count++) {
    if (localOnlyReason(words.slice(0, count).join(" ")) !== undefined) return undefined;
  }
  const running = await homeServer(home);
  const sent: string[] = [];
  for (let at = 0; at < args.length; at++) {
    if (args[at] === "--home") {
      at++;
      continue;
    }
    sent.push(args[at]!);
  }
  return { args: ["--server", running.url, ...sent], key: `${TEST_KEY}${tenant}` };
}

function homeServer(home: string): Promise<HomeServer> {
  const at = `${home}\n${process.env.OZ0_DATABASE_URL ?? ""}`;
  let started = servers.get(at);
  if (started === undefined) {
    started = (async () => {
      const child = spawn(
        process.execPath,
        ["--conditions=@oz0/source", "--no-warnings", "--import", RESOLVE_TS, TEST_SERVER, home],
        { stdio: ["ignore", "pipe", "pipe"], env: process.env },
      );
      let said = "";
      child.stderr.on("data", (chunk) => {
        said += String(chunk);
      });
      const [line] = (await Promise.race([
        once(createInterface({ input: child.stdout }), "line"),
        once(child, "exit").then(() => {
          throw new Error(`the test server of ${home} ended before it listened: ${said}`);
        }),
      ])) as [string];
      return { home, url: line.trim(), process: child };
    })();
    servers.set(at, started);
  }
  return started;
}

/** What a person at `oz0 chat` did: the lines chat read, and whether it closed the input. */
export interface Typed {
  /** How many prompts chat showed. */
  prompts: number;
  closed: boolean;
}

/**
 * The person types these lines at `oz0 chat`, then the input ends (the caller puts
 * `chatInput.open` back after the test).
 */
export function types(...lines: string[]): Typed {
  const typed: Typed = { prompts: 0, closed: false };
  chatInput.open = (): ChatLines => ({
    async *[Symbol.asyncIterator]() {
      for (const line of lines) {
        if (typed.closed) return;
        yield line;
      }
    },
    prompt: () => {
      typed.prompts += 1;
    },
    close: () => {
      typed.closed = true;
    },
  });
  return typed;
}

/**
 * The characters of `text` a terminal would act on rather than print: C0 controls but tab and
 * newline, DEL, C1 controls, and bidi embeddings, overrides, isolates and marks.
 */
export function terminalControls(text: string): string[] {
  return [...text].filter((char) => {
    const code = char.codePointAt(0) ?? 0;
    return (
      (code < 0x20 && char !== "\t" && char !== "\n") ||
      (code >= 0x7f && code <= 0x9f) ||
      code === 0x061c ||
      code === 0x200e ||
      code === 0x200f ||
      (code >= 0x202a && code <= 0x202e) ||
      (code >= 0x2066 && code <= 0x2069)
    );
  });
}
