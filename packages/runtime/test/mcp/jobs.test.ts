// An agent calling an MCP function in a job: the call goes through the same path as any
// function (its tool_call and tool_result in the history, the tenant's policy and kill
// switches), and a server that dies in the middle of the call fails that call, not the job.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { JobEvent } from "../../src/jobs/index.js";
import { Runtime } from "../../src/runtime.js";
import { everythingStdio, tempDir, writePlugin } from "./helpers.js";

const TENANT = "default";

let runtime: Runtime;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  const temp = await tempDir("oz0-mcp-jobs-");
  cleanup = temp.cleanup;
  runtime = await Runtime.open({ home: temp.dir, memory: true, defaultPlugins: [] });
  const dir = await writePlugin(
    temp.dir,
    "demo",
    [
      "name: demo",
      "version: 1.0.0",
      "tools:",
      "  - id: everything",
      "    description: The MCP reference server.",
      `    mcp: ${everythingStdio()}`,
      "agents:",
      "  - name: echoer",
      "    description: Echoes through the MCP server.",
      "    tools: [everything.echo]",
      "    skills: []",
      "    input: text",
      "    output: text",
      "    model: { use: test, script: scripts/echo.yaml }",
      "  - name: snoop",
      "    description: Reads its server's environment.",
      "    tools: [everything.get-env]",
      "    skills: []",
      "    input: text",
      "    output: text",
      "    model: { use: test, script: scripts/env.yaml }",
      "  - name: patient",
      "    description: Waits for a long operation, then answers whatever happened.",
      "    tools: [everything.trigger-long-running-operation]",
      "    skills: []",
      "    input: text",
      "    output: text",
      "    model: { use: test, script: scripts/long.yaml }",
    ].join("\n"),
    {
      "scripts/echo.yaml": [
        "turns:",
        '  - call: { function: everything__echo, args: { message: "from the agent" } }',
        '  - text: "echoed"',
      ].join("\n"),
      "scripts/env.yaml": [
        "turns:",
        "  - call: { function: everything__get-env, args: {} }",
        '  - text: "read"',
      ].join("\n"),
      "scripts/long.yaml": [
        "turns:",
        "  - call: { function: everything__trigger-long-running-operation, args: { duration: 600, steps: 5 } }",
        '  - text: "carried on"',
      ].join("\n"),
    },
  );
  await runtime.catalog.install(TENANT, dir);
});

afterEach(async () => {
  await runtime.close();
  await cleanup();
});

async function run(
  agent: string,
  onEvent?: (kind: string) => void,
): Promise<{ status: string; events: JobEvent[] }> {
  const job = await runtime.jobs.start({ tenant: TENANT, agent, input: "go" });
  const done = await runtime.jobs.run(job.id, { tenant: TENANT, onEvent: (entry) => onEvent?.(entry.kind) });
  return { status: done.status, events: await runtime.jobs.events(job.id, { tenant: TENANT }) };
}

function results(events: readonly JobEvent[]) {
  return events.flatMap((entry) => (entry.kind === "tool_result" ? [entry.data] : []));
}

describe("an agent on the test provider calling an MCP function", () => {
  it("calls the server through the dispatch path and records the call and its result", async () => {
    const { status, events } = await run("demo/echoer");
    expect(status).toBe("succeeded");
    const call = events.find((entry) => entry.kind === "tool_call");
    expect(call?.data).toMatchObject({ name: "everything__echo", address: "demo/everything.echo" });
    expect(results(events)).toEqual([expect.objectContaining({ ok: true, result: "Echo: from the agent" })]);
    const assembled = events.find((entry) => entry.kind === "context_assembled");
    expect(assembled?.data).toMatchObject({ functions: ["everything__echo"] });
  });

  it("goes on with the job when the server is killed in the middle of the call, telling the model", async () => {
    const { status, events } = await run("demo/patient", (kind) => {
      if (kind !== "tool_call") return;
      setTimeout(() => {
        const pid = runtime.mcp.status()[0]?.pid;
        if (pid !== null && pid !== undefined) process.kill(pid, "SIGKILL");
      }, 400);
    });
    expect(status).toBe("succeeded");
    const [result] = results(events);
    expect(result?.ok).toBe(false);
    expect(result?.error?.code).toBe("MCP_SERVER_ERROR");
    expect(result?.error?.message).toMatch(/stopped during the call to trigger-long-running-operation/);
    const answer = events.find((entry) => entry.kind === "job_succeeded");
    expect(answer?.data).toMatchObject({ output: "carried on" });
  });

  it("keeps a server's secret out of the job's history, its trace", async () => {
    const secret = "s3cret-for-the-trace";
    await runtime.mcp.secrets.set(TENANT, "demo", "everything", "env", "API_TOKEN", secret);
    const { events } = await run("demo/snoop");
    const [result] = results(events);
    expect(result?.ok).toBe(true);
    expect(JSON.parse(String(result?.result)).API_TOKEN).toBe("[redacted]");
    expect(JSON.stringify(events)).not.toContain(secret);
  });

  it("refuses the call when the tool's kill switch is on", async () => {
    await runtime.killSwitches.kill(TENANT, "tool", "demo/everything", "test");
    const { events } = await run("demo/echoer");
    const [result] = results(events);
    expect(result?.ok).toBe(false);
    expect(result?.error?.code).toBe("KILLED");
  });

  it("refuses the call a deny rule covers", async () => {
    await runtime.policy.set(TENANT, "deny", "demo/everything.*");
    const { events } = await run("demo/echoer");
    const [result] = results(events);
    expect(result?.error?.code).toBe("POLICY_VIOLATION");
  });
});
