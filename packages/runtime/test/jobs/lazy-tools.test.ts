// tool_loading: lazy with the tenant's governance: oz.find_tools offers only what the agent may
// call now (its functions, minus killed tools and denied ones), and a call through
// oz.call_tool is decided and traced as the real function's.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { JobEngine } from "../../src/jobs/index.js";
import type { Runtime } from "../../src/runtime.js";
import { ledgerRuntime, ofKind, TENANT } from "./flows/helpers.js";

let runtime: Runtime;
let close: () => Promise<void>;
beforeEach(async () => {
  ({ runtime, close } = await ledgerRuntime());
});
afterEach(() => close());

async function runLazy() {
  const started = await runtime.jobs.start({ tenant: TENANT, agent: "ledger-flows/lazy", input: "go" });
  const job = await runtime.jobs.run(started.id, { tenant: TENANT });
  return { job, events: await runtime.jobs.events(job.id, { tenant: TENANT }) };
}

function found(events: Awaited<ReturnType<typeof runLazy>>["events"]): string[] {
  const [result] = ofKind(events, "tool_result");
  const listed = result?.data.result as { functions: { name: string }[] } | undefined;
  return listed?.functions.map((fn) => fn.name) ?? [];
}

describe("oz.find_tools", () => {
  it("offers every function the agent lists when nothing stops them", async () => {
    const { job, events } = await runLazy();
    expect(job.status).toBe("succeeded");
    expect(found(events)).toEqual(["ledger__add", "vault__read"]);
  });

  it("leaves out a function a deny rule refuses", async () => {
    await runtime.policy.set(TENANT, "deny", "ledger-flows/vault.read");
    expect(found((await runLazy()).events)).toEqual(["ledger__add"]);
  });

  it("leaves out the functions of a killed tool", async () => {
    await runtime.killSwitches.kill(TENANT, "tool", "ledger-flows/ledger", "alice");
    expect(found((await runLazy()).events)).toEqual(["vault__read"]);
  });
});

describe("oz.call_tool", () => {
  it("is decided as the real function: a deny rule refuses it as it refuses a direct call", async () => {
    await runtime.policy.set(TENANT, "deny", "ledger-flows/vault.read");
    const byHand = await runtime.tools.call(TENANT, "ledger-flows/vault.read", {});
    const { job, events } = await runLazy();
    expect(job.status).toBe("succeeded");
    const call = ofKind(events, "tool_call").find((entry) => entry.data.callId === "2.1");
    expect(call?.data).toMatchObject({ name: "vault__read", address: "ledger-flows/vault.read" });
    const result = ofKind(events, "tool_result").find((entry) => entry.data.callId === "2.1");
    expect(result?.data).toMatchObject({ ok: false, error: { code: byHand.error?.code } });
  });

  it("runs the real function, traced under its own name and address", async () => {
    const { events } = await runLazy();
    const call = ofKind(events, "tool_call").find((entry) => entry.data.callId === "3.1");
    expect(call?.data).toMatchObject({ name: "ledger__add", address: "ledger-flows/ledger.add" });
    const result = ofKind(events, "tool_result").find((entry) => entry.data.callId === "3.1");
    expect(result?.data).toMatchObject({ ok: true, result: { written: "lazy" } });
  });

  it("offers the model the same two built-ins in every request", async () => {
    const offered: string[][] = [];
    const resolve = runtime.models.resolver;
    const jobs = new JobEngine({
      store: runtime.store,
      source: runtime.catalog,
      home: runtime.home,
      models: async (choice, context) => {
        const model = await resolve(choice, context);
        return {
          id: model.id,
          generate: (request) => {
            offered.push(request.functions.map((fn) => fn.name));
            return model.generate(request);
          },
        };
      },
    });
    const started = await jobs.start({ tenant: TENANT, agent: "ledger-flows/lazy", input: "go" });
    expect((await jobs.run(started.id, { tenant: TENANT })).status).toBe("succeeded");
    expect(offered).toEqual(Array.from({ length: 4 }, () => ["oz__find_tools", "oz__call_tool"]));
  });
});
