// A harness's process: started for one run of one job in the session's workspace, with a clean
// environment (PATH, HOME set to the workspace, and what the harness registered), in its own
// process group so that stopping it stops whatever it started too.
import { type ChildProcessByStdio, spawn } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import { Oz0Error } from "@oz0/sdk";
import { CLEAN_PATH } from "../../mediated/index.js";
import type { HarnessSetting } from "../types.js";

export type HarnessChild = ChildProcessByStdio<Writable, Readable, Readable>;

/** How long a harness told to cancel has to stop before its process group is killed. */
export const CANCEL_GRACE_MS = 2000;

/** How much of a harness's stderr the trace keeps, from its end. */
const STDERR_KEPT = 4096;

export interface StartedHarness {
  readonly child: HarnessChild;
  /** Settles once the process exited and its output was read to the end, with how it ended; never rejects. */
  readonly exited: Promise<{ readonly code: number | null; readonly signal: string | null }>;
  /** The end of what it wrote to stderr. */
  stderr(): string;
  /** Stops the process group now. */
  kill(): void;
}

export function startHarness(setting: HarnessSetting): StartedHarness {
  const { spec, workspace } = setting;
  const child = spawn(spec.command, [...(spec.args ?? [])], {
    cwd: workspace,
    env: { PATH: CLEAN_PATH, HOME: workspace, LANG: "C.UTF-8", ...spec.env },
    stdio: ["pipe", "pipe", "pipe"],
    detached: true,
  });
  let stderr = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk: string) => {
    stderr = (stderr + chunk).slice(-STDERR_KEPT);
  });
  child.stdin.on("error", () => undefined);
  const exited = new Promise<{ code: number | null; signal: string | null }>((done) => {
    child.on("error", (error) => {
      stderr += `\n${error.message}`;
      done({ code: null, signal: null });
    });
    // `close`, not `exit`: every line it wrote is read by then.
    child.on("close", (code, signal) => done({ code, signal }));
  });
  const kill = () => {
    if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      child.kill("SIGKILL");
    }
  };
  return { child, exited, stderr: () => stderr.trim(), kill };
}

/** How the process ended, as a failure says it, with the end of its stderr. */
export function howItEnded(
  started: StartedHarness,
  exit: { readonly code: number | null; readonly signal: string | null },
): string {
  const how = exit.signal === null ? `exited with code ${exit.code}` : `was killed (${exit.signal})`;
  const stderr = started.stderr();
  return `its process ${how} during the session${stderr === "" ? "" : `: ${stderr}`}`;
}

/** The error a harness that broke off or misbehaved ends the run with. */
export function harnessFailed(name: string, cause: string): Oz0Error {
  return new Oz0Error("HARNESS_FAILED", `harness '${name}': ${cause}`, { data: { harness: name, cause } });
}
