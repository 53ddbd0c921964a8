// oz0 as an MCP server, talked to by the MCP SDK's own client: the functions it serves, each
// call made on the dispatch path and recorded as a job, and the list following what is installed.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import {
  type CallToolResult,
  LoggingMessageNotificationSchema,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { JOB_META_KEY, openMcpServer } from "../../src/mcp/index.js";
import { Runtime } from "../../src/runtime.js";
import { eventually, everythingStdio, tempDir, writePlugin } from "./helpers.js";

const TENANT = "default";
const HELPDESK = fileURLToPath(new URL("../fixtures/jobs/helpdesk", import.meta.url));
const KEYRING = fileURLToPath(new URL("../fixtures/secrets/keyring", import.meta.url));

let runtime: Runtime;
let home: string;
let cleanup: () => Promise<void>;
const open: { close(): Promise<void> }[] = [];

beforeEach(async () => {
  const temp = await tempDir("oz0-mcp-serve-");
  home = temp.dir;
  cleanup = temp.cleanup;
  process.env.OZ0_TEST_LEDGER = join(home, "ledger.txt");
  runtime = await Runtime.open({ home, memory: true, defaultPlugins: [] });
  await runtime.catalog.install(TENANT, HELPDESK);
});

afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
  await runtime.close();
  delete process.env.OZ0_TEST_LEDGER;
  await cleanup();
});

async function connect(options: { agent?: string; watchMs?: number } = {}) {
  const served = await openMcpServer(
    {
      store: runtime.store,
      catalog: runtime.catalog,
      home,
      tools: runtime.tools,
      jobs: runtime.jobs.jobs,
      mcp: runtime.mcp,
    },
    { tenant: TENANT, ...options },
  );
  open.push(served);
  const changed: string[] = [];
  const client = new Client(
    { name: "test-editor", version: "1.0.0" },
    {
      listChanged: {
        tools: { debounceMs: 0, onChanged: (_error, tools) => changed.push(String(tools?.length)) },
      },
    },
  );
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await served.session().connect(serverSide);
  await client.connect(clientSide);
  open.push(client);
  return { served, client, changed };
}

/** The tenant's pending approvals, once there is one. */
async function pendingApprovals() {
  let approvals = await runtime.approvals.list(TENANT);
  await eventually(async () => {
    approvals = await runtime.approvals.list(TENANT);
    return approvals.length > 0;
  });
  return approvals;
}

/** What helpdesk/ledger.add wrote in this test: one line per execution. */
async function ledger(): Promise<string> {
  return readFile(join(home, "ledger.txt"), "utf8").catch(() => "");
}

function resourceText(content: { text?: string } | { blob?: string } | undefined): string {
  return content !== undefined && "text" in content ? String(content.text) : "";
}

function text(result: CallToolResult): string {
  return result.content.map((block) => (block.type === "text" ? block.text : "")).join("");
}

describe("oz0 mcp serve without an agent", () => {
  it("serves every function of the tenant's catalog under the names a model sees", async () => {
    const { client } = await connect();
    const { tools } = await client.listTools();
    const lookup = tools.find((tool) => tool.name === "tickets__lookup");
    expect(lookup).toMatchObject({
      title: "helpdesk/tickets.lookup",
      description: "Look a ticket up by id.",
    });
    expect(lookup?.inputSchema).toMatchObject({ required: ["id"] });
    expect(tools.map((tool) => tool.name)).toContain("ledger__add");
  });

  it("calls a function on the dispatch path and records the call as a job of oz/mcp", async () => {
    const { client } = await connect();
    const result = (await client.callTool({
      name: "tickets__lookup",
      arguments: { id: 7 },
    })) as CallToolResult;
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toEqual({
      id: 7,
      subject: "Charged twice for the May invoice",
      queue: null,
    });
    const jobId = String(result._meta?.[JOB_META_KEY]);
    const job = await runtime.jobs.get(jobId, TENANT);
    expect(job).toMatchObject({
      agent: "oz/mcp",
      status: "succeeded",
      input: { function: "helpdesk/tickets.lookup", arguments: { id: 7 } },
    });
    const events = await runtime.jobs.events(jobId, { tenant: TENANT });
    expect(events.map((entry) => entry.kind)).toEqual([
      "job_started",
      "tool_call",
      "tool_result",
      "job_succeeded",
    ]);
    expect(events[0]?.data).toMatchObject({ by: "mcp:test-editor" });
    expect(events[1]?.data).toMatchObject({ name: "tickets__lookup", address: "helpdesk/tickets.lookup" });
  });

  it("answers a failed call with isError and the reason, and the job fails", async () => {
    const { client } = await connect();
    const result = (await client.callTool({
      name: "tickets__lookup",
      arguments: { id: "seven" },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(
      /^INVALID_INPUT: arguments for tickets__lookup do not match its input schema: id: must be integer/,
    );
    const job = await runtime.jobs.get(String(result._meta?.[JOB_META_KEY]), TENANT);
    expect(job.failure).toMatchObject({ kind: "invalid_input", code: "INVALID_INPUT" });
  });

  it("refuses a call the tenant's policy denies, and records the refusal", async () => {
    await runtime.policy.set(TENANT, "deny", "helpdesk/tickets.assign");
    const { client } = await connect();
    const result = (await client.callTool({
      name: "tickets__assign",
      arguments: { id: 7, queue: "bugs" },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(
      /^POLICY_VIOLATION: the tenant's tool policy denies helpdesk\/tickets\.assign/,
    );
    const job = await runtime.jobs.get(String(result._meta?.[JOB_META_KEY]), TENANT);
    expect(job.failure?.kind).toBe("policy_denied");
  });

  it("holds a call an ask rule covers until a person approves it, then runs it", async () => {
    await runtime.policy.set(TENANT, "ask", "helpdesk/tickets.assign");
    const { client } = await connect();
    const progress: string[] = [];
    const call = client.callTool(
      { name: "tickets__assign", arguments: { id: 7, queue: "billing" } },
      undefined,
      {
        onprogress: (note) => progress.push(String(note.message)),
      },
    );
    const approvals = await pendingApprovals();
    expect(approvals[0]).toMatchObject({
      address: "helpdesk/tickets.assign",
      args: { id: 7, queue: "billing" },
      rule: "helpdesk/tickets.assign",
    });
    await runtime.approvals.decide(TENANT, approvals[0]!.id, "approve", "alice");
    const result = (await call) as CallToolResult;
    expect(result.structuredContent).toEqual({ id: 7, queue: "billing" });
    expect(progress[0]).toBe(
      `waiting for a person to approve helpdesk/tickets.assign: oz0 approval approve ${approvals[0]!.id}`,
    );
    const events = await runtime.jobs.events(String(result._meta?.[JOB_META_KEY]), { tenant: TENANT });
    expect(events.map((entry) => entry.kind)).toEqual([
      "job_started",
      "tool_call",
      "approval_requested",
      "approval_decided",
      "tool_result",
      "job_succeeded",
    ]);
  });

  it("keeps the tenant's secrets out of a held call's approval, stored and shown, and runs the approved call with them", async () => {
    const secret = "sk-ledger-4Fd8Gh2Jk6";
    await runtime.models.setProvider(TENANT, "openai-compatible", {
      baseUrl: "http://127.0.0.1:9",
      apiKey: secret,
    });
    await runtime.policy.set(TENANT, "ask", "helpdesk/ledger.add");
    const { client } = await connect();
    const call = client.callTool({ name: "ledger__add", arguments: { entry: secret } });
    const [approval] = await pendingApprovals();
    expect(approval).toMatchObject({ args: { entry: "[redacted]" } });
    expect(approval!.summary).not.toContain(secret);
    const rows = await runtime.store.db.selectFrom("approvals").select("request").execute();
    expect(rows.map((row) => row.request.includes(secret))).toEqual([false]);
    await runtime.approvals.decide(TENANT, approval!.id, "approve", "alice");
    const result = (await call) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(await ledger()).toContain(secret);
  });

  it("answers a call a person denied with the refusal, and never runs it", async () => {
    await runtime.policy.set(TENANT, "ask", "helpdesk/ledger.add");
    const { client } = await connect();
    const call = client.callTool({ name: "ledger__add", arguments: { entry: "never" } });
    const approvals = await pendingApprovals();
    await runtime.approvals.decide(TENANT, approvals[0]!.id, "deny", "bob", "not today");
    const result = (await call) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(text(result)).toBe(
      `APPROVAL_DENIED: bob denied this call of helpdesk/ledger.add (approval ${approvals[0]!.id}): not today; it did not run`,
    );
    const jobId = String(result._meta?.[JOB_META_KEY]);
    const job = await runtime.jobs.get(jobId, TENANT);
    expect(job.failure).toMatchObject({ kind: "policy_denied", code: "APPROVAL_DENIED" });
    const events = await runtime.jobs.events(jobId, { tenant: TENANT });
    expect(events.filter((entry) => entry.kind === "tool_result").map((entry) => entry.data)).toEqual([
      expect.objectContaining({ ok: false, error: expect.objectContaining({ code: "APPROVAL_DENIED" }) }),
    ]);
  });

  it("withdraws a held call its client cancels: the job ends cancelled, the approval leaves the pending list, and a late approval runs nothing", async () => {
    await runtime.policy.set(TENANT, "ask", "helpdesk/ledger.add");
    const { client } = await connect();
    const controller = new AbortController();
    const call = client.callTool({ name: "ledger__add", arguments: { entry: "nobody waits" } }, undefined, {
      signal: controller.signal,
    });
    const [approval] = await pendingApprovals();
    controller.abort();
    await expect(call).rejects.toThrow();
    let job = await runtime.jobs.get(approval!.job, TENANT);
    await eventually(async () => {
      job = await runtime.jobs.get(approval!.job, TENANT);
      return job.status !== "running";
    });
    expect(job).toMatchObject({ status: "cancelled", failure: { kind: "cancelled" } });
    expect(await runtime.approvals.list(TENANT)).toEqual([]);
    const all = await runtime.approvals.list(TENANT, { status: "all" });
    expect(all.map((entry) => [entry.id, entry.status])).toEqual([[approval!.id, "withdrawn"]]);
    expect(await runtime.approvals.get(TENANT, approval!.id)).toMatchObject({ status: "withdrawn" });
    await expect(runtime.approvals.decide(TENANT, approval!.id, "approve", "alice")).rejects.toMatchObject({
      code: "APPROVAL_STATE_CONFLICT",
    });
    expect(await ledger()).toBe("");
    const kinds = (await runtime.jobs.events(job.id, { tenant: TENANT })).map((entry) => entry.kind);
    expect(kinds).toEqual(["job_started", "tool_call", "approval_requested", "job_cancelled"]);
  });

  it("stores a withdrawn call's approval as withdrawn, not pending, and decides nothing on it", async () => {
    await runtime.policy.set(TENANT, "ask", "helpdesk/ledger.add");
    const { client } = await connect();
    const controller = new AbortController();
    const call = client.callTool({ name: "ledger__add", arguments: { entry: "withdrawn" } }, undefined, {
      signal: controller.signal,
    });
    const [approval] = await pendingApprovals();
    controller.abort();
    await expect(call).rejects.toThrow();
    await eventually(async () => (await runtime.jobs.get(approval!.job, TENANT)).status === "cancelled");
    const row = await runtime.store.db
      .selectFrom("approvals")
      .select(["status", "decided_at", "decided_by"])
      .where("id", "=", approval!.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: "withdrawn", decided_by: null });
    expect(row.decided_at).not.toBeNull();
    expect(await runtime.approvals.list(TENANT, { status: "withdrawn" })).toMatchObject([
      { id: approval!.id, status: "withdrawn" },
    ]);
    await expect(runtime.approvals.decide(TENANT, approval!.id, "deny", "alice")).rejects.toMatchObject({
      code: "APPROVAL_STATE_CONFLICT",
      message: expect.stringContaining("was withdrawn"),
    });
    expect(await ledger()).toBe("");
  });

  it("withdraws a held call its client stops waiting for (a request timeout), and the job ends cancelled", async () => {
    await runtime.policy.set(TENANT, "ask", "helpdesk/ledger.add");
    const { client } = await connect();
    await expect(
      client.callTool({ name: "ledger__add", arguments: { entry: "too slow" } }, undefined, { timeout: 1 }),
    ).rejects.toThrow(/timed out/i);
    let jobs = await runtime.jobs.search({ tenant: TENANT, agent: "mcp" });
    await eventually(async () => {
      jobs = await runtime.jobs.search({ tenant: TENANT, agent: "mcp" });
      return jobs.length === 1 && jobs[0]!.status !== "running";
    });
    expect(jobs[0]).toMatchObject({ status: "cancelled", failure: { kind: "cancelled" } });
    expect(await runtime.approvals.list(TENANT)).toEqual([]);
    expect(await ledger()).toBe("");
  });

  it("withdraws a held call whose client goes away, and resuming its job is refused instead of waiting forever", async () => {
    await runtime.policy.set(TENANT, "ask", "helpdesk/ledger.add");
    const { client } = await connect();
    const call = client
      .callTool({ name: "ledger__add", arguments: { entry: "gone" } })
      .catch(() => undefined);
    const [approval] = await pendingApprovals();
    await expect(runtime.jobs.resume(approval!.job, { tenant: TENANT })).rejects.toMatchObject({
      code: "JOB_STATE_CONFLICT",
      message: expect.stringContaining(`oz0 job cancel ${approval!.job}`),
    });
    await client.close();
    await call;
    let status = "";
    await eventually(async () => {
      status = (await runtime.jobs.get(approval!.job, TENANT)).status;
      return status !== "running";
    });
    expect(status).toBe("cancelled");
    await expect(runtime.jobs.resume(approval!.job, { tenant: TENANT })).rejects.toMatchObject({
      code: "JOB_STATE_CONFLICT",
    });
    expect(await ledger()).toBe("");
  });

  it("refuses a call of a killed tool", async () => {
    await runtime.killSwitches.kill(TENANT, "tool", "helpdesk/tickets", "ops");
    const { client } = await connect();
    const result = (await client.callTool({
      name: "tickets__lookup",
      arguments: { id: 7 },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/^KILLED: /);
  });

  it("answers a name it does not serve with the protocol's error", async () => {
    const { client } = await connect();
    await expect(client.callTool({ name: "tickets__burn", arguments: {} })).rejects.toThrow(
      /Unknown tool: tickets__burn\. oz0 serves the functions of tenant default's catalog: .*tickets__lookup/,
    );
  });

  it("serves an MCP-backed tool's functions too, calling its server", async () => {
    await runtime.catalog.install(
      TENANT,
      await writePlugin(
        home,
        "demo",
        [
          "name: demo",
          "version: 1.0.0",
          "tools:",
          "  - id: everything",
          `    mcp: ${everythingStdio()}`,
        ].join("\n"),
      ),
    );
    const { client } = await connect();
    const result = (await client.callTool({
      name: "everything__echo",
      arguments: { message: "through oz0" },
    })) as CallToolResult;
    expect(text(result)).toBe("Echo: through oz0");
  });

  it("tells clients the list changed when a plugin is installed", async () => {
    const { client, changed } = await connect({ watchMs: 50 });
    await runtime.catalog.install(
      TENANT,
      await writePlugin(
        home,
        "demo",
        [
          "name: demo",
          "version: 1.0.0",
          "tools:",
          "  - id: everything",
          `    mcp: ${everythingStdio()}`,
        ].join("\n"),
      ),
    );
    await eventually(() => changed.length > 0);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain("everything__get-sum");
  });
});

describe("oz0 mcp serve passes content through as content", () => {
  async function everything() {
    await runtime.catalog.install(
      TENANT,
      await writePlugin(
        home,
        "demo",
        [
          "name: demo",
          "version: 1.0.0",
          "tools:",
          "  - id: everything",
          `    mcp: ${everythingStdio()}`,
        ].join("\n"),
      ),
    );
    return (await connect()).client;
  }

  it("gives a client an MCP tool's image and annotations as MCP blocks, not JSON text", async () => {
    const client = await everything();
    const result = (await client.callTool({
      name: "everything__get-annotated-message",
      arguments: { messageType: "success", includeImage: true },
    })) as CallToolResult;
    expect(result.content[0]).toEqual({
      type: "text",
      text: "Operation completed successfully",
      annotations: { priority: 0.7, audience: ["user"] },
    });
    expect(result.content[1]).toMatchObject({
      type: "image",
      mimeType: "image/png",
      data: expect.any(String),
    });
    expect(result.content).toHaveLength(2);
  });

  it("gives a client an MCP tool's resource links as resource_link blocks", async () => {
    const client = await everything();
    const result = (await client.callTool({
      name: "everything__get-resource-links",
      arguments: { count: 2 },
    })) as CallToolResult;
    expect(result.content.map((block) => block.type)).toEqual(["text", "resource_link", "resource_link"]);
    expect(result.content[1]).toMatchObject({
      type: "resource_link",
      uri: expect.any(String),
      name: expect.any(String),
    });
  });
});

describe("oz0 mcp serve beyond tools", () => {
  it("serves a job's output and trace as resources, and completes job IDs", async () => {
    const { client } = await connect();
    const called = (await client.callTool({
      name: "tickets__lookup",
      arguments: { id: 7 },
    })) as CallToolResult;
    const id = String(called._meta?.[JOB_META_KEY]);
    const templates = await client.listResourceTemplates();
    expect(templates.resourceTemplates.map((entry) => entry.uriTemplate)).toEqual([
      "oz0://jobs/{id}/output",
      "oz0://jobs/{id}/trace",
      "oz0://skills/{plugin}/{skill}",
    ]);
    const output = await client.readResource({ uri: `oz0://jobs/${id}/output` });
    expect(JSON.parse(resourceText(output.contents[0]))).toMatchObject({
      id,
      status: "succeeded",
      output: { id: 7 },
    });
    const trace = await client.readResource({ uri: `oz0://jobs/${id}/trace` });
    const kinds = (JSON.parse(resourceText(trace.contents[0])) as { kind: string }[]).map(
      (entry) => entry.kind,
    );
    expect(kinds).toEqual(["job_started", "tool_call", "tool_result", "job_succeeded"]);
    const completed = await client.complete({
      ref: { type: "ref/resource", uri: "oz0://jobs/{id}/trace" },
      argument: { name: "id", value: id.slice(0, 6) },
    });
    expect(completed.completion.values).toContain(id);
    await expect(client.readResource({ uri: "oz0://jobs/%E0%A4%A/output" })).rejects.toThrow(/no resource/);
    await expect(client.readResource({ uri: "oz0://skills/%E0%A4%A/x" })).rejects.toThrow(/no resource/);
    await expect(client.readResource({ uri: "oz0://jobs/mcp-nope/output" })).rejects.toThrow(
      /no resource oz0:\/\/jobs\/mcp-nope\/output/,
    );
  });

  it("serves a plugin's skills as resources", async () => {
    const { client } = await connect();
    const { resources } = await client.listResources();
    expect(resources.map((entry) => entry.uri)).toEqual(
      expect.arrayContaining(["oz0://skills/helpdesk/escalation", "oz0://skills/helpdesk/refunds"]),
    );
    const skill = await client.readResource({ uri: "oz0://skills/helpdesk/escalation" });
    expect(skill.contents[0]).toMatchObject({
      mimeType: "text/markdown",
      text: expect.stringContaining("Escalate when"),
    });
  });

  it("serves agents as prompts with their instructions and the task", async () => {
    const { client } = await connect();
    const { prompts } = await client.listPrompts();
    expect(prompts.find((entry) => entry.name === "helpdesk/triage")).toMatchObject({
      description: "Sorts a ticket into a queue.",
      arguments: [{ name: "input", required: true }],
    });
    const prompt = await client.getPrompt({
      name: "helpdesk/triage",
      arguments: { input: "ticket 7 please" },
    });
    const message = prompt.messages[0]?.content;
    expect(message?.type === "text" ? message.text : "").toContain("ticket 7 please");
    expect(message?.type === "text" ? message.text : "").toContain("You sort support tickets into queues.");
    await expect(client.getPrompt({ name: "helpdesk/nobody", arguments: { input: "x" } })).rejects.toThrow(
      /no prompt helpdesk\/nobody/,
    );
  });

  it("with --agent, offers only that agent's prompt, jobs and plugin's skills", async () => {
    const { client: catalog } = await connect();
    const other = (await catalog.callTool({
      name: "tickets__lookup",
      arguments: { id: 8 },
    })) as CallToolResult;
    const { client } = await connect({ agent: "helpdesk/triage" });
    expect((await client.listPrompts()).prompts.map((entry) => entry.name)).toEqual(["helpdesk/triage"]);
    await expect(
      client.readResource({ uri: `oz0://jobs/${String(other._meta?.[JOB_META_KEY])}/output` }),
    ).rejects.toThrow(/no resource/);
  });

  it("tells clients the prompts and resources changed when a plugin is installed", async () => {
    const { client } = await connect({ watchMs: 50 });
    const notes: string[] = [];
    client.setNotificationHandler(
      PromptListChangedNotificationSchema,
      (note) => void notes.push(note.method),
    );
    client.setNotificationHandler(
      ResourceListChangedNotificationSchema,
      (note) => void notes.push(note.method),
    );
    const dir = await writePlugin(
      home,
      "notes",
      [
        "name: notes",
        "version: 1.0.0",
        "agents:",
        "  - name: scribe",
        "    description: Writes notes.",
        "    skills: []",
        "    input: text",
        "    output: text",
        "    model: { use: test }",
      ].join("\n"),
    );
    await runtime.catalog.install(TENANT, dir);
    await eventually(() => notes.length >= 2);
    expect(notes.sort()).toEqual([
      "notifications/prompts/list_changed",
      "notifications/resources/list_changed",
    ]);
    expect((await client.listPrompts()).prompts.map((entry) => entry.name)).toContain("notes/scribe");
  });

  it("sends log messages about each call at the level the client set", async () => {
    const { client } = await connect();
    const logged: { level: string; data: unknown }[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (note) => {
      logged.push({ level: note.params.level, data: note.params.data });
    });
    await client.setLoggingLevel("info");
    const called = (await client.callTool({
      name: "tickets__lookup",
      arguments: { id: 7 },
    })) as CallToolResult;
    const job = String(called._meta?.[JOB_META_KEY]);
    await eventually(async () => logged.length >= 2);
    expect(logged).toEqual([
      { level: "info", data: { job, function: "helpdesk/tickets.lookup", event: "started" } },
      { level: "info", data: { job, function: "helpdesk/tickets.lookup", event: "succeeded" } },
    ]);
    logged.length = 0;
    await client.setLoggingLevel("error");
    await client.callTool({ name: "tickets__lookup", arguments: { id: 7 } });
    await client.callTool({ name: "tickets__lookup", arguments: { id: "not a number" } });
    await eventually(async () => logged.length >= 1);
    expect(logged).toEqual([
      { level: "error", data: expect.objectContaining({ event: "failed", code: "INVALID_INPUT" }) },
    ]);
  });
});

describe("oz0 mcp serve --agent", () => {
  it("serves only the functions the agent may call, and records calls as jobs of the agent", async () => {
    const { client } = await connect({ agent: "helpdesk/triage" });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(["tickets__assign", "tickets__lookup"]);
    const result = (await client.callTool({
      name: "tickets__assign",
      arguments: { id: 8, queue: "bugs" },
    })) as CallToolResult;
    const job = await runtime.jobs.get(String(result._meta?.[JOB_META_KEY]), TENANT);
    expect(job).toMatchObject({
      agent: "helpdesk/triage",
      status: "succeeded",
      output: { id: 8, queue: "bugs" },
    });
    await expect(client.callTool({ name: "ledger__add", arguments: { entry: "x" } })).rejects.toThrow(
      /Unknown tool: ledger__add/,
    );
  });

  it("refuses every call while the agent's kill switch is on", async () => {
    const { client } = await connect({ agent: "helpdesk/triage" });
    await runtime.killSwitches.kill(TENANT, "agent", "helpdesk/triage", "ops");
    const result = (await client.callTool({
      name: "tickets__lookup",
      arguments: { id: 7 },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/^KILLED: agent helpdesk\/triage is stopped by a kill switch/);
  });

  it("checks the agent's address against its owner before serving", async () => {
    await expect(
      openMcpServer(
        {
          store: runtime.store,
          catalog: runtime.catalog,
          home,
          tools: runtime.tools,
          jobs: runtime.jobs.jobs,
          mcp: runtime.mcp,
        },
        { tenant: TENANT, agent: "other/triage" },
      ),
    ).rejects.toThrow("other/triage is not an agent of other: triage is helpdesk's");
  });
});

describe("oz0 mcp serve and the tenant's secrets", () => {
  it("answers a client with a plugin's config secret redacted, as the call's job records it", async () => {
    const token = "tok-served-9Xc4Vb7Nm2Qa";
    await runtime.catalog.install(TENANT, KEYRING);
    await runtime.catalog.configs.set(TENANT, "keyring", { token });
    const { client } = await connect();
    const result = (await client.callTool({ name: "vault__reveal", arguments: {} })) as CallToolResult;
    expect(result.structuredContent).toMatchObject({ token: "[redacted]" });
    expect(JSON.stringify(result)).not.toContain(token);
    const jobId = String(result._meta?.[JOB_META_KEY]);
    expect(JSON.stringify(await runtime.jobs.events(jobId, { tenant: TENANT }))).not.toContain(token);
    expect(JSON.stringify(await runtime.jobs.get(jobId, TENANT))).not.toContain(token);
  });
});
