// Runs oz0 command lines in the test's process with captured output, so CLI tests are fast
// and see exactly what a user sees on stdout and stderr.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Output } from "../src/output.js";
import { runCli } from "../src/program.js";

export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  /** stdout parsed as JSON (for `--json` runs). */
  json<T = unknown>(): T;
}

export async function oz0(args: readonly string[]): Promise<CliResult> {
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
      },
    ),
  );
  return { code, stdout, stderr, json: <T>() => JSON.parse(stdout) as T };
}

/** A fresh oz0 home folder for one test file, removed by the returned cleanup. */
export async function tempHome(): Promise<{ home: string; cleanup: () => Promise<void> }> {
  const home = await mkdtemp(join(tmpdir(), "oz0-home-"));
  return { home, cleanup: () => rm(home, { recursive: true, force: true }) };
}
