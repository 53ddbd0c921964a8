// A tool's processes: started in a folder inside its roots, with a clean environment (PATH,
// HOME set to the agent's folder, a locale, and what the tool passes), a time limit after
// which the whole process group is killed, and a cap on the output kept. With isolation
// (isolation.ts) the process also runs in a bubblewrap sandbox that sees only its roots.
import { spawn } from "node:child_process";
import type { ExecOptions, ExecResult } from "@oz0/sdk";
import { Oz0Error } from "@oz0/sdk";
import { type Isolation, sandboxArgs } from "./isolation.js";
import type { Confinement } from "./roots.js";

/** The longest a process runs, whatever a tool asks: 10 minutes; 60 s when it asks nothing. */
export const MAX_EXEC_MS = 10 * 60 * 1000;
export const DEFAULT_EXEC_MS = 60 * 1000;
/** The most of stdout and of stderr kept, whatever a tool asks: 16 MiB; 1 MiB when it asks nothing. */
export const MAX_OUTPUT_BYTES = 16 * 1024 * 1024;
export const DEFAULT_OUTPUT_BYTES = 1024 * 1024;

/** The PATH a tool's process gets: the system's usual folders, never the worker's own PATH. */
export const CLEAN_PATH = "/usr/local/bin:/usr/bin:/bin";

export interface ExecSetting {
  readonly confinement: Confinement;
  readonly isolation: Isolation;
  /** HOME for the process: the agent's folder. */
  readonly home: string;
}

export async function execConfined(
  setting: ExecSetting,
  command: string,
  args: readonly string[] = [],
  options: ExecOptions = {},
): Promise<ExecResult> {
  const { confinement, isolation } = setting;
  if (typeof command !== "string" || command === "" || command.includes("\0")) {
    throw new Oz0Error("INVALID_INPUT", "runtime.exec: the command must be a program name or path");
  }
  const { real: cwd } = await confinement.existing(options.cwd ?? confinement.base, "read");
  // A program named by a relative path is a file of the roots, confined like any other.
  const program =
    command.includes("/") && !command.startsWith("/")
      ? (await confinement.existing(command, "read")).real
      : command;
  const timeoutMs = Math.min(options.timeoutMs ?? DEFAULT_EXEC_MS, MAX_EXEC_MS);
  const maxBytes = Math.min(options.maxOutputBytes ?? DEFAULT_OUTPUT_BYTES, MAX_OUTPUT_BYTES);
  const env: Record<string, string> = {
    PATH: CLEAN_PATH,
    HOME: setting.home,
    LANG: "C.UTF-8",
    ...options.env,
  };
  const argv =
    isolation.mode === "bwrap"
      ? {
          file: isolation.program,
          args: [...sandboxArgs(await confinement.realRoots(), cwd), "--", program, ...args],
        }
      : { file: program, args: [...args] };
  const started = performance.now();
  return new Promise<ExecResult>((done, fail) => {
    const child = spawn(argv.file, argv.args, {
      cwd,
      env,
      stdio: ["pipe", "pipe", "pipe"],
      // Its own process group, so a kill reaches what it started too.
      detached: true,
    });
    const out = new Capped(maxBytes);
    const err = new Capped(maxBytes);
    let timedOut = false;
    const kill = () => {
      if (child.pid === undefined || child.exitCode !== null) return;
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        child.kill("SIGKILL");
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, timeoutMs);
    const onAbort = () => kill();
    options.signal?.addEventListener("abort", onAbort, { once: true });
    child.stdout.on("data", (chunk: Buffer) => out.add(chunk));
    child.stderr.on("data", (chunk: Buffer) => err.add(chunk));
    child.stdin.on("error", () => undefined);
    child.stdin.end(options.stdin ?? "");
    child.on("error", (error) => {
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      const code = (error as NodeJS.ErrnoException).code;
      fail(
        code === "ENOENT"
          ? new Oz0Error("NOT_FOUND", `runtime.exec: no program '${command}' on ${CLEAN_PATH}`, {
              data: { kind: "program", name: command },
            })
          : error,
      );
    });
    child.on("close", (exitCode, signal) => {
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      done({
        exitCode,
        signal,
        stdout: out.text(),
        stderr: err.text(),
        timedOut,
        truncated: out.cut || err.cut,
        durationMs: Math.round(performance.now() - started),
      });
    });
  });
}

/** Output kept up to a byte cap; what comes after is dropped and marked. */
class Capped {
  readonly #max: number;
  readonly #chunks: Buffer[] = [];
  #bytes = 0;
  cut = false;

  constructor(max: number) {
    this.#max = max;
  }

  add(chunk: Buffer): void {
    const room = this.#max - this.#bytes;
    if (room <= 0) {
      this.cut = true;
      return;
    }
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    if (kept !== chunk) this.cut = true;
    this.#chunks.push(kept);
    this.#bytes += kept.length;
  }

  text(): string {
    return Buffer.concat(this.#chunks).toString("utf8");
  }
}
