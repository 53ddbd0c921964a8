// runtime: remote:a2a survives a crash of its worker: the process is killed with SIGKILL while
// the job waits on its remote task, and the job taken up from its history follows the recorded
// task to its end without sending the message again.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localAdmin } from "../../../src/callers/index.js";
import { Runtime } from "../../../src/runtime.js";
import { ENDPOINTS_VARIABLE } from "../../../src/runtimes/index.js";
import { type FixtureAgent, startFixtureAgent } from "./agent-server.js";

const PARTNER = fileURLToPath(new URL("../../fixtures/runtimes/a2a", import.meta.url));
const WORKER = fileURLToPath(new URL("./crash-worker.ts", import.meta.url));
const RESOLVE_TS = fileURLToPath(new URL("../../store/fixtures/resolve-ts.ts", import.meta.url));
const LEASE_MS = 1_500;

let agent: FixtureAgent;
let home: string;
let runtime: Runtime;
const saved = process.env[ENDPOINTS_VARIABLE];

beforeAll(async () => {
  agent = await startFixtureAgent();
  process.env[ENDPOINTS_VARIABLE] = `partner/painter=${agent.url}`;
  home = await mkdtemp(join(tmpdir(), "oz0-a2a-crash-"));
  runtime = await Runtime.open({ home, defaultPlugins: [] });
});

afterAll(async () => {
  if (saved === undefined) delete process.env[ENDPOINTS_VARIABLE];
  else process.env[ENDPOINTS_VARIABLE] = saved;
  await runtime?.close();
  await agent?.close();
  await rm(home, { recursive: true, force: true });
});

describe("runtime: remote:a2a across a crash", () => {
  it("takes up a job whose worker was killed while it waited on the remote task, sending nothing twice", async () => {
    const tenant = "default";
    await runtime.catalog.install(tenant, PARTNER);
    await runtime.services.remote.setSecret(localAdmin(tenant), "partner-token", "tok-crash");
    const started = await runtime.jobs.start({ tenant, agent: "partner/painter", input: "hold" });
    const before = agent.received.length;
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
    // The worker sent the message and recorded its task; it now polls the task.
    for (let tries = 0; tries < 3000; tries += 1) {
      const events = await runtime.jobs.events(started.id, { tenant });
      if (events.some((entry) => entry.kind === "remote_task")) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    child.kill("SIGKILL");
    const [code, signal] = await exited;
    expect({ code, signal }).toEqual({ code: null, signal: "SIGKILL" });
    agent.release("finished after the crash");
    const job = await runtime.jobs.resume(started.id, { tenant });
    expect(job).toMatchObject({ status: "succeeded", output: "finished after the crash" });
    expect(agent.received.slice(before).map((entry) => entry.text)).toEqual(["hold"]);
    const events = await runtime.jobs.events(started.id, { tenant });
    expect(events.filter((entry) => entry.kind === "job_claimed")).toHaveLength(2);
    expect(events.filter((entry) => entry.kind === "tool_call")).toHaveLength(1);
    // The task's step, recorded before the crash, is replayed, not counted again.
    expect(events.filter((entry) => entry.kind === "model_call")).toHaveLength(1);
    const claims = events.filter((entry) => entry.kind === "job_claimed").map((entry) => entry.data.node);
    expect(new Set(claims).size).toBe(2);
    // The step names the node that took it: the killed one.
    const [step] = events.filter((entry) => entry.kind === "model_call");
    expect((step?.data as { node?: string } | undefined)?.node).toBe(claims[0]);
  });
});
