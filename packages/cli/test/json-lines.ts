/**
 * Reads a child's stdout as JSON lines for tests that wait for several of them in turn.
 *
 * One reader keeps every line from the start: a reader per wait drops the lines that came in
 * the same chunk as the one an earlier wait took, which under load is the very line the next
 * wait needs.
 */

import type { ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";

export type JsonLine = Record<string, unknown>;

export interface JsonLines {
  /** Resolves with the first line not yet taken that `wanted` accepts, however early it came. */
  next(wanted: (value: JsonLine) => boolean): Promise<JsonLine>;
}

interface Waiter {
  readonly wanted: (value: JsonLine) => boolean;
  readonly resolve: (value: JsonLine) => void;
  readonly reject: (error: Error) => void;
}

export function jsonLines(child: ChildProcess, name: string): JsonLines {
  const seen: JsonLine[] = [];
  const waiting: Waiter[] = [];
  let stderr = "";
  let closed: Error | undefined;
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const match = (): void => {
    for (const waiter of [...waiting]) {
      const at = seen.findIndex(waiter.wanted);
      if (at >= 0) waiter.resolve(seen.splice(at, 1)[0] as JsonLine);
      else if (closed !== undefined) waiter.reject(closed);
      else continue;
      waiting.splice(waiting.indexOf(waiter), 1);
    }
  };
  createInterface({ input: child.stdout! }).on("line", (text) => {
    seen.push(JSON.parse(text) as JsonLine);
    match();
  });
  // "close" comes after the last of stdout was read, where "exit" may come before it.
  child.once("close", (code) => {
    closed = new Error(`${name} exited (${code}) first: ${stderr}`);
    match();
  });
  return {
    next: (wanted) =>
      new Promise((resolve, reject) => {
        waiting.push({ wanted, resolve, reject });
        match();
      }),
  };
}
