// oz0 as an MCP server, talked to by the MCP SDK's own client: the functions it serves, each
// call made on the dispatch path and recorded as a job, and the list following what is installed.
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { JOB_META_KEY, OzMcpServer } from "../../src/mcp/index.js";
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
  runtime = await Runtime.open({ home, memory: true, defaultPlugins: [] });
  await runtime.catalog.install(TENANT, HELPDESK);
});

afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
  await runtime.close();
  await cleanup();
});

async function connect(options: { agent?: string; watchMs?: number } = {}) {
  const served = await OzMcpServer.open(
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
    const events = await runtime.jobs.events(jobId);
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
    const events = await runtime.jobs.events(String(result._meta?.[JOB_META_KEY]));
    expect(events.map((entry) => entry.kind)).toEqual([
      "job_started",
      "tool_call",
      "approval_requested",
      "approval_decided",
      "tool_result",
      "job_succeeded",
    ]);
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
    const events = await runtime.jobs.events(jobId);
    expect(events.filter((entry) => entry.kind === "tool_result").map((entry) => entry.data)).toEqual([
      expect.objectContaining({ ok: false, error: expect.objectContaining({ code: "APPROVAL_DENIED" }) }),
    ]);
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
      OzMcpServer.open(
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
    expect(JSON.stringify(await runtime.jobs.events(jobId))).not.toContain(token);
    expect(JSON.stringify(await runtime.jobs.get(jobId, TENANT))).not.toContain(token);
  });
});
