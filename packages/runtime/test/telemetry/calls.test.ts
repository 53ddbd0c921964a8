// Calls made outside an agent's run are traced too: `oz0 tool call` (the runtime's tool caller)
// and each call of an `oz0 mcp serve` client export an `execute_tool` span, a refused or failed
// call with its error.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterEach, describe, expect, test } from "vitest";
import { JOB_META_KEY, openMcpServer } from "../../src/mcp/index.js";
import { Runtime } from "../../src/runtime.js";
import { attr, type Collector, collector, KIND } from "./collector.js";

const HELPDESK = fileURLToPath(new URL("../fixtures/jobs/helpdesk", import.meta.url));

let c: Collector;
let runtime: Runtime;
let home: string;

async function openTraced(): Promise<void> {
  c = await collector();
  home = await mkdtemp(join(tmpdir(), "oz0-calls-"));
  runtime = await Runtime.open({ home, memory: true, defaultPlugins: [], otlpEndpoint: c.endpoint });
  await runtime.catalog.install("default", HELPDESK);
}

afterEach(async () => {
  await runtime.close();
  await c.close();
  await rm(home, { recursive: true, force: true });
});

describe("calls outside a job's run", () => {
  test("a call by hand (oz0 tool call) is exported as an execute_tool span, a failed one with its error", async () => {
    await openTraced();
    const ok = await runtime.tools.call("default", "helpdesk/tickets.lookup", { id: 7 });
    const refused = await runtime.tools.call("default", "helpdesk/tickets.lookup", { id: "seven" });
    expect([ok.ok, refused.ok]).toEqual([true, false]);
    await runtime.close();
    const spans = c.spans().filter((span) => span.name === "execute_tool tickets__lookup");
    expect(spans).toHaveLength(2);
    for (const span of spans) {
      expect(span.kind).toBe(KIND.internal);
      expect(attr(span, "gen_ai.operation.name")).toBe("execute_tool");
      expect(attr(span, "gen_ai.tool.name")).toBe("tickets__lookup");
      expect(attr(span, "oz0.function.address")).toBe("helpdesk/tickets.lookup");
      expect(attr(span, "gen_ai.tool.call.arguments")).toBeUndefined();
    }
    expect(spans[0]!.status?.code ?? 0).not.toBe(2);
    expect(spans[1]!.status?.code).toBe(2);
    expect(attr(spans[1], "error.type")).toBe(refused.error?.code);
  });

  test("a call of an oz0 mcp serve client is a tools/call server span under the client's traceparent, with the call's execute_tool span in it", async () => {
    await openTraced();
    const served = await openMcpServer(
      {
        store: runtime.store,
        catalog: runtime.catalog,
        home,
        tools: runtime.tools,
        jobs: runtime.jobs.jobs,
        mcp: runtime.mcp,
      },
      { tenant: "default" },
    );
    const client = new Client({ name: "test-editor", version: "1.0.0" });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await served.session().connect(serverSide);
    await client.connect(clientSide);
    const traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    try {
      const result = await client.callTool({
        name: "tickets__lookup",
        arguments: { id: 7 },
        _meta: { traceparent },
      });
      const refused = await client.callTool({ name: "tickets__lookup", arguments: { id: "seven" } });
      expect(refused.isError).toBe(true);
      const job = (result._meta as Record<string, unknown>)[JOB_META_KEY];
      await runtime.close();
      const [request, second] = c.spans().filter((entry) => entry.name === "tools/call tickets__lookup");
      expect(request!.kind).toBe(KIND.server);
      expect(request!.traceId).toBe("4bf92f3577b34da6a3ce929d0e0e4736");
      expect(request!.parentSpanId).toBe("00f067aa0ba902b7");
      expect(attr(request, "mcp.method.name")).toBe("tools/call");
      expect(attr(request, "gen_ai.operation.name")).toBe("execute_tool");
      expect(attr(request, "gen_ai.tool.name")).toBe("tickets__lookup");
      expect(attr(request, "jsonrpc.request.id")).toEqual(expect.any(String));
      expect(request!.status?.code ?? 0).not.toBe(2);
      // Without a traceparent from the client, the request starts a trace of its own.
      expect(second!.traceId).not.toBe(request!.traceId);
      expect(second!.status?.code).toBe(2);
      expect(attr(second, "error.type")).toBe("tool_error");
      const [call] = c.spans().filter((entry) => entry.name === "execute_tool tickets__lookup");
      expect(call!.kind).toBe(KIND.internal);
      expect(call!.parentSpanId).toBe(request!.spanId);
      expect(call!.traceId).toBe(request!.traceId);
      expect(attr(call, "oz0.function.address")).toBe("helpdesk/tickets.lookup");
      expect(attr(call, "oz0.job.id")).toBe(job);
    } finally {
      await client.close();
      await served.close();
    }
  });
});
