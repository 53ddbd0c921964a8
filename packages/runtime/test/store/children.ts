// Runs store tasks in real child processes that start their work at the same moment, for
// the tests of several oz0 processes sharing one database.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import type { ChildResult, ChildTask } from "./fixtures/store-child.js";

const CHILD = fileURLToPath(new URL("./fixtures/store-child.ts", import.meta.url));
const RESOLVE_TS = fileURLToPath(new URL("./fixtures/resolve-ts.ts", import.meta.url));

interface RunningChild {
  readonly process: ChildProcess;
  readonly ready: Promise<void>;
  readonly result: Promise<ChildResult>;
}

/** Starts one child per task, waits until each has loaded the store, then lets all go at once. */
export async function runTogether(tasks: readonly ChildTask[]): Promise<ChildResult[]> {
  const children = tasks.map(startChild);
  try {
    await Promise.all(children.map((child) => child.ready));
    for (const child of children) child.process.stdin?.write("go\n");
    return await Promise.all(children.map((child) => child.result));
  } finally {
    for (const child of children) if (child.process.exitCode === null) child.process.kill();
  }
}

function startChild(task: ChildTask): RunningChild {
  // The sources import @oz0/sdk by name; this condition points it at the SDK's sources.
  const child = spawn(
    process.execPath,
    ["--conditions=@oz0/source", "--import", RESOLVE_TS, CHILD, JSON.stringify(task)],
    { stdio: ["pipe", "pipe", "pipe"] },
  );
  let stdout = "";
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.startsWith("ready\n")) resolve();
    });
    child.on("exit", () => reject(new Error(`the child exited before it was ready: ${stdout}${stderr}`)));
  });
  const result = once(child, "exit").then((): ChildResult => {
    const last = stdout.trim().split("\n").at(-1) ?? "";
    try {
      return JSON.parse(last) as ChildResult;
    } catch {
      return { ok: false, error: `the child printed no result (exit ${child.exitCode}): ${stdout}${stderr}` };
    }
  });
  // `ready` may never be awaited if a sibling fails first; its rejection is reported through `result`.
  ready.catch(() => {});
  return { process: child, ready, result };
}
