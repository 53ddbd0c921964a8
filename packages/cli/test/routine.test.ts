// `oz0 routine …` on a store with no worker but the one a test starts: a tenant's routines
// listed, fired, paused, resumed and their history, with --json everywhere; and `oz0 worker` as
// a real process fires a routine that comes due (routine-changes.test.ts adds, removes and
// re-keys them in both passes).
import { spawn } from "node:child_process";
import { once } from "node:events";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jsonLines } from "./json-lines.js";
import { oz0, tempHome } from "./run-cli.js";

const MAIN = join(import.meta.dirname, "../src/main.ts");
const RESOLVE_TS = join(import.meta.dirname, "../../runtime/test/store/fixtures/resolve-ts.ts");
const CLOCKWORK = join(import.meta.dirname, "../../runtime/test/fixtures/routines/clockwork");

let home: string;
let cleanup: () => Promise<void>;
const run = (...args: string[]) => oz0([...args, "--home", home]);

beforeAll(async () => {
  // No worker runs on this store but the one a test starts: its commands stay embedded.
  ({ home, cleanup } = await tempHome({ embedded: true }));
  const installed = await run("plugin", "install", CLOCKWORK);
  expect(installed.code, installed.stderr).toBe(0);
});
afterAll(() => cleanup());

describe("oz0 routine", () => {
  it("lists a plugin's routines with their identity and policies, as text and --json", async () => {
    const listed = await run("routine", "list", "--json");
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.json()).toEqual([
      expect.objectContaining({
        name: "clockwork/read-only",
        source: "plugin",
        event: "webhook",
        overlap: "skip",
        identity: { actor: "routine:clockwork/read-only", role: "runner", agents: ["reporter"] },
        tools: ["notes.read"],
        secret: false,
      }),
      expect.objectContaining({ name: "clockwork/after-summary", event: "job.ended:summarizer" }),
    ]);
    const text = await run("routine", "list");
    expect(text.stdout).toMatch(/^NAME +TRIGGER +RUN +AS +OVERLAP +STATE +NEXT +LAST\n/);
    expect(text.stdout).toContain("no secret");
    expect(text.stderr).toBe(
      "oz0: no worker is running on this store; routines fire only while oz0 worker runs\n",
    );
  });

  it("adds a tenant routine, fires it by hand, pauses and resumes it, shows its history, and removes it", async () => {
    const added = await run(
      "routine",
      "add",
      "nightly",
      "--run",
      "clockwork/summarizer",
      "--schedule",
      "0 0 3 * * *",
      "--timezone",
      "Europe/Paris",
      "--overlap",
      "queue",
      "--max-turns",
      "3",
    );
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toBe("routine nightly added: 0 0 3 * * * (Europe/Paris) → clockwork/summarizer\n");
    const fired = await run("routine", "fire", "nightly", "--input", "now", "--json");
    expect(fired.code, fired.stderr).toBe(0);
    expect(fired.json()).toMatchObject({ routine: "nightly", cause: "manual", outcome: "started" });
    const job = fired.json<{ job: string }>().job;
    const got = await run("job", "get", job, "--json");
    expect(got.json()).toMatchObject({ id: job, agent: "clockwork/summarizer" });
    expect((await run("routine", "pause", "nightly")).stdout).toBe("routine nightly paused\n");
    const refused = await run("routine", "fire", "nightly");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      "oz0: routine nightly is paused, so it fires nothing; resume it with oz0 routine resume nightly.\n",
    );
    expect((await run("routine", "resume", "nightly")).stdout).toBe("routine nightly resumed\n");
    // The first job has not ended: with overlap: queue the next fire waits behind it.
    const queued = await run("routine", "fire", "nightly", "--json");
    expect(queued.json()).toMatchObject({ outcome: "queued", job: null });
    const history = await run("routine", "history", "nightly", "--json");
    expect(history.json<{ outcome: string }[]>().map((fire) => fire.outcome)).toEqual(["queued", "started"]);
    expect((await run("routine", "history", "nightly")).stdout).toMatch(
      /^AT +CAUSE +OUTCOME +TICK +JOB +DETAIL\n/,
    );
    expect((await run("routine", "remove", "nightly", "--json")).json()).toEqual({ removed: "nightly" });
    expect((await run("routine", "history", "nightly")).stderr).toContain("has no routine nightly");
  });
});

describe("oz0 worker and routines", () => {
  it("fires a scheduled routine as it comes due, and runs its job", async () => {
    const added = await run(
      "routine",
      "add",
      "often",
      "--run",
      "clockwork/summarizer",
      "--schedule",
      "* * * * * *",
    );
    expect(added.code, added.stderr).toBe(0);
    const worker = spawn(
      process.execPath,
      ["--conditions=@oz0/source", "--import", RESOLVE_TS, MAIN, "worker", "--json", "--home", home],
      {
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    const lines = jsonLines(worker, "the worker");
    try {
      const fired = await lines.next(
        (value) => value.event === "routine" && value.routine === "often" && value.outcome === "started",
      );
      expect(fired).toMatchObject({ routine: "often", outcome: "started" });
      const stopped = await lines.next(
        (value) => value.event === "stopped" && (value.job as { id: string }).id === fired.job,
      );
      expect(stopped).toMatchObject({ job: { agent: "clockwork/summarizer", status: "succeeded" } });
      const exited = once(worker, "exit");
      worker.kill("SIGTERM");
      expect(await exited).toEqual([0, null]);
    } finally {
      if (worker.exitCode === null) worker.kill("SIGKILL");
      await run("routine", "remove", "often");
    }
  });
});
