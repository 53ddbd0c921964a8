// A flow's job is an `invoke_workflow` span, its function steps `execute_tool` spans under it,
// and the agent a step starts a child job whose run is a child of the flow's run, in its trace.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "vitest";
import { Runtime } from "../../src/runtime.js";
import { LEDGER_FLOWS, TENANT } from "../jobs/flows/helpers.js";
import { attr, collector, KIND } from "./collector.js";

test("a flow's run is an invoke_workflow span, with its steps' calls and its agent step's child job under it", async () => {
  const c = await collector();
  const home = await mkdtemp(join(tmpdir(), "oz0-flow-spans-"));
  const runtime = await Runtime.open({ home, memory: true, defaultPlugins: [], otlpEndpoint: c.endpoint });
  try {
    await runtime.catalog.install(TENANT, LEDGER_FLOWS);
    const started = await runtime.jobs.start({
      tenant: TENANT,
      agent: "ledger-flows/yaml-steps",
      input: "t",
    });
    expect((await runtime.jobs.run(started.id, { tenant: TENANT })).status).toBe("waiting");
    expect((await runtime.jobs.run(`${started.id}.noter-note`, { tenant: TENANT })).status).toBe("succeeded");
    expect((await runtime.jobs.run(started.id, { tenant: TENANT })).status).toBe("succeeded");
    await runtime.close();

    const flows = c.spans().filter((span) => span.name === "invoke_workflow ledger-flows/yaml-steps");
    expect(flows).toHaveLength(2);
    const [first, resumed] = flows;
    for (const flow of flows) {
      expect(flow.kind).toBe(KIND.internal);
      expect(attr(flow, "gen_ai.operation.name")).toBe("invoke_workflow");
      expect(attr(flow, "gen_ai.workflow.name")).toBe("ledger-flows/yaml-steps");
    }
    expect(resumed!.parentSpanId).toBe(first!.spanId);
    const steps = c.spans().filter((span) => attr(span, "gen_ai.operation.name") === "execute_tool");
    expect(steps.map((span) => attr(span, "oz0.tool_call.id"))).toEqual(["first", "second"]);
    expect(steps.every((span) => span.parentSpanId === first!.spanId)).toBe(true);
    const [agent] = c.spans().filter((span) => span.name === "invoke_agent ledger-flows/noter");
    expect(agent!.parentSpanId).toBe(first!.spanId);
    expect(new Set(c.spans().map((span) => span.traceId))).toEqual(new Set([first!.traceId]));
  } finally {
    await runtime.close();
    await c.close();
    await rm(home, { recursive: true, force: true });
  }
});
