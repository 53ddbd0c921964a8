// `oz0 worker` as a real process: SIGTERM drains it while a job is in flight in a tool that
// does not return, and the job is let go (queued, never lost) for another worker to finish;
// and `oz0 run --no-wait` with and without a live worker. On SQLite and on PostgreSQL.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type JobView, Runtime } from "@oz0/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disposeFixtures, engineFixtures } from "../../runtime/test/store/engines.js";
import { homeWithPlugins, LAB, type RunShape } from "./jobs-helpers.js";
import { jsonLines } from "./json-lines.js";
import { oz0 } from "./run-cli.js";

// The CLI from its sources, so the test needs no build (`npm test` on a fresh clone).
const MAIN = join(import.meta.dirname, "../src/main.ts");
const RESOLVE_TS = join(import.meta.dirname, "../../runtime/test/store/fixtures/resolve-ts.ts");
/** A slow poll no test could wait out. */
const HOUR_MS = 3_600_000;

const fixtures = engineFixtures().filter((fixture) => fixture.label !== "memory");
afterAll(() => disposeFixtures(fixtures));

/** Waits until `file` holds `text`: the fixture tool wrote its line and now hangs. */
async function written(file: string, text: string): Promise<void> {
  while (!(existsSync(file) && readFileSync(file, "utf8").includes(text))) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.each(fixtures)("oz0 worker on $label", (fixture) => {
  let home: string;
  let cleanup: (() => Promise<void>) | undefined;
  let databaseUrl: string | undefined;
  beforeAll(async () => {
    databaseUrl = (await fixture.fresh()).databaseUrl;
    if (databaseUrl !== undefined) process.env.OZ0_DATABASE_URL = databaseUrl;
    // The workers here are the tests' own: the home's commands stay embedded in the second pass.
    ({ home, cleanup } = await homeWithPlugins({ embedded: true }));
  });
  afterAll(async () => {
    delete process.env.OZ0_DATABASE_URL;
    await cleanup?.();
  });

  it("with --no-wait and a live worker, queues the job, which the worker takes at once", async () => {
    const runtime = await Runtime.open({ home, databaseUrl });
    let finished: (view: JobView) => void = () => {};
    const stopped = new Promise<JobView>((resolve) => {
      finished = resolve;
    });
    // On PostgreSQL the NOTIFY wakes it; on SQLite another connection's write is found by the poll.
    const worker = runtime.worker({
      pollMs: fixture.engine === "postgres" ? HOUR_MS : 100,
      onStopped: (view) => finished(view),
    });
    await worker.start();
    try {
      const started = await oz0(["run", "support-triage/triage", "ticket 7", "--no-wait", "--home", home]);
      expect(started.stdout).toMatch(/^job triage-[0-9a-z]+ is queued; a running worker takes it/);
      expect(await stopped).toMatchObject({ status: "succeeded", output: "billing" });
    } finally {
      await worker.drain();
      await runtime.close();
    }
  });

  it("drains on SIGTERM: the job in flight is let go, queued, and another worker finishes it", async () => {
    const started = await oz0([
      "run",
      "helpdesk/counter",
      "x",
      "--no-wait",
      "--json",
      "--home",
      home,
      "--tenant",
      LAB,
    ]);
    const job = started.json<RunShape>();
    const ledger = join(home, "ledger.txt");
    const worker = spawn(
      process.execPath,
      [
        "--conditions=@oz0/source",
        "--import",
        RESOLVE_TS,
        MAIN,
        "worker",
        "--json",
        "--grace",
        "0",
        "--home",
        home,
      ],
      {
        env: { ...process.env, OZ0_TEST_LEDGER: ledger, OZ0_TEST_HANG_ON: "two" },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    const lines = jsonLines(worker, "the worker");
    try {
      const claimed = await lines.next((value) => value.event === "claimed");
      expect(claimed).toMatchObject({ job: { id: job.id, status: "running" } });
      await written(ledger, " two\n");
      const drained = lines.next((value) => value.event === "drained");
      const exited = once(worker, "exit");
      worker.kill("SIGTERM");
      await drained;
      expect(await exited).toEqual([0, null]);
    } finally {
      if (worker.exitCode === null) worker.kill("SIGKILL");
    }
    const runtime = await Runtime.open({ home, databaseUrl });
    try {
      expect(await runtime.jobs.get(job.id, LAB)).toMatchObject({ status: "queued" });
      expect(await runtime.liveWorkers()).toBe(0);
      let finished: (view: JobView) => void = () => {};
      const stopped = new Promise<JobView>((resolve) => {
        finished = resolve;
      });
      const second = runtime.worker({ onStopped: (view) => finished(view) });
      await second.start();
      expect(await stopped).toMatchObject({ id: job.id, status: "succeeded", output: "counted" });
      await second.drain();
    } finally {
      await runtime.close();
    }
  });

  /** `oz0 worker` from its sources, with `args`, printing JSON lines. */
  function spawnWorker(args: readonly string[], env: NodeJS.ProcessEnv = process.env): ChildProcess {
    return spawn(
      process.execPath,
      ["--conditions=@oz0/source", "--import", RESOLVE_TS, MAIN, "worker", "--json", "--home", home, ...args],
      {
        env,
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
  }

  it("says as it starts how tools' processes are kept apart here, as OZ0_TOOL_ISOLATION chose", async () => {
    const plain = spawnWorker(["--tenant", LAB], { ...process.env, OZ0_TOOL_ISOLATION: "none" });
    const fromPlain = jsonLines(plain, "the worker");
    try {
      expect(await fromPlain.next((value) => value.event === "isolation")).toEqual({
        event: "isolation",
        mode: "none",
        reason: "OZ0_TOOL_ISOLATION=none",
      });
    } finally {
      await stop(plain);
    }
    const auto = spawnWorker(["--tenant", LAB], { ...process.env, OZ0_TOOL_ISOLATION: "auto" });
    const fromAuto = jsonLines(auto, "the worker");
    try {
      const said = await fromAuto.next((value) => value.event === "isolation");
      expect(said).toMatchObject({ event: "isolation", reason: expect.stringContaining("bubblewrap") });
      expect(["none", "bwrap"]).toContain(said.mode);
    } finally {
      await stop(auto);
    }
  });

  async function stop(worker: ChildProcess): Promise<void> {
    if (worker.exitCode !== null) return;
    const exited = once(worker, "exit");
    worker.kill("SIGTERM");
    await exited;
  }

  it("hands a plain oz0 run's job to a live worker in the same process, and follows its run to the answer", async () => {
    const runtime = await Runtime.open({ home, databaseUrl });
    const claimed: string[] = [];
    const worker = runtime.worker({
      pollMs: fixture.engine === "postgres" ? HOUR_MS : 100,
      onClaimed: (job) => claimed.push(job.id),
    });
    await worker.start();
    try {
      const result = await oz0(["run", "support-triage/triage", "ticket 7", "--json", "--home", home]);
      expect(result.code).toBe(0);
      const job = result.json<RunShape>();
      expect(job).toMatchObject({ agent: "support-triage/triage", status: "succeeded", output: "billing" });
      expect(claimed).toContain(job.id);
      const events = await runtime.jobs.events(job.id, { tenant: "default" });
      const claims = events.flatMap((entry) => (entry.kind === "job_claimed" ? [entry.data.node] : []));
      expect(claims).toEqual([worker.id]);
    } finally {
      await worker.drain();
      await runtime.close();
    }
  });

  it("hands a plain oz0 run's job to a live worker in another process, and follows its run to the answer", async () => {
    const worker = spawnWorker([]);
    const fromWorker = jsonLines(worker, "the worker");
    try {
      const started = await fromWorker.next((value) => value.event === "started");
      const claimed = fromWorker.next((value) => value.event === "claimed");
      const result = await oz0(["run", "support-triage/triage", "ticket 7", "--json", "--home", home]);
      expect(result.code).toBe(0);
      const job = result.json<RunShape>();
      expect(job).toMatchObject({ status: "succeeded", output: "billing" });
      expect(await claimed).toMatchObject({ job: { id: job.id } });
      const runtime = await Runtime.open({ home, databaseUrl });
      try {
        const events = await runtime.jobs.events(job.id, { tenant: "default" });
        const claims = events.flatMap((entry) => (entry.kind === "job_claimed" ? [entry.data.node] : []));
        expect(claims).toEqual([started.worker]);
      } finally {
        await runtime.close();
      }
    } finally {
      await stop(worker);
    }
  });

  it("takes only the jobs of the tenant an explicit --tenant names, and every tenant's without it", async () => {
    // Queued oldest first: a worker that took every tenant's jobs would take default's first.
    const other = await oz0([
      "run",
      "support-triage/triage",
      "ticket 7",
      "--no-wait",
      "--json",
      "--home",
      home,
    ]);
    const mine = await oz0([
      "run",
      "helpdesk/triage",
      "ticket 8",
      "--no-wait",
      "--json",
      "--home",
      home,
      "--tenant",
      LAB,
    ]);
    const otherJob = other.json<RunShape>();
    const labJob = mine.json<RunShape>();
    const only = spawnWorker(["--concurrency", "1", "--tenant", LAB]);
    const fromOnly = jsonLines(only, "the worker");
    try {
      expect(await fromOnly.next((value) => value.event === "started")).toMatchObject({ tenant: LAB });
      const stopped = fromOnly.next((value) => value.event === "stopped");
      expect(await fromOnly.next((value) => value.event === "claimed")).toMatchObject({
        job: { id: labJob.id },
      });
      expect(await stopped).toMatchObject({ job: { id: labJob.id, status: "succeeded" } });
    } finally {
      await stop(only);
    }
    const runtime = await Runtime.open({ home, databaseUrl });
    try {
      expect(await runtime.jobs.get(otherJob.id, "default")).toMatchObject({ status: "queued" });
    } finally {
      await runtime.close();
    }
    const every = spawnWorker(["--concurrency", "1"]);
    const fromEvery = jsonLines(every, "the worker");
    try {
      expect(await fromEvery.next((value) => value.event === "started")).toMatchObject({ tenant: null });
      const stopped = fromEvery.next((value) => value.event === "stopped");
      expect(await fromEvery.next((value) => value.event === "claimed")).toMatchObject({
        job: { id: otherJob.id },
      });
      expect(await stopped).toMatchObject({ job: { id: otherJob.id, status: "succeeded" } });
    } finally {
      await stop(every);
    }
  });
});
