// `oz0 mcp serve --http`, spoken to in raw HTTP where the MCP SDK's client would hide what is
// checked: the Origin of a web page's request, and an SSE stream resumed with Last-Event-ID.
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type HttpServing, type OzMcpServer, openMcpServer, serveHttp } from "../../src/mcp/index.js";
import { Runtime } from "../../src/runtime.js";
import { eventually, tempDir } from "./helpers.js";

const TENANT = "default";
const HELPDESK = fileURLToPath(new URL("../fixtures/jobs/helpdesk", import.meta.url));
const PROTOCOL = "2025-11-25";

let runtime: Runtime;
let served: OzMcpServer;
let serving: HttpServing;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  const temp = await tempDir("oz0-mcp-http-");
  cleanup = temp.cleanup;
  runtime = await Runtime.open({ home: temp.dir, memory: true, defaultPlugins: [] });
  await runtime.catalog.install(TENANT, HELPDESK);
  served = await openMcpServer(
    {
      store: runtime.store,
      catalog: runtime.catalog,
      home: temp.dir,
      tools: runtime.tools,
      jobs: runtime.jobs.jobs,
      mcp: runtime.mcp,
    },
    { tenant: TENANT },
  );
  // Long enough that a reconnect in these tests is never late, however loaded the machine.
  serving = await serveHttp(served, { port: 0, reconnectGraceMs: 600_000 });
});

afterEach(async () => {
  await serving.close();
  await served.close();
  await runtime.close();
  await cleanup();
});

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: "raw", version: "1.0.0" } },
};

function post(body: unknown, headers: Record<string, string> = {}, signal?: AbortSignal, url = serving.url) {
  return fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
    body: JSON.stringify(body),
    ...(signal === undefined ? {} : { signal }),
  });
}

interface SseEvent {
  readonly id: string | undefined;
  readonly data: string;
}

/** Reads SSE events from `response` until `until` says stop; returns them. */
async function readEvents(response: Response, until: (event: SseEvent) => boolean): Promise<SseEvent[]> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const events: SseEvent[] = [];
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return events;
    buffer += value;
    let end = buffer.indexOf("\n\n");
    while (end !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const lines = block.split("\n");
      const id = lines
        .find((line) => line.startsWith("id:"))
        ?.slice(3)
        .trim();
      const data = lines
        .filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(5).trimStart())
        .join("\n");
      const event = { id, data };
      events.push(event);
      if (until(event)) {
        await reader.cancel().catch(() => undefined);
        return events;
      }
      end = buffer.indexOf("\n\n");
    }
  }
}

async function openSession(url = serving.url): Promise<Record<string, string>> {
  const response = await post(INITIALIZE, {}, undefined, url);
  expect(response.status).toBe(200);
  const session = response.headers.get("mcp-session-id")!;
  await readEvents(response, (event) => event.data.includes('"id":1'));
  const headers = { "mcp-session-id": session, "mcp-protocol-version": PROTOCOL };
  const initialized = await post(
    { jsonrpc: "2.0", method: "notifications/initialized" },
    headers,
    undefined,
    url,
  );
  expect(initialized.status).toBe(202);
  return headers;
}

describe("oz0 mcp serve --http and the Origin of a request", () => {
  it("refuses a request from a web page on a foreign origin with 403", async () => {
    const response = await post(INITIALIZE, { origin: "https://evil.example" });
    expect(response.status).toBe(403);
    const body = (await response.json()) as { error: { message: string } };
    expect(body.error.message).toBe(
      "requests from the web page at https://evil.example are refused: oz0 mcp serve answers pages on a loopback host only (localhost, 127.0.0.1, [::1])",
    );
  });

  it("refuses the opaque origin null, and answers loopback origins and requests without one", async () => {
    expect((await post(INITIALIZE, { origin: "null" })).status).toBe(403);
    for (const origin of ["http://localhost:5173", "http://127.0.0.1", "http://[::1]:8080"]) {
      const response = await post(INITIALIZE, { origin });
      expect(response.status).toBe(200);
      await response.body?.cancel();
    }
    const plain = await post(INITIALIZE);
    expect(plain.status).toBe(200);
    await plain.body?.cancel();
  });
});

describe("oz0 mcp serve --http resumes SSE streams", () => {
  it("replays what a held call sent after a broken stream to a client reconnecting with Last-Event-ID", async () => {
    await runtime.policy.set(TENANT, "ask", "helpdesk/tickets.assign");
    const headers = await openSession();
    const broken = new AbortController();
    const call = await post(
      {
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: {
          name: "tickets__assign",
          arguments: { id: 7, queue: "billing" },
          _meta: { progressToken: "p1" },
        },
      },
      headers,
      broken.signal,
    );
    expect(call.headers.get("content-type")).toContain("text/event-stream");
    const before = await readEvents(call, (event) => event.data.includes("notifications/progress"));
    const last = before.at(-1)!.id;
    expect(last).toBeDefined();
    broken.abort();

    let approvals = await runtime.approvals.list(TENANT);
    await eventually(async () => {
      approvals = await runtime.approvals.list(TENANT);
      return approvals.length > 0;
    });
    await runtime.approvals.decide(TENANT, approvals[0]!.id, "approve", "alice");

    // Until the server has seen the old stream go (409 till then), as a client's retry would.
    let resumed: Response | undefined;
    await eventually(async () => {
      resumed = await fetch(serving.url, {
        headers: { accept: "text/event-stream", "last-event-id": last!, ...headers },
      });
      if (resumed.status === 409) await resumed.body?.cancel();
      return resumed.status !== 409;
    });
    if (resumed === undefined) throw new Error("no answer to the reconnect");
    expect(resumed.status).toBe(200);
    const after = await readEvents(resumed, (event) => event.data.includes('"id":2'));
    const answer = JSON.parse(after.at(-1)!.data) as { id: number; result: { structuredContent: unknown } };
    expect(answer).toMatchObject({ id: 2, result: { structuredContent: { id: 7, queue: "billing" } } });
  });

  it("withdraws a held call whose client's stream broke and who did not come back: its job ends cancelled", async () => {
    await serving.close();
    serving = await serveHttp(served, { port: 0, reconnectGraceMs: 0 });
    await runtime.policy.set(TENANT, "ask", "helpdesk/ledger.add");
    const headers = await openSession();
    const gone = new AbortController();
    const call = await post(
      {
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "ledger__add", arguments: { entry: "nobody" }, _meta: { progressToken: "p1" } },
      },
      headers,
      gone.signal,
    );
    await readEvents(call, (event) => event.data.includes("notifications/progress"));
    const [approval] = await runtime.approvals.list(TENANT);
    gone.abort();
    let status = "";
    await eventually(async () => {
      status = (await runtime.jobs.get(approval!.job, TENANT)).status;
      return status !== "running";
    });
    expect(status).toBe("cancelled");
    expect(await runtime.approvals.get(TENANT, approval!.id)).toMatchObject({ status: "withdrawn" });
    await expect(runtime.approvals.decide(TENANT, approval!.id, "approve", "alice")).rejects.toMatchObject({
      code: "APPROVAL_STATE_CONFLICT",
    });
  });
});
