// An agent granted a whole MCP tool (`fixture.*`): every function its server lists is offered, a
// function the server adds in the middle of the job is offered and called from the next step
// (under the tenant's policy), and a function the agent names that the server lacks fails that
// call, not the job.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { JobEvent } from "../../src/jobs/index.js";
import type { Runtime } from "../../src/runtime.js";
import { fixtureStdio, openRuntime, tempDir, writePlugin } from "./helpers.js";

const TENANT = "default";
let runtime: Runtime;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  const temp = await tempDir("oz0-mcp-whole-");
  cleanup = temp.cleanup;
  runtime = await openRuntime(temp.dir);
  const dir = await writePlugin(
    temp.dir,
    "demo",
    [
      "name: demo",
      "version: 1.0.0",
      "tools:",
      "  - id: fixture",
      "    description: The tests' own server.",
      `    mcp: ${fixtureStdio()}`,
      "agents:",
      "  - name: grower",
      "    description: Adds a function to its server, then calls it, then one the server lacks.",
      "    tools: [fixture.*, fixture.gone]",
      "    skills: []",
      "    input: text",
      "    output: text",
      "    model: { use: test, script: scripts/grow.yaml }",
    ].join("\n"),
    {
      "scripts/grow.yaml": [
        "turns:",
        "  - call: { function: fixture__add-tool, args: { name: fresh } }",
        "  - call: { function: fixture__fresh, args: {} }",
        "  - call: { function: fixture__gone, args: {} }",
        '  - text: "done"',
      ].join("\n"),
    },
  );
  await runtime.catalog.install(TENANT, dir);
});

afterEach(async () => {
  await runtime.close();
  await cleanup();
});

async function run(): Promise<{ status: string; events: JobEvent[] }> {
  const job = await runtime.jobs.start({ tenant: TENANT, agent: "demo/grower", input: "go" });
  const done = await runtime.jobs.run(job.id, { tenant: TENANT });
  return { status: done.status, events: await runtime.jobs.events(job.id, { tenant: TENANT }) };
}

function results(events: readonly JobEvent[]) {
  return events.flatMap((entry) => (entry.kind === "tool_result" ? [entry.data] : []));
}

describe("an agent granted a whole MCP tool", () => {
  it("is offered every function its server lists, and one the server adds later from the next step", async () => {
    const { status, events } = await run();
    expect(status).toBe("succeeded");
    const assembled = events.find((entry) => entry.kind === "context_assembled");
    expect(assembled?.data).toMatchObject({
      functions: expect.arrayContaining(["fixture__add-tool", "fixture__crash", "fixture__roots"]),
    });
    const [added, fresh] = results(events);
    expect(added).toMatchObject({ ok: true, result: "added fresh" });
    expect(fresh).toMatchObject({ ok: true, result: "ran fresh" });
    const call = events.find((entry) => entry.kind === "tool_call" && entry.data.name === "fixture__fresh");
    expect(call?.data).toMatchObject({ address: "demo/fixture.fresh" });
  });

  it("fails the call of a function the server lacks, not the job, and says so at the start", async () => {
    const { status, events } = await run();
    expect(status).toBe("succeeded");
    const leftOut = events.find((entry) => entry.kind === "function_left_out");
    expect(leftOut?.data).toMatchObject({ name: "fixture__gone", address: "demo/fixture.gone" });
    const gone = results(events)[2];
    expect(gone?.ok).toBe(false);
    expect(gone?.error?.code).toBe("NOT_FOUND");
    expect(gone?.error?.message).toMatch(/does not list gone now/);
  });

  it("refuses a function the server added later when the tenant's policy denies it", async () => {
    await runtime.policy.set(TENANT, "deny", "demo/fixture.fresh");
    const { status, events } = await run();
    expect(status).toBe("succeeded");
    const fresh = results(events)[1];
    expect(fresh?.ok).toBe(false);
    expect(fresh?.error?.code).toBe("POLICY_VIOLATION");
  });
});
