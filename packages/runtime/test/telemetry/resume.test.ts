// One trace across processes: a worker is killed with SIGKILL in the middle of a model call,
// another process takes the job up, and the spans both send belong to one trace, the second
// run's under the first run's span, through the trace context stored with the job. On SQLite
// and on PostgreSQL (the column is a migration of both).
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
import { DirSource, fixture } from "../jobs/dir-source.js";
import { disposeFixtures, engineFixtures } from "../store/engines.js";
import { attr, collector } from "./collector.js";
import type { TracedTask } from "./traced-worker.js";

const WORKER = fileURLToPath(new URL("./traced-worker.ts", import.meta.url));
const RESOLVE_TS = fileURLToPath(new URL("../store/fixtures/resolve-ts.ts", import.meta.url));
/** Short, so the second worker takes over soon after the first is killed; long enough for a loaded machine to renew it. */
const LEASE_MS = 2_000;
const TIMEOUT_MS = 60_000;

const fixtures = engineFixtures().filter((entry) => entry.label !== "memory");
// Dropping each PostgreSQL database takes seconds on a loaded machine.
afterAll(() => disposeFixtures(fixtures), 60_000);

function worker(task: TracedTask): ChildProcess {
  return spawn(
    process.execPath,
    ["--conditions=@oz0/source", "--import", RESOLVE_TS, WORKER, JSON.stringify(task)],
    {
      stdio: ["ignore", "pipe", "pipe"],
      env: { PATH: process.env.PATH, HOME: process.env.HOME, OZ0_TEST_LEDGER: join(task.home, "ledger.txt") },
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
  while (!check()) {
    if (child.exitCode !== null)
      throw new Error(`the worker exited (${child.exitCode}) before ${what}: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
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

async function storedTraceparent(options: StoreOptions, job: string): Promise<string | null | undefined> {
  const store = await openStore(options);
  try {
    const row = await store.db
      .selectFrom("jobs")
      .select("traceparent")
      .where("id", "=", job)
      .executeTakeFirst();
    return row?.traceparent;
  } finally {
    await store.close();
  }
}

describe.concurrent.each(fixtures)("trace continuity on $label", (engine) => {
  it(
    "a job resumed in another process after its worker was killed continues the trace, under its first run's span",
    async () => {
      const options = await engine.fresh();
      const home = await mkdtemp(join(tmpdir(), "oz0-traced-"));
      const c = await collector();
      try {
        const store = await openStore(options);
        const started = await new JobEngine({
          store,
          source: await DirSource.load([fixture("helpdesk")]),
          home,
        })
          .start({ tenant: "default", agent: "helpdesk/counter", input: "count" })
          .finally(() => store.close());
        const modelLog = join(home, "model.txt");
        const task = { options, home, job: started.id, leaseMs: LEASE_MS, endpoint: c.endpoint, modelLog };
        const first = worker({ ...task, mode: "run", hangAtModelStep: 2 });
        await until(() => lines(modelLog).length === 2, "the second model call started", first);
        const exited = once(first, "exit");
        first.kill("SIGKILL");
        await exited;
        const job = await finish(worker({ ...task, mode: "work" }));
        expect(job).toMatchObject({ id: started.id, status: "succeeded", output: "counted" });

        const spans = c.spans();
        // The killed run's own span never ended; what it had finished was sent before the kill.
        const runs = spans.filter((span) => span.name === "invoke_agent helpdesk/counter");
        // The killed run recorded its first step: the resumed one is a first attempt again.
        expect(runs.map((span) => attr(span, "oz0.job.attempt"))).toEqual([1]);
        const [resumed] = runs;
        const firstChat = spans.find((span) => span.name.startsWith("chat") && attr(span, "oz0.step") === 1);
        expect(firstChat).toBeDefined();
        const stored = await storedTraceparent(options, started.id);
        expect(stored).toBe(`00-${firstChat!.traceId}-${firstChat!.parentSpanId}-01`);
        expect(resumed!.traceId).toBe(firstChat!.traceId);
        expect(resumed!.parentSpanId).toBe(firstChat!.parentSpanId);
        expect(new Set(spans.map((span) => span.traceId))).toEqual(new Set([resumed!.traceId]));
        const resumedChats = spans.filter(
          (span) => span.name.startsWith("chat") && span.parentSpanId === resumed!.spanId,
        );
        expect(resumedChats.map((span) => attr(span, "oz0.step"))).toEqual([2, 3, 4]);
      } finally {
        await c.close();
        await rm(home, { recursive: true, force: true });
      }
    },
    TIMEOUT_MS,
  );
});
