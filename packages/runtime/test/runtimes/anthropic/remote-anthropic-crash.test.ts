// runtime: remote:anthropic survives a crash of its worker: the process is killed with SIGKILL
// mid-session, after the session ran a tool, and the job taken up from its history reattaches to
// the same session at Claude Managed Agents: no second agent, environment, session, message or
// confirmation, and the steps recorded before the crash are replayed, not counted again.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Runtime } from "../../../src/runtime.js";
import { AGENTS_URL_VARIABLE } from "../../../src/runtimes/index.js";
import { FAKE_KEY, type FakeManagedAgents, startManagedAgents } from "./managed-agents-server.js";

const STUDIO = fileURLToPath(new URL("../../fixtures/runtimes/anthropic", import.meta.url));
const WORKER = fileURLToPath(new URL("./crash-worker.ts", import.meta.url));
const RESOLVE_TS = fileURLToPath(new URL("../../store/fixtures/resolve-ts.ts", import.meta.url));
const LEASE_MS = 1_500;

let fake: FakeManagedAgents;
let home: string;
let runtime: Runtime;
const saved = process.env[AGENTS_URL_VARIABLE];

beforeAll(async () => {
  fake = await startManagedAgents();
  process.env[AGENTS_URL_VARIABLE] = fake.url;
  home = await mkdtemp(join(tmpdir(), "oz0-anthropic-crash-"));
  runtime = await Runtime.open({ home, defaultPlugins: [] });
});

afterAll(async () => {
  if (saved === undefined) delete process.env[AGENTS_URL_VARIABLE];
  else process.env[AGENTS_URL_VARIABLE] = saved;
  await runtime?.close();
  await fake?.close();
  await rm(home, { recursive: true, force: true });
});

describe("runtime: remote:anthropic across a crash", () => {
  it("takes up a job whose worker was killed mid-session by reattaching to its session, sending nothing twice", async () => {
    const tenant = "default";
    await runtime.catalog.install(tenant, STUDIO);
    await runtime.models.setProvider(tenant, "anthropic", { apiKey: FAKE_KEY });
    const started = await runtime.jobs.start({ tenant, agent: "studio/coder", input: "bash hold read" });
    const child = spawn(
      process.execPath,
      [
        "--conditions=@oz0/source",
        "--import",
        RESOLVE_TS,
        WORKER,
        JSON.stringify({ home, job: started.id, tenant, leaseMs: LEASE_MS }),
      ],
      { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env } },
    );
    const exited = once(child, "exit");
    // The worker made the session, had bash confirmed, and follows the session while it holds.
    for (let tries = 0; tries < 3000 && !fake.holding(); tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(fake.holding()).toBe(true);
    child.kill("SIGKILL");
    const [code, signal] = await exited;
    expect({ code, signal }).toEqual({ code: null, signal: "SIGKILL" });
    const before = await runtime.jobs.events(started.id, { tenant });
    const stepsBefore = before.filter((entry) => entry.kind === "model_call").length;
    expect(stepsBefore).toBeGreaterThan(1);
    fake.release();
    const job = await runtime.jobs.resume(started.id, { tenant });
    expect(job).toMatchObject({ status: "succeeded", output: "done: bash: ran; held; read: ran" });
    expect({
      agents: fake.agents.length,
      environments: fake.environments.length,
      sessions: fake.sessions.size,
      messages: fake.sent("user.message").length,
      confirmations: fake.sent("user.tool_confirmation").map((entry) => entry.result),
    }).toEqual({ agents: 1, environments: 1, sessions: 1, messages: 1, confirmations: ["allow", "allow"] });
    const events = await runtime.jobs.events(started.id, { tenant });
    expect(events.filter((entry) => entry.kind === "job_claimed")).toHaveLength(2);
    // Each step once: those recorded before the crash are replayed, not written again.
    const steps = events
      .filter((entry) => entry.kind === "model_call")
      .map((entry) => (entry.data as { step: number }).step);
    expect(steps).toEqual(steps.map((_, index) => index + 1));
    expect(steps.length).toBeGreaterThan(stepsBefore);
    // One start_session, one send_message and one call per tool use, though two workers ran it.
    const calls = events
      .filter((entry) => entry.kind === "tool_call")
      .map((entry) => (entry.data as { address: string }).address);
    expect(calls).toEqual([
      "studio/coder.start_session",
      "studio/coder.send_message",
      "studio/coder.bash",
      "studio/coder.read",
    ]);
    expect(JSON.stringify(events)).not.toContain(FAKE_KEY);
  });
});
