// What oz0 declares as an MCP client, against real servers: the job's roots (confined to the
// calling job), sampling served by the job's own model and counted as its model calls,
// elicitation made a person's question, and progress and log notifications
// recorded in the job's trace; outside a job, sampling is refused.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import {
  type CallToolResult,
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { JobEvent } from "../../src/jobs/index.js";
import { JOB_META_KEY, openMcpServer } from "../../src/mcp/index.js";
import type { Runtime } from "../../src/runtime.js";
import { everythingStdio, fixtureStdio, openRuntime, tempDir, writePlugin } from "./helpers.js";

const TENANT = "default";
let runtime: Runtime;
let home: string;
let cleanup: () => Promise<void>;

function agent(name: string, call: string): string[] {
  return [
    `  - name: ${name}`,
    `    description: Calls ${call}.`,
    `    tools: [${call.replace("__", ".")}]`,
    "    skills: []",
    "    input: text",
    "    output: text",
    `    model: { use: test, script: scripts/${name}.yaml }`,
  ];
}

function script(call: string, args: string): string {
  return ["turns:", `  - call: { function: ${call}, args: ${args} }`, '  - text: "done"'].join("\n");
}

const AGENTS: Record<string, [string, string]> = {
  sampler: ["everything__trigger-sampling-request", '{ prompt: "name a colour", maxTokens: 50 }'],
  clipped: ["everything__trigger-sampling-request", '{ prompt: "name a colour", maxTokens: 3 }'],
  asker: ["everything__trigger-elicitation-request", "{}"],
  waiter: ["everything__trigger-long-running-operation", "{ duration: 0.3, steps: 3 }"],
  rooted: ["fixture__roots", "{}"],
  logger: ["fixture__log", "{}"],
};

// One runtime and one pair of servers for the file: every test starts jobs of its own (or a
// session of its own), so none sees another's.
beforeAll(async () => {
  const temp = await tempDir("oz0-mcp-capabilities-");
  home = temp.dir;
  cleanup = temp.cleanup;
  runtime = await openRuntime(home);
  const lines = [
    "name: demo",
    "version: 1.0.0",
    "tools:",
    "  - id: everything",
    "    description: The MCP reference server.",
    `    mcp: ${everythingStdio()}`,
    "  - id: fixture",
    "    description: The tests' own server.",
    `    mcp: ${fixtureStdio({ FIXTURE_SECRET: "fixture-secret-value" })}`,
    "agents:",
    ...Object.entries(AGENTS).flatMap(([name, [call]]) => agent(name, call)),
  ];
  const files = Object.fromEntries(
    Object.entries(AGENTS).map(([name, [call, args]]) => [`scripts/${name}.yaml`, script(call, args)]),
  );
  const dir = await writePlugin(home, "demo", lines.join("\n"), files);
  await runtime.mcp.secrets.set(TENANT, "demo", "fixture", "env", "FIXTURE_SECRET", "fixture-secret-value");
  await runtime.catalog.install(TENANT, dir);
  // The reference server adds its capability-dependent tools just after the handshake.
  const loaded = await runtime.catalog.loadInstalled(TENANT, "demo");
  for (;;) {
    const listing = await runtime.mcp.listing(TENANT, loaded, "everything");
    if (listing.functions.some((fn) => fn.name === "trigger-sampling-request")) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
});

afterAll(async () => {
  await runtime.close();
  await cleanup();
});

async function run(name: string): Promise<{ id: string; status: string; events: JobEvent[] }> {
  const job = await runtime.jobs.start({ tenant: TENANT, agent: `demo/${name}`, input: "go" });
  const done = await runtime.jobs.run(job.id, { tenant: TENANT });
  return { id: job.id, status: done.status, events: await runtime.jobs.events(job.id, { tenant: TENANT }) };
}

function result(events: readonly JobEvent[]) {
  return events.find((entry) => entry.kind === "tool_result")?.data as
    | { ok: boolean; result?: unknown; error?: { code: string; message: string } }
    | undefined;
}

describe("oz0 as an MCP client: what servers may ask of a job", () => {
  it("serves a server's sampling request with the job's model, recorded and counted as a model call", async () => {
    const { status, events } = await run("sampler");
    expect(status).toBe("succeeded");
    expect(JSON.stringify(result(events)?.result)).toContain(
      "Sampled: Resource trigger-sampling-request context: name a colour",
    );
    const kinds = events.map((entry) => entry.kind);
    expect(kinds.indexOf("mcp_sampling")).toBeGreaterThan(kinds.indexOf("tool_call"));
    expect(kinds.indexOf("mcp_sampling")).toBeLessThan(kinds.indexOf("tool_result"));
    const sampled = events.find((entry) => entry.kind === "mcp_sampling");
    expect(sampled?.data).toMatchObject({
      callId: "1.1",
      tool: "demo/everything",
      model: "test:scripts/sampler.yaml",
      usage: { input: expect.any(Number), output: expect.any(Number) },
    });
    // The tenant's totals count it with the job's two model steps.
    const rows = await runtime.store.db
      .selectFrom("usage_totals")
      .select(["model_calls"])
      .where("tenant", "=", TENANT)
      .where("agent", "=", "demo/sampler")
      .execute();
    expect(rows.reduce((sum, row) => sum + Number(row.model_calls), 0)).toBe(3);
  });

  it("passes the server's maxTokens to the model: the answer stops there, and the server is told maxTokens", async () => {
    const { status, events } = await run("clipped");
    expect(status).toBe("succeeded");
    const text = JSON.stringify(result(events)?.result);
    expect(text).toContain("Sampled: Resource trigger-sampling-request");
    expect(text).not.toContain("name a colour");
    expect(text).toMatch(/\\?"stopReason\\?":\s*\\?"maxTokens/);
  });

  it("refuses sampling for a call made by hand, outside any job, saying why", async () => {
    const report = await runtime.tools.call(TENANT, "demo/everything.trigger-sampling-request", {
      prompt: "hello",
      maxTokens: 10,
    });
    expect(report.ok).toBe(false);
    expect(JSON.stringify(report)).toMatch(/sampling\/createMessage/);
    expect(JSON.stringify(report)).toMatch(/not made by a job/);
  });

  it("makes a server's elicitation in a job a person's question: the job waits, costing nothing, with the form's message", async () => {
    const { id, status, events } = await run("asker");
    expect(status).toBe("waiting");
    const asked = events.find((entry) => entry.kind === "mcp_elicitation");
    expect(asked?.data).toMatchObject({
      callId: "1.1",
      tool: "demo/everything",
      message: "Please provide inputs for the following fields:",
      requestedSchema: { type: "object", properties: expect.objectContaining({ name: expect.anything() }) },
    });
    // What the server did with the dismissed form is set aside: the call has no result yet.
    expect(events.some((entry) => entry.kind === "tool_result")).toBe(false);
    const view = await runtime.jobs.get(id, TENANT);
    expect(view.waitingFor).toMatchObject({
      kind: "answer",
      callId: "1.1",
      question: "Please provide inputs for the following fields:",
      elicitation: { tool: "demo/everything" },
    });
  });

  it("gives the server the person's answer when the call runs again, with the form's defaults, and the job goes on", async () => {
    const { id } = await run("asker");
    await runtime.jobs.answer(id, JSON.stringify({ name: "Ada Lovelace", check: true }), "ada", {
      tenant: TENANT,
    });
    const done = await runtime.jobs.run(id, { tenant: TENANT });
    expect(done.status).toBe("succeeded");
    const after = await runtime.jobs.events(id, { tenant: TENANT });
    const kinds = after.map((entry) => entry.kind);
    expect(kinds).toContain("elicitation_answered");
    expect(kinds.filter((kind) => kind === "tool_call_retried")).toHaveLength(1);
    const text = JSON.stringify(result(after)?.result);
    expect(text).toContain("Ada Lovelace");
    // A field the person left out took the form's default.
    expect(text).toContain("It was a dark and stormy night.");
    expect(after.find((entry) => entry.kind === "elicitation_answered")?.data).toMatchObject({
      callId: "1.1",
      by: "ada",
      content: { name: "Ada Lovelace", check: true, integer: 42 },
    });
  });

  it("refuses an answer that does not fill the form, naming the field, and the job keeps waiting", async () => {
    const { id } = await run("asker");
    const refused = await runtime.jobs
      .answer(id, JSON.stringify({ integer: 500 }), "ada", { tenant: TENANT })
      .then(
        () => undefined,
        (error: unknown) => error as { code: string; message: string },
      );
    expect(refused?.code).toBe("INVALID_INPUT");
    expect(refused?.message).toMatch(/integer/);
    expect(refused?.message).toMatch(/demo\/everything/);
    const notJson = await runtime.jobs.answer(id, "just text", "ada", { tenant: TENANT }).then(
      () => undefined,
      (error: unknown) => error as { code: string; message: string },
    );
    expect(notJson?.message).toMatch(/answer with a JSON object/);
    expect((await runtime.jobs.get(id, TENANT)).status).toBe("waiting");
  });

  it("records a server's progress notifications in the job's trace, before the call's result", async () => {
    const { status, events } = await run("waiter");
    expect(status).toBe("succeeded");
    const progress = events.filter((entry) => entry.kind === "mcp_progress").map((entry) => entry.data);
    expect(progress).toEqual([
      expect.objectContaining({
        callId: "1.1",
        tool: "demo/everything.trigger-long-running-operation",
        progress: 1,
        total: 3,
      }),
      expect.objectContaining({ progress: 2, total: 3 }),
      expect.objectContaining({ progress: 3, total: 3 }),
    ]);
    const kinds = events.map((entry) => entry.kind);
    expect(kinds.lastIndexOf("mcp_progress")).toBeLessThan(kinds.indexOf("tool_result"));
  });

  it("records a server's log messages in the job's trace, its secrets redacted", async () => {
    const { status, events } = await run("logger");
    expect(status).toBe("succeeded");
    const logs = events.filter((entry) => entry.kind === "mcp_log").map((entry) => entry.data);
    expect(logs).toEqual([
      {
        callId: "1.1",
        tool: "demo/fixture",
        level: "warning",
        logger: "fixture",
        data: "careful with [redacted]",
      },
    ]);
  });

  it("gives a server the calling job's roots while its call is in flight, and no one else's", async () => {
    const { status, events } = await run("rooted");
    expect(status).toBe("succeeded");
    const answered = result(events)?.result as { roots: { uri: string; name: string }[] } | undefined;
    const roots = answered?.roots;
    const agentRoot = new URL(`file://${home}/tenants/${TENANT}/agents/rooted`).href;
    expect(roots).toEqual([{ uri: agentRoot, name: "demo/rooted" }]);
    // A call by hand belongs to no job: the server sees no roots at all.
    const report = await runtime.tools.call(TENANT, "demo/fixture.roots", {});
    expect(report.ok).toBe(true);
    expect(JSON.stringify(report)).toContain('"roots":[]');
  });
});

describe("oz0 mcp serve passing on what the server behind a served function sends", () => {
  async function connect(elicitation: boolean) {
    const served = await openMcpServer(
      {
        store: runtime.store,
        catalog: runtime.catalog,
        home,
        tools: runtime.tools,
        jobs: runtime.jobs.jobs,
        mcp: runtime.mcp,
      },
      { tenant: TENANT },
    );
    const client = new Client(
      { name: "test-editor", version: "1.0.0" },
      elicitation ? { capabilities: { elicitation: { form: {} } } } : {},
    );
    const asked: string[] = [];
    if (elicitation) {
      client.setRequestHandler(ElicitRequestSchema, (request) => {
        asked.push(request.params.message);
        return { action: "accept", content: { name: "Ada" } };
      });
    }
    const logs: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      logs.push(notification.params);
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await served.session().connect(serverSide);
    await client.connect(clientSide);
    return {
      client,
      asked,
      logs,
      close: async () => {
        await client.close();
        await served.close();
      },
    };
  }

  it("forwards the server's progress to the client under its progressToken, and records it in the call's job", async () => {
    const { client, close } = await connect(false);
    const heard: string[] = [];
    const answer = (await client.callTool(
      { name: "everything__trigger-long-running-operation", arguments: { duration: 0.3, steps: 3 } },
      undefined,
      { onprogress: (progress) => heard.push(String(progress.message)) },
    )) as CallToolResult;
    expect(answer.isError).toBeFalsy();
    expect(
      heard.filter((message) => message.startsWith("demo/everything.trigger-long-running-operation")),
    ).toEqual([
      "demo/everything.trigger-long-running-operation 1/3",
      "demo/everything.trigger-long-running-operation 2/3",
      "demo/everything.trigger-long-running-operation 3/3",
    ]);
    const job = String(answer._meta?.[JOB_META_KEY]);
    const events = await runtime.jobs.events(job, { tenant: TENANT });
    expect(events.filter((entry) => entry.kind === "mcp_progress")).toHaveLength(3);
    await close();
  });

  it("forwards the server's log messages to the client with their level and logger", async () => {
    const { client, logs, close } = await connect(false);
    await client.setLoggingLevel("debug");
    const answer = (await client.callTool({ name: "fixture__log", arguments: {} })) as CallToolResult;
    expect(answer.isError).toBeFalsy();
    expect(logs).toContainEqual({ level: "warning", logger: "fixture", data: "careful with [redacted]" });
    await close();
  });

  it("asks its own client when the server elicits, and refuses when that client cannot answer", async () => {
    const answering = await connect(true);
    const answer = (await answering.client.callTool({
      name: "everything__trigger-elicitation-request",
      arguments: {},
    })) as CallToolResult;
    expect(answering.asked).toHaveLength(1);
    expect(JSON.stringify(answer.content)).toContain("Name: Ada");
    await answering.close();
    const mute = await connect(false);
    const refused = (await mute.client.callTool({
      name: "everything__trigger-elicitation-request",
      arguments: {},
    })) as CallToolResult;
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toMatch(/declared no elicitation capability/);
    await mute.close();
  });

  it("refuses a server's sampling request for a call through oz0 mcp serve, which runs no model of the tenant's", async () => {
    const { client, close } = await connect(false);
    const answer = (await client.callTool({
      name: "everything__trigger-sampling-request",
      arguments: { prompt: "hello", maxTokens: 10 },
    })) as CallToolResult;
    expect(answer.isError).toBe(true);
    expect(JSON.stringify(answer.content)).toMatch(
      /sampling\/createMessage: a call through oz0 mcp serve runs no model/,
    );
    await close();
  });
});
