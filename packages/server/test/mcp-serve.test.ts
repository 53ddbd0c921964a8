// MCP over HTTP on the API server: the official MCP SDK client, with a bearer key, lists and
// calls oz0's functions at /v1/t/{tenant}/mcp; a held call reports its wait as progress and
// answers once a person approves it; the key's role and agents are checked as on every route.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Caller } from "@oz0/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { actorOf, KEYS, type KeyName, LAB, type TestServer, testServer } from "./helpers.js";

const ADMIN: Caller = { tenant: LAB, actor: "cli:test", role: "admin", agents: ["*"] };

let test: TestServer;
const open: Client[] = [];

beforeAll(async () => {
  test = await testServer();
});
afterAll(async () => {
  await Promise.all(open.map((client) => client.close()));
  await test.close();
});

async function connect(key: KeyName, agent?: string): Promise<Client> {
  const url = new URL(`${test.url}/v1/t/${LAB}/mcp`);
  if (agent !== undefined) url.searchParams.set("agent", agent);
  const transport = new StreamableHTTPClientTransport(url, {
    requestInit: { headers: { authorization: `Bearer ${KEYS[key]}` } },
  });
  const client = new Client({ name: "sdk-test", version: "1.0.0" });
  await client.connect(transport);
  open.push(client);
  return client;
}

describe("MCP over HTTP on oz0 serve", () => {
  it("lists the tenant's functions to the official SDK client with a runner's key, and calls one as a job", async () => {
    const client = await connect("runner");
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(["tickets__lookup", "tickets__assign"]),
    );
    const result = await client.callTool({ name: "tickets__assign", arguments: { id: 7, queue: "billing" } });
    expect(result).toMatchObject({ structuredContent: { id: 7, queue: "billing" } });
    const job = (result._meta as Record<string, string>)["oz0/job"];
    const response = await test.request(`/v1/t/${LAB}/jobs/${job}`, { key: "runner" });
    expect(await response.json()).toMatchObject({ id: job, status: "succeeded" });
    const trace = await test.request(`/v1/t/${LAB}/jobs/${job}/events`, {
      key: "runner",
      headers: { accept: "application/json" },
    });
    expect(await trace.text()).toContain(`"by":"${actorOf("runner")} via mcp:sdk-test"`);
  });

  it("serves one agent's functions with ?agent=, as it", async () => {
    const client = await connect("runner", "helpdesk/fixer");
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["tickets__lookup"]);
    const { prompts } = await client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toEqual(["helpdesk/fixer"]);
  });

  it("holds a call an ask rule covers, tells the client it waits as progress, and answers once approved", async () => {
    await test.runtime.services.policy.set(ADMIN, "ask", "helpdesk/tickets.assign");
    try {
      const client = await connect("runner");
      const heard: string[] = [];
      const answer = client.callTool(
        { name: "tickets__assign", arguments: { id: 8, queue: "bugs" } },
        undefined,
        { onprogress: (progress) => heard.push(String(progress.message)), timeout: 60_000 },
      );
      let pending: { id: string }[] = [];
      while (pending.length === 0) {
        pending = (await test.runtime.services.approvals.list(ADMIN)).filter(
          (approval) => approval.status === "pending",
        );
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const decided = await test.request(`/v1/t/${LAB}/approvals/${pending[0]!.id}/approve`, {
        key: "admin",
        method: "POST",
        body: "{}",
      });
      expect(decided.status).toBe(200);
      expect(await answer).toMatchObject({ structuredContent: { id: 8, queue: "bugs" } });
      expect(heard.length).toBeGreaterThan(0);
    } finally {
      await test.runtime.services.policy.set(ADMIN, "allow", "helpdesk/tickets.assign");
    }
  });

  it("withdraws a held call whose client's stream broke and did not come back: its job ends cancelled", async () => {
    // testServer keeps the keys of the server it started last: the main server's come back after.
    const kept = { ...KEYS };
    const quick = await testServer({ mcpReconnectGraceMs: 0 });
    try {
      await quick.runtime.services.policy.set(ADMIN, "ask", "helpdesk/tickets.assign");
      const post = (body: unknown, headers: Record<string, string> = {}, signal?: AbortSignal) =>
        quick.request(`/v1/t/${LAB}/mcp`, {
          key: "runner",
          method: "POST",
          headers: { accept: "application/json, text/event-stream", ...headers },
          body: JSON.stringify(body),
          ...(signal === undefined ? {} : { signal }),
        });
      const started = await post(INITIALIZE);
      const session = {
        "mcp-session-id": started.headers.get("mcp-session-id")!,
        "mcp-protocol-version": PROTOCOL,
      };
      await started.text();
      await (await post({ jsonrpc: "2.0", method: "notifications/initialized" }, session)).text();
      const gone = new AbortController();
      const call = await post(
        {
          jsonrpc: "2.0",
          id: 2,
          method: "tools/call",
          params: {
            name: "tickets__assign",
            arguments: { id: 9, queue: "bugs" },
            _meta: { progressToken: "p" },
          },
        },
        session,
        gone.signal,
      );
      const reader = call.body!.getReader();
      let seen = "";
      while (!seen.includes("notifications/progress")) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`the stream ended before any progress: ${seen}`);
        seen += new TextDecoder().decode(value);
      }
      const [approval] = await quick.runtime.services.approvals.list(ADMIN);
      gone.abort();
      let status = "running";
      while (status === "running") {
        status = (await quick.runtime.services.jobs.get(ADMIN, approval!.job)).status;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(status).toBe("cancelled");
      expect(await quick.runtime.services.approvals.get(ADMIN, approval!.id)).toMatchObject({
        status: "withdrawn",
      });
    } finally {
      await quick.close();
      Object.assign(KEYS, kept);
    }
  });

  it("replays what a held call sent after a broken stream to the client reconnecting with Last-Event-ID", async () => {
    await test.runtime.services.policy.set(ADMIN, "ask", "helpdesk/tickets.assign");
    try {
      const post = (body: unknown, headers: Record<string, string> = {}, signal?: AbortSignal) =>
        test.request(`/v1/t/${LAB}/mcp`, {
          key: "runner",
          method: "POST",
          headers: { accept: "application/json, text/event-stream", ...headers },
          body: JSON.stringify(body),
          ...(signal === undefined ? {} : { signal }),
        });
      const started = await post(INITIALIZE);
      const session = {
        "mcp-session-id": started.headers.get("mcp-session-id")!,
        "mcp-protocol-version": PROTOCOL,
      };
      await started.text();
      await (await post({ jsonrpc: "2.0", method: "notifications/initialized" }, session)).text();
      const broken = new AbortController();
      const call = await post(
        {
          jsonrpc: "2.0",
          id: 2,
          method: "tools/call",
          params: {
            name: "tickets__assign",
            arguments: { id: 10, queue: "bugs" },
            _meta: { progressToken: "r" },
          },
        },
        session,
        broken.signal,
      );
      const before = await until(call, "notifications/progress");
      const last = /^id: (.+)$/m.exec(before)?.[1];
      expect(last).toBeDefined();
      broken.abort();
      let pending: { id: string }[] = [];
      while (pending.length === 0) {
        pending = (await test.runtime.services.approvals.list(ADMIN)).filter(
          (approval) => approval.status === "pending",
        );
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await test.runtime.services.approvals.approve(ADMIN, pending[0]!.id);
      // Until the server has seen the old stream go (409 till then), as a client's retry would.
      let resumed: Response;
      for (;;) {
        resumed = await test.request(`/v1/t/${LAB}/mcp`, {
          key: "runner",
          headers: { accept: "text/event-stream", "last-event-id": last!, ...session },
        });
        if (resumed.status !== 409) break;
        await resumed.body?.cancel();
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(resumed.status).toBe(200);
      const after = await until(resumed, '"id":2');
      expect(after).toContain('"structuredContent":{"id":10,"queue":"bugs"}');
    } finally {
      await test.runtime.services.policy.set(ADMIN, "allow", "helpdesk/tickets.assign");
    }
  });

  it("refuses a viewer's key before any session: 403, in the one error shape", async () => {
    const response = await test.request(`/v1/t/${LAB}/mcp`, {
      key: "viewer",
      method: "POST",
      headers: { accept: "application/json, text/event-stream" },
      body: JSON.stringify(INITIALIZE),
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ error: { code: "FORBIDDEN" } });
  });

  it("refuses a request without a key: 401", async () => {
    const response = await test.request(`/v1/t/${LAB}/mcp`, {
      method: "POST",
      headers: { accept: "application/json, text/event-stream" },
      body: JSON.stringify(INITIALIZE),
    });
    expect(response.status).toBe(401);
  });

  it("answers a key limited to some agents about an agent outside them exactly as about one that does not exist", async () => {
    const ask = (agent: string) =>
      test.request(`/v1/t/${LAB}/mcp?agent=${agent}`, {
        key: "scoped",
        method: "POST",
        headers: { accept: "application/json, text/event-stream" },
        body: JSON.stringify(INITIALIZE),
      });
    const outside = await ask("helpdesk/triage");
    const missing = await ask("helpdesk/nosuch");
    expect(outside.status).toBe(404);
    expect(await outside.text()).toBe((await missing.text()).replaceAll("nosuch", "triage"));
  });

  it("lets no other key use a session: another caller naming it is told there is no such session", async () => {
    const started = await test.request(`/v1/t/${LAB}/mcp`, {
      key: "runner",
      method: "POST",
      headers: { accept: "application/json, text/event-stream" },
      body: JSON.stringify(INITIALIZE),
    });
    const session = started.headers.get("mcp-session-id");
    await started.body?.cancel();
    expect(session).toBeTruthy();
    const list = { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} };
    const stolen = await test.request(`/v1/t/${LAB}/mcp`, {
      key: "admin",
      method: "POST",
      headers: {
        accept: "application/json, text/event-stream",
        "mcp-session-id": session!,
        "mcp-protocol-version": PROTOCOL,
      },
      body: JSON.stringify(list),
    });
    expect(stolen.status).toBe(404);
    expect(await stolen.json()).toMatchObject({ error: { code: "NOT_FOUND" } });
  });

  it("refuses the SSE stream to a web page of another origin", async () => {
    const response = await test.request(`/v1/t/${LAB}/mcp`, {
      key: "runner",
      headers: { accept: "text/event-stream", origin: "https://evil.example", "mcp-session-id": "x" },
    });
    expect(response.status).toBe(403);
  });
});

/** Reads an SSE answer until `marker` shows up in it, and leaves the stream open. */
async function until(response: Response, marker: string): Promise<string> {
  const reader = response.body!.getReader();
  let seen = "";
  while (!seen.includes(marker)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the stream ended before ${marker}: ${seen}`);
    seen += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  return seen;
}

const PROTOCOL = "2025-06-18";
const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: "raw", version: "1.0.0" } },
};
