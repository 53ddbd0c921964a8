// Separate worker processes on one store, for the tests that need real processes: a worker
// killed with SIGKILL (crash.test.ts), and two live workers after one job (lease.test.ts).
// Each runs crash-worker.ts with a task, and prints a JSON line for each lease wait and one
// with the job at the end.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";
import { JobEngine, type JobView } from "../../src/jobs/index.js";
import { openStore, type StoreOptions } from "../../src/store/index.js";
import type { WorkerTask } from "./crash-worker.js";
import { DirSource, fixture } from "./dir-source.js";

const WORKER = fileURLToPath(new URL("./crash-worker.ts", import.meta.url));
const RESOLVE_TS = fileURLToPath(new URL("../store/fixtures/resolve-ts.ts", import.meta.url));
/** How long a test waits for a worker to get somewhere before it gives up: a hang, not a budget. */
const PATIENCE_MS = 60_000;

export interface Scene {
  readonly dir: string;
  readonly ledger: string;
  readonly modelLog: string;
  readonly options: StoreOptions;
  readonly plugins: readonly string[];
  readonly job: string;
}

/** A new job of `agent` on the store `options` open, left queued, with files for the workers to write. */
export async function scene(
  options: StoreOptions,
  agent: string,
  plugins: readonly string[] = ["helpdesk"],
): Promise<Scene> {
  const dir = await mkdtemp(join(tmpdir(), "oz0-workers-"));
  const store = await openStore(options);
  try {
    const engine = new JobEngine({ store, source: await source(plugins), home: dir });
    const job = await engine.start({ tenant: "default", agent, input: "count" });
    return {
      dir,
      ledger: join(dir, "ledger.txt"),
      modelLog: join(dir, "model.txt"),
      options,
      plugins,
      job: job.id,
    };
  } finally {
    await store.close();
  }
}

function source(plugins: readonly string[]): Promise<DirSource> {
  return DirSource.load(plugins.map((name) => fixture(name)));
}

/** A worker process and what it printed so far. */
export interface Worker {
  readonly child: ChildProcess;
  /** Settles once the process exited and its output was read. */
  readonly closed: Promise<unknown>;
  readonly stdout: () => string[];
  readonly stderr: () => string;
}

export function startWorker(
  s: Scene,
  task: Partial<WorkerTask> & Pick<WorkerTask, "mode" | "leaseMs">,
  env: Readonly<Record<string, string>> = {},
): Worker {
  const full: WorkerTask = {
    options: s.options,
    home: s.dir,
    job: s.job,
    plugins: s.plugins,
    modelLog: s.modelLog,
    ...task,
  };
  const child = spawn(
    process.execPath,
    ["--conditions=@oz0/source", "--import", RESOLVE_TS, WORKER, JSON.stringify(full)],
    { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, OZ0_TEST_LEDGER: s.ledger, ...env } },
  );
  const closed = once(child, "close");
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return { child, closed, stdout: () => stdout.split("\n").filter(Boolean), stderr: () => stderr };
}

export function lines(file: string): string[] {
  return existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean) : [];
}

/** Waits until `check` holds, failing at once when a worker exits first. */
export async function until(
  check: () => boolean | Promise<boolean>,
  what: string,
  ...workers: Worker[]
): Promise<void> {
  const deadline = Date.now() + PATIENCE_MS;
  while (!(await check())) {
    for (const worker of workers) {
      if (worker.child.exitCode !== null)
        throw new Error(`a worker exited (${worker.child.exitCode}) before ${what}: ${worker.stderr()}`);
    }
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export async function kill(worker: Worker): Promise<void> {
  const exited = once(worker.child, "exit");
  worker.child.kill("SIGKILL");
  const [code, signal] = await exited;
  expect({ code, signal }).toEqual({ code: null, signal: "SIGKILL" });
}

/** Waits for the worker to exit and gives the job it printed last. */
export async function finish(worker: Worker): Promise<JobView> {
  await worker.closed;
  const last = JSON.parse(worker.stdout().at(-1) ?? "{}") as JobView & { error?: string };
  if (last.error !== undefined || worker.child.exitCode !== 0)
    throw new Error(`the worker failed: ${last.error ?? worker.stderr()}`);
  return last;
}

export async function history(s: Scene) {
  const store = await openStore(s.options);
  try {
    const engine = new JobEngine({ store, source: await source(s.plugins), home: s.dir });
    return await engine.events(s.job, { tenant: "default" });
  } finally {
    await store.close();
  }
}
