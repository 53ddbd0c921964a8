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
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, expect } from "vitest";
import { type ChatLines, chatInput } from "../src/commands/chat.js";
import { localOnlyReason } from "../src/local-only.js";
import { Output } from "../src/output.js";
import { runCli } from "../src/program.js";
import { RUN_ONCE } from "./run-once.js";

/** Whether this run sends the commands through a server. */
export const THROUGH_SERVER = process.env.OZ0_TEST_CLI_THROUGH === "server";

export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  /** stdout parsed as JSON (for `--json` runs). */
  json<T = unknown>(): T;
}

export interface RunHooks {
  readonly onStderr?: (text: string) => void;
  /** Each write to stdout as it is made: a streamed answer is many. */
  readonly onStdout?: (text: string) => void;
}

export async function oz0(args: readonly string[], options: RunHooks = {}): Promise<CliResult> {
  if (!THROUGH_SERVER) await checkRunOnce(args);
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

async function runHere(args: readonly string[], options: RunHooks): Promise<CliResult> {
  let stdout = "";
  let stderr = "";
  const code = await runCli(
    args,
    new Output(
      (text) => {
        stdout += text;
        options.onStdout?.(text);
      },
      (text) => {
        stderr += text;
        options.onStderr?.(text);
      },
    ),
  );
  return { code, stdout, stderr, json: <T>() => JSON.parse(stdout) as T };
}

/** Homes whose commands run embedded in both passes. */
const embeddedHomes = new Set<string>();

/**
 * A fresh oz0 home folder for one test file, removed by the returned cleanup (its server closed
 * first). `embedded`: its commands run embedded in the second pass too, for a test of what a
 * store without a live worker does (a server always runs one).
 */
export async function tempHome(
  options: { readonly embedded?: boolean } = {},
): Promise<{ home: string; cleanup: () => Promise<void> }> {
  const home = await mkdtemp(join(tmpdir(), "oz0-home-"));
  if (options.embedded === true) embeddedHomes.add(home);
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
const servers = new Map<string, Promise<HomeServer | undefined>>();

const TEST_SERVER = join(import.meta.dirname, "test-server.ts");
/** The key that stands for the local admin of the tenant after it, on the tests' servers. */
const TEST_KEY = "oz0-cli-test-local-admin-of:";
const RESOLVE_TS = join(import.meta.dirname, "../../runtime/test/store/fixtures/resolve-ts.ts");
const REPOSITORY = join(import.meta.dirname, "../../..");

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
  const through = await serverCommand(args);
  if (through === undefined) return undefined;
  const running = await homeServer(through.home);
  if (running === undefined) return undefined;
  return { args: ["--server", running.url, ...through.sent], key: `${TEST_KEY}${through.tenant}` };
}

/**
 * Whether the command line goes through a server in the second pass: the home whose server it
 * goes to, its tenant, and the line less --home; undefined for one that runs embedded.
 */
async function serverCommand(
  args: readonly string[],
): Promise<{ home: string; tenant: string; sent: string[] } | undefined> {
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
  if (home !== undefined && embeddedHomes.has(home)) return undefined;
  // A home that is not there yet is made (or refused) by the embedded command, as ever.
  if (
    home !== undefined &&
    !(await stat(home)
      .then((info) => info.isDirectory())
      .catch(() => false))
  )
    return undefined;
  if (home === undefined || words.length === 0) return undefined;
  if (args.some((arg) => arg === "--server" || arg === "--api-key-file" || arg === "--help" || arg === "-h"))
    return undefined;
  for (let count = 1; count <= words.length; count++) {
    if (localOnlyReason(words.slice(0, count).join(" ")) !== undefined) return undefined;
  }
  const sent: string[] = [];
  for (let at = 0; at < args.length; at++) {
    if (args[at] === "--home") {
      at++;
      continue;
    }
    sent.push(args[at]!);
  }
  return { home, tenant, sent };
}

const RUN_ONCE_FILES = new Set(RUN_ONCE.map((file) => join(REPOSITORY, file)));

/**
 * In the first pass, refuses a command of a file the second pass leaves out (run-once.ts) that
 * would go through a server there: the second pass would test something new with it.
 */
async function checkRunOnce(args: readonly string[]): Promise<void> {
  const file = expect.getState().testPath;
  if (file === undefined || !RUN_ONCE_FILES.has(file)) return;
  if ((await serverCommand(args)) === undefined) return;
  throw new Error(
    `${relative(REPOSITORY, file)} is in run-once.ts, which the cli-through-server project leaves out, ` +
      `but oz0 ${args.join(" ")} would go through a server there: take the file off the list`,
  );
}

/**
 * The server of `home`, started with the environment a server of its own reads (the database,
 * where its spans go) as it is now: one of another environment is closed first, so one worker
 * at a time runs the home's jobs.
 */
async function homeServer(home: string): Promise<HomeServer | undefined> {
  const at = [home, process.env.OZ0_DATABASE_URL ?? "", process.env.OTEL_EXPORTER_OTLP_ENDPOINT ?? ""].join(
    "\n",
  );
  let started = servers.get(at);
  if (started === undefined) {
    await closeServers(home);
    started = (async () => {
      const child = spawn(
        process.execPath,
        ["--conditions=@oz0/source", "--no-warnings", "--import", RESOLVE_TS, TEST_SERVER, home, TEST_KEY],
        { stdio: ["ignore", "pipe", "pipe"], env: process.env },
      );
      child.stderr.resume();
      // A home no server can open (one under /proc) runs its commands embedded, to show why.
      const listening = await Promise.race([
        once(createInterface({ input: child.stdout }), "line").then(([line]) => String(line).trim()),
        once(child, "exit").then(() => undefined),
      ]);
      if (listening === undefined) return undefined;
      return { home, url: listening, process: child };
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
