// Runs oz0 command lines in the test's process with captured output, so CLI tests are fast
// and see exactly what a user sees on stdout and stderr.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ChatLines, chatInput } from "../src/commands/chat.js";
import { Output } from "../src/output.js";
import { runCli } from "../src/program.js";

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

/** A fresh oz0 home folder for one test file, removed by the returned cleanup. */
export async function tempHome(): Promise<{ home: string; cleanup: () => Promise<void> }> {
  const home = await mkdtemp(join(tmpdir(), "oz0-home-"));
  return { home, cleanup: () => rm(home, { recursive: true, force: true }) };
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
