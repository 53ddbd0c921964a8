// Crash safety with real processes: a worker is killed with SIGKILL in the middle of a tool
// call and in the middle of a model call; another process takes the job up from its history
// once the dead worker's lease runs out, repeating no completed step. The in-flight step runs
// again at most once per crash, with the same idempotency key. On SQLite and on PostgreSQL.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { JobEngine, type JobView } from "../../src/jobs/index.js";
import { openStore, type StoreOptions } from "../../src/store/index.js";
import { disposeFixtures, engineFixtures } from "../store/engines.js";
import type { WorkerTask } from "./crash-worker.js";
import { DirSource, fixture } from "./dir-source.js";
import { ofKind } from "./helpers.js";

const WORKER = fileURLToPath(new URL("./crash-worker.ts", import.meta.url));
const RESOLVE_TS = fileURLToPath(new URL("../store/fixtures/resolve-ts.ts", import.meta.url));
/** Short, so the second worker takes over soon after the first is killed; long enough that a live worker on a loaded 2-core machine renews it in time. */
const LEASE_MS = 2_000;
/** Each test starts two Node processes, which can take seconds each on a busy machine. */
const TIMEOUT_MS = 60_000;

const fixtures = engineFixtures().filter((entry) => entry.label !== "memory");
afterAll(() => disposeFixtures(fixtures));

interface Scene {
  readonly dir: string;
  readonly ledger: string;
  readonly modelLog: string;
  readonly options: StoreOptions;
  readonly job: string;
}

async function scene(options: StoreOptions, agent: string): Promise<Scene> {
  const dir = await mkdtemp(join(tmpdir(), "oz0-crash-"));
  const store = await openStore(options);
  try {
    const engine = new JobEngine({ store, source: await DirSource.load([fixture("helpdesk")]), home: dir });
    const job = await engine.start({ tenant: "default", agent, input: "count" });
    return { dir, ledger: join(dir, "ledger.txt"), modelLog: join(dir, "model.txt"), options, job: job.id };
  } finally {
    await store.close();
  }
}

function startWorker(
  s: Scene,
  task: Partial<WorkerTask> & Pick<WorkerTask, "mode">,
  hangOn?: string,
): ChildProcess {
  const full: WorkerTask = {
    options: s.options,
    home: s.dir,
    job: s.job,
    leaseMs: LEASE_MS,
    modelLog: s.modelLog,
    ...task,
  };
  return spawn(
    process.execPath,
    ["--conditions=@oz0/source", "--import", RESOLVE_TS, WORKER, JSON.stringify(full)],
    {
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        ...process.env,
        OZ0_TEST_LEDGER: s.ledger,
        ...(hangOn === undefined ? {} : { OZ0_TEST_HANG_ON: hangOn }),
      },
    },
  );
}

function lines(file: string): string[] {
  return existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean) : [];
}

async function until(check: () => boolean, what: string, child: ChildProcess): Promise<void> {
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const deadline = Date.now() + 40_000;
  while (!check()) {
    if (child.exitCode !== null)
      throw new Error(`the worker exited (${child.exitCode}) before ${what}: ${stderr}`);
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function kill(child: ChildProcess): Promise<void> {
  const exited = once(child, "exit");
  child.kill("SIGKILL");
  const [code, signal] = await exited;
  expect({ code, signal }).toEqual({ code: null, signal: "SIGKILL" });
}

async function finish(child: ChildProcess): Promise<JobView> {
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  await once(child, "exit");
  const last = JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}") as JobView & { error?: string };
  if (last.error !== undefined || child.exitCode !== 0)
    throw new Error(`the worker failed: ${last.error ?? stderr}`);
  return last;
}

async function history(s: Scene) {
  const store = await openStore(s.options);
  try {
    const engine = new JobEngine({ store, source: await DirSource.load([fixture("helpdesk")]), home: s.dir });
    return await engine.events(s.job);
  } finally {
    await store.close();
  }
}

describe.concurrent.each(fixtures)("crash safety on $label", (fixture) => {
  it(
    "takes up a job whose worker was killed in the middle of a tool call, running that call once more with the same key",
    async () => {
      const s = await scene(await fixture.fresh(), "helpdesk/counter");
      try {
        const first = startWorker(s, { mode: "run" }, "two");
        await until(() => lines(s.ledger).length === 2, "the second call started", first);
        await kill(first);
        const job = await finish(startWorker(s, { mode: "work" }));
        expect(job).toMatchObject({ id: s.job, status: "succeeded", output: "counted" });
        const [one, two, twoAgain, three] = lines(s.ledger);
        expect([one, two, twoAgain, three]).toEqual([
          `${s.job}:1.1 1 one`,
          `${s.job}:2.1 1 two`,
          `${s.job}:2.1 2 two`,
          `${s.job}:3.1 1 three`,
        ]);
        const events = await history(s);
        expect(ofKind(events, "job_claimed").map((entry) => entry.data.attempt)).toEqual([1, 2]);
        expect(ofKind(events, "tool_call_retried").map((entry) => entry.data)).toEqual([
          { callId: "2.1", attempt: 2, args: { entry: "two" } },
        ]);
        expect(ofKind(events, "tool_result").map((entry) => entry.data.callId)).toEqual([
          "1.1",
          "2.1",
          "3.1",
        ]);
        // The model was not asked again for a step it had answered.
        expect(lines(s.modelLog)).toEqual(["1", "2", "3", "4"]);
      } finally {
        await rm(s.dir, { recursive: true, force: true });
      }
    },
    TIMEOUT_MS,
  );

  it(
    "takes up a job whose worker was killed in the middle of a model call, repeating no completed step",
    async () => {
      const s = await scene(await fixture.fresh(), "helpdesk/counter");
      try {
        const first = startWorker(s, { mode: "run", hangAtModelStep: 2 });
        await until(() => lines(s.modelLog).length === 2, "the second model call started", first);
        await kill(first);
        const job = await finish(startWorker(s, { mode: "work" }));
        expect(job).toMatchObject({ id: s.job, status: "succeeded", output: "counted" });
        expect(lines(s.ledger)).toEqual([`${s.job}:1.1 1 one`, `${s.job}:2.1 1 two`, `${s.job}:3.1 1 three`]);
        // Model call 2 was in flight when the worker died: it runs again, once; call 1 does not.
        expect(lines(s.modelLog)).toEqual(["1", "2", "2", "3", "4"]);
        const events = await history(s);
        expect(ofKind(events, "model_call").map((entry) => entry.data.step)).toEqual([1, 2, 3, 4]);
        expect(ofKind(events, "job_claimed").map((entry) => entry.data.attempt)).toEqual([1, 2]);
      } finally {
        await rm(s.dir, { recursive: true, force: true });
      }
    },
    TIMEOUT_MS,
  );
});
