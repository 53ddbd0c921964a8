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
import { JOB_META_KEY, OzMcpServer } from "../../src/mcp/index.js";
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

  test("a call of an oz0 mcp serve client is exported as an execute_tool span naming the call's job", async () => {
    await openTraced();
    const served = await OzMcpServer.open(
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
    try {
      const result = await client.callTool({ name: "tickets__lookup", arguments: { id: 7 } });
      const job = (result._meta as Record<string, unknown>)[JOB_META_KEY];
      await runtime.close();
      const [span] = c.spans().filter((entry) => entry.name.startsWith("execute_tool"));
      expect(attr(span, "gen_ai.operation.name")).toBe("execute_tool");
      expect(attr(span, "oz0.function.address")).toBe("helpdesk/tickets.lookup");
      expect(attr(span, "oz0.job.id")).toBe(job);
    } finally {
      await client.close();
      await served.close();
    }
  });
});
