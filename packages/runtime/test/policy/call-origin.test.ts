// A call's origin goes with its own request on the dispatch path: a call a job's loop decided
// at its step is not decided again however many are in flight (a process-wide set of 1,024
// marks once forgot the oldest and decided them twice), every other call is decided there
// once, and a call outside any job says so.
import { tmpdir } from "node:os";
import { testCall } from "@oz0/sdk/testing";
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from "vitest";
import { Catalog } from "../../src/catalog/index.js";
import { bumpGovernanceVersion, GovernanceReader, governanceInterceptor } from "../../src/policy/index.js";
import { openStore, type Store } from "../../src/store/index.js";
import {
  type CallableFunction,
  type CallContext,
  type CallInterceptor,
  type CallOrigin,
  dispatchCall,
  FunctionResolver,
  ToolCaller,
} from "../../src/tools/index.js";
import { plugin } from "../catalog/helpers.js";
import { harness, scripted, TENANT } from "../jobs/helpers.js";

/** More calls in flight at once than the old set of marks held. */
const IN_FLIGHT = 1_100;

let store: Store;
beforeAll(async () => {
  store = await openStore({ memory: true });
  // Every call of the function waits for a person: a call decided again on the path is refused.
  await store.db
    .insertInto("policies")
    .values({ tenant: TENANT, pattern: "helpdesk/tickets.*", action: "ask", created_at: 1 })
    .execute();
  await bumpGovernanceVersion(store.db, TENANT);
});
afterAll(() => store.close());

function lookup(run: CallableFunction["run"]): CallableFunction {
  return {
    address: "helpdesk/tickets.lookup",
    plugin: "helpdesk",
    tool: "tickets",
    function: "lookup",
    modelName: "tickets__lookup",
    description: "Look a ticket up by id.",
    inputSchema: { type: "object", properties: { id: { type: "integer" } }, required: ["id"] },
    run,
  };
}

describe("a call's origin on the dispatch path", () => {
  it("decides each of more than 1,024 calls in flight at once exactly once: the loop's at their step, the others on the path", async () => {
    const policy = governanceInterceptor(store);
    const decisions = vi.spyOn(GovernanceReader.prototype, "current");
    let running = 0;
    let letGo: () => void = () => {};
    const allRunning = new Promise<void>((resolve) => {
      letGo = resolve;
    });
    // Each decided call holds until every one of them runs: all are in flight together.
    const fn = lookup(async (args) => {
      if (++running === IN_FLIGHT) letGo();
      await allRunning;
      return args.id;
    });
    const decidedAtStep = (n: number): CallContext => ({
      origin: { kind: "step", job: `job-${n}`, decision: { allowed: true } },
    });
    const ofAJob = (n: number): CallContext => ({ origin: { kind: "job", job: `flow-${n}` } });
    try {
      const outcomes = await Promise.all([
        ...Array.from({ length: IN_FLIGHT }, (_, n) =>
          dispatchCall(fn, { id: n }, testCall({ callId: `${n}` }), {
            context: decidedAtStep(n),
            interceptors: [policy],
          }),
        ),
        ...Array.from({ length: IN_FLIGHT }, (_, n) =>
          dispatchCall(fn, { id: n }, testCall({ callId: `${n}` }), {
            context: ofAJob(n),
            interceptors: [policy],
          }),
        ),
      ]);
      const atStep = outcomes.slice(0, IN_FLIGHT);
      const onPath = outcomes.slice(IN_FLIGHT);
      expect(atStep.filter((outcome) => !outcome.ok)).toEqual([]);
      expect(atStep.map((outcome) => (outcome.ok ? outcome.result : undefined))).toEqual(
        Array.from({ length: IN_FLIGHT }, (_, n) => n),
      );
      // No approval was given: each call no loop decided is decided on the path, once, and held.
      expect(onPath.every((outcome) => !outcome.ok && outcome.error.code === "APPROVAL_REQUIRED")).toBe(true);
      expect(decisions).toHaveBeenCalledTimes(IN_FLIGHT);
    } finally {
      decisions.mockRestore();
    }
  });

  it("types a call by hand as outside any job, and a served call as its job's", async () => {
    const catalog = new Catalog(store, tmpdir());
    const tenant = "origins";
    await catalog.install(tenant, plugin("almanac"));
    const seen: CallOrigin[] = [];
    const watch: CallInterceptor = {
      name: "watch",
      before: async ({ context }) => {
        seen.push(context.origin);
        return undefined;
      },
    };
    const caller = new ToolCaller({ source: catalog, home: tmpdir(), interceptors: [watch] });
    expect(await caller.call(tenant, "almanac/clock.now", {})).toMatchObject({ ok: true });
    expect(seen).toEqual([{ kind: "outside" }]);
    const resolved = await new FunctionResolver(catalog, { tenant, home: tmpdir() }).resolve(
      "almanac/clock.now",
    );
    if (resolved.kind !== "function") throw new Error("almanac/clock.now is a plugin's function");
    const served = testCall({ tenant, jobId: "mcp-1", callId: "1", address: resolved.fn.address });
    expect(await caller.dispatch(resolved.fn, {}, served)).toMatchObject({ ok: true });
    expect(seen).toEqual([{ kind: "outside" }, { kind: "job", job: "mcp-1" }]);
  });

  it("types a job's call as decided at the job's step, with the job's ID", async () => {
    const h = await harness();
    onTestFinished(() => h.close());
    const seen: CallOrigin[] = [];
    const { job } = await h.run("helpdesk/triage", "ticket 7", {
      models: scripted([{ call: { function: "tickets__lookup", args: { id: 7 } } }, { text: "done" }]),
      interceptors: [
        {
          name: "watch",
          before: async ({ context }) => {
            seen.push(context.origin);
            return undefined;
          },
        },
      ],
    });
    expect(job.status).toBe("succeeded");
    expect(seen).toEqual([{ kind: "step", job: job.id, decision: { allowed: true } }]);
  });
});
