// runtime: harness:<name> survives a crash of its worker: the worker is killed with SIGKILL in
// the middle of a harness's session (ACP: right after its first tool call was recorded; JSON
// lines: once the harness restarted after the person's answer). The job taken up from its
// history by another worker restarts the harness, which gets what is recorded from the
// history, so no recorded call runs again and no question is asked twice. The killed worker's
// harness, whose input ends with it, exits rather than run on unwatched.
import { execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JobEngine, type JobEvent } from "../../src/jobs/index.js";
import { governanceInterceptor } from "../../src/policy/index.js";
import { Runtime } from "../../src/runtime.js";
import { executionsOf } from "../policy/helpers.js";

const ACP_PLUGIN = fileURLToPath(new URL("../fixtures/runtimes/harness-acp", import.meta.url));
const JSONL_PLUGIN = fileURLToPath(new URL("../fixtures/runtimes/harness-jsonl", import.meta.url));
const AGENTS = fileURLToPath(new URL("../fixtures/harness-agents", import.meta.url));
const WORKER = fileURLToPath(new URL("./harness-crash-worker.ts", import.meta.url));
const RESOLVE_TS = fileURLToPath(new URL("../store/fixtures/resolve-ts.ts", import.meta.url));
const LEASE_MS = 1_500;

const launches = globalThis as {
  __oz0AcpHarness?: { command: string; args: string[] };
  __oz0JsonlHarness?: { command: string; args: string[] };
};
launches.__oz0AcpHarness = { command: process.execPath, args: [join(AGENTS, "acp-agent.mjs")] };
launches.__oz0JsonlHarness = { command: process.execPath, args: [join(AGENTS, "jsonl-agent.mjs")] };

/** No model of oz0's is asked anything on a harness: the harness has its own. */
const NO_MODEL = {
  id: "test:unused",
  async generate(): Promise<never> {
    throw new Error("a harness job asked oz0's model");
  },
};

let home: string;
let runtime: Runtime;
let engine: JobEngine;

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), "oz0-harness-crash-"));
  runtime = await Runtime.open({ home, defaultPlugins: [] });
  engine = new JobEngine({
    store: runtime.store,
    source: runtime.catalog,
    home,
    models: async () => NO_MODEL,
    interceptors: [governanceInterceptor(runtime.store)],
    leaseMs: LEASE_MS,
  });
});

afterAll(async () => {
  await runtime?.close();
  await rm(home, { recursive: true, force: true });
});

function ofKind<K extends JobEvent["kind"]>(
  events: readonly JobEvent[],
  kind: K,
): Extract<JobEvent, { kind: K }>[] {
  return events.filter((entry): entry is Extract<JobEvent, { kind: K }> => entry.kind === kind);
}

/** The harness processes the killed worker started, found by the marker in their arguments. */
function harnessesOf(marker: string): string[] {
  const listing = execFileSync("ps", ["-eo", "pid=,args="], { encoding: "utf8" });
  return listing
    .split("\n")
    .filter((line) => line.includes(marker) && !line.includes("harness-crash-worker"));
}

/** Waits (at most 10 s) for the killed worker's harness to be gone; what is left of it. */
async function leftOver(marker: string): Promise<string[]> {
  for (let tries = 0; tries < 100 && harnessesOf(marker).length > 0; tries += 1) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return harnessesOf(marker);
}

/** Runs the job in a worker process that kills itself with SIGKILL at the first `killOn` event. */
async function crashWorker(job: string, tenant: string, killOn: JobEvent["kind"]): Promise<string> {
  const marker = `oz0-harness-crash-${process.pid}-${job}`;
  const child = spawn(
    process.execPath,
    [
      "--conditions=@oz0/source",
      "--import",
      RESOLVE_TS,
      WORKER,
      JSON.stringify({ home, job, tenant, leaseMs: LEASE_MS, marker, killOn }),
    ],
    { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env } },
  );
  let said = "";
  child.stdout.on("data", (chunk) => {
    said += String(chunk);
  });
  child.stderr.on("data", (chunk) => {
    said += String(chunk);
  });
  const [code, signal] = await once(child, "exit");
  expect({ code, signal }, said).toEqual({ code: null, signal: "SIGKILL" });
  return marker;
}

describe("runtime: harness:<name> across a crash", () => {
  it("an ACP harness: the job whose worker was killed with SIGKILL mid-session is taken up, running no recorded tool call again", async () => {
    const tenant = "acp";
    await runtime.catalog.install(tenant, ACP_PLUGIN);
    const started = await runtime.jobs.start({ tenant, agent: "acp-lab/coder", input: "note write" });
    const marker = await crashWorker(started.id, tenant, "tool_result");
    const before = await runtime.jobs.events(started.id, { tenant });
    expect(ofKind(before, "tool_result").map((entry) => entry.data.callId)).toEqual(["1.1"]);

    const job = await engine.resume(started.id, { tenant });
    expect(job).toMatchObject({ status: "succeeded" });
    expect(job.output).toBe('note: ok {"noted":"opening"}\nwrite: ok {"written":"door"}');
    // audit.note ran in the killed worker; this one runs only vault.write.
    expect(executionsOf(started.id).map((call) => call.fn)).toEqual(["vault.write"]);
    const events = await runtime.jobs.events(started.id, { tenant });
    expect(ofKind(events, "job_claimed")).toHaveLength(2);
    expect(ofKind(events, "tool_result").map((entry) => entry.data.callId)).toEqual(["1.1", "2.1"]);
    expect(await leftOver(marker)).toEqual([]);
  });

  it("a JSON-lines harness: the job whose worker was killed with SIGKILL after the answer is taken up, asking nothing again", async () => {
    const tenant = "lines";
    await runtime.catalog.install(tenant, JSONL_PLUGIN);
    const started = await runtime.jobs.start({ tenant, agent: "lines-lab/painter", input: "the door" });
    expect(await engine.run(started.id, { tenant })).toMatchObject({ status: "waiting" });
    await engine.answer(started.id, "green", "alice", { tenant });
    const marker = await crashWorker(started.id, tenant, "harness_update");

    const job = await engine.resume(started.id, { tenant });
    expect(job).toMatchObject({ status: "succeeded", output: "colour: green" });
    const events = await runtime.jobs.events(started.id, { tenant });
    expect(ofKind(events, "job_claimed")).toHaveLength(3);
    expect(ofKind(events, "job_waiting")).toHaveLength(1);
    expect(ofKind(events, "answer_received")).toHaveLength(1);
    expect(await leftOver(marker)).toEqual([]);
  });
});
