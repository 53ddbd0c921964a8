// Agents on harnesses (`runtime: harness:<name>`): an ACP agent written with the official SDK
// and a JSON-lines agent, each started as a child process by the harness its fixture plugin
// registers, run end to end governed by the job: a deny rule, an approval and a kill switch
// take effect inside the harness's loop, a run taken up after its worker stopped repeats no
// recorded call, and what the session did is in the job's history.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { JobEvent } from "../../src/jobs/index.js";
import { toolContext } from "../../src/tools/index.js";
import { ALICE, executionsOf, type Lab, lab } from "../policy/helpers.js";

const ACP_PLUGIN = fileURLToPath(new URL("../fixtures/runtimes/harness-acp", import.meta.url));
const JSONL_PLUGIN = fileURLToPath(new URL("../fixtures/runtimes/harness-jsonl", import.meta.url));
const AGENTS = fileURLToPath(new URL("../fixtures/harness-agents", import.meta.url));

const launches = globalThis as {
  __oz0AcpHarness?: { command: string; args: string[] };
  __oz0JsonlHarness?: { command: string; args: string[] };
  __oz0HarnessToolHook?: ((fn: string, call: { jobId: string }) => Promise<void>) | undefined;
};
launches.__oz0AcpHarness = { command: process.execPath, args: [join(AGENTS, "acp-agent.mjs")] };
launches.__oz0JsonlHarness = { command: process.execPath, args: [join(AGENTS, "jsonl-agent.mjs")] };

function ofKind<K extends JobEvent["kind"]>(
  events: readonly JobEvent[],
  kind: K,
): Extract<JobEvent, { kind: K }>[] {
  return events.filter((entry): entry is Extract<JobEvent, { kind: K }> => entry.kind === kind);
}

/** No model of oz0's is asked anything on a harness: the harness has its own. */
const NO_MODEL = {
  id: "test:unused",
  async generate(): Promise<never> {
    throw new Error("a harness job asked oz0's model");
  },
};

let l: Lab;
beforeAll(async () => {
  l = await lab();
});
afterAll(async () => {
  await l.close();
});

describe("an agent on an ACP harness", () => {
  it("runs end to end: its tools through the job, the session's updates in the history, its text as the answer", async () => {
    const tenant = await l.tenant(ACP_PLUGIN);
    const jobs = l.engine(NO_MODEL);
    const started = await jobs.start({ tenant, agent: "acp-lab/coder", input: "note write" });
    const streamed: string[] = [];
    const job = await jobs.run(started.id, { tenant, onText: (delta) => streamed.push(delta) });
    expect(job).toMatchObject({ status: "succeeded" });
    expect(job.output).toBe('note: ok {"noted":"opening"}\nwrite: ok {"written":"door"}');
    expect(executionsOf(started.id).map((call) => call.fn)).toEqual(["audit.note", "vault.write"]);
    expect(streamed.join("")).toContain("calling note");
    const events = await l.events(started.id);
    expect(ofKind(events, "job_started")[0]?.data.runtime).toBe("harness:mock");
    expect(
      ofKind(events, "model_call").map((entry) => [
        entry.data.step,
        entry.data.runtime,
        entry.data.calls.map((call) => call.name),
      ]),
    ).toEqual([
      [1, "harness:mock", ["audit__note"]],
      [2, "harness:mock", ["vault__write"]],
      [3, "harness:mock", []],
    ]);
    expect(ofKind(events, "harness_update").map((entry) => entry.data.update)).toEqual(
      expect.arrayContaining(["session", "plan"]),
    );
  });
});
