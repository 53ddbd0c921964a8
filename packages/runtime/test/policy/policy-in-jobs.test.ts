// Tool policy in running jobs: a deny rule refuses a call and the model is told; where no rule
// matches, the agent's grant decides; built-ins are decided like functions.
import type { HookPayload } from "@oz0/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pluginHookSource } from "../../src/hooks/index.js";
import { JobEngine } from "../../src/jobs/index.js";
import type { LanguageModel } from "../../src/models/index.js";
import { approvalBindingInterceptor, governanceInterceptor } from "../../src/policy/index.js";
import type { CallInterceptor } from "../../src/tools/index.js";
import { hookPlugin, type TestPlugin } from "../hooks/helpers.js";
import { ALICE, executionsOf, type Lab, lab, ofKind, planned, results } from "./helpers.js";

let l: Lab;
beforeAll(async () => {
  l = await lab();
});
afterAll(() => l.close());

/** How many statements whose SQL starts with `prefix` the store ran while `work` ran. */
async function statementsWhile(prefix: string, work: () => Promise<void>): Promise<number> {
  const { db } = l.runtime.store;
  const execute = db.executeQuery.bind(db);
  let count = 0;
  db.executeQuery = ((query: Parameters<typeof execute>[0]) => {
    const text = "compile" in query ? query.compile().sql : query.sql;
    if (text.startsWith(prefix)) count += 1;
    return execute(query);
  }) as typeof db.executeQuery;
  try {
    await work();
  } finally {
    db.executeQuery = execute;
  }
  return count;
}

/**
 * A job engine over the lab's runtime that runs every agent on `model`, with the tool policy's
 * interceptor (then `more`) on the dispatch path and the hooks `plugin` registers.
 */
function hookedEngine(
  plugin: TestPlugin,
  model: LanguageModel,
  more: readonly CallInterceptor[] = [],
): JobEngine {
  return new JobEngine({
    store: l.runtime.store,
    source: l.runtime.catalog,
    home: l.home,
    models: async () => model,
    interceptors: [governanceInterceptor(l.runtime.store), ...more],
    hooks: pluginHookSource([plugin]),
  });
}

describe("a deny rule", () => {
  it("refuses the call before it runs and tells the model, which goes on", async () => {
    const tenant = await l.tenant();
    await l.runtime.policy.set(tenant, "deny", "vault/vault.write");
    const job = await l.run(tenant, "vault/keeper");
    expect(job).toMatchObject({ status: "succeeded", output: "written" });
    expect(executionsOf(job.id)).toEqual([]);
    const result = ofKind(await l.events(job.id), "tool_result")[0]?.data;
    expect(result).toMatchObject({ callId: "1.1", ok: false, error: { code: "POLICY_VIOLATION" } });
    expect(result?.error?.message).toBe(
      "the tenant's tool policy denies vault/vault.write (rule: deny vault/vault.write), so the call did not run",
    );
  });

  it("on a plugin denies every function of it, unless a more specific rule allows one", async () => {
    const tenant = await l.tenant();
    await l.runtime.policy.set(tenant, "deny", "vault/*");
    await l.runtime.policy.set(tenant, "allow", "vault/vault.write");
    const job = await l.run(tenant, "vault/noter");
    expect(results(await l.events(job.id))).toEqual({
      "1.1": { ok: false, code: "POLICY_VIOLATION" },
      "2.1": { ok: true },
    });
    expect(executionsOf(job.id).map((call) => call.fn)).toEqual(["vault.write"]);
  });

  it("takes effect in a running job at its next call", async () => {
    const tenant = await l.tenant();
    const jobs = l.engine({
      id: "test:deny-midway",
      async generate(request) {
        // Between the first call and the second, an admin denies the function.
        if (request.step === 2) await l.runtime.policy.set(tenant, "deny", "vault/vault.write");
        return request.step <= 2
          ? {
              calls: [{ name: "vault__write", args: { key: `k${request.step}`, value: "v" } }],
              usage: { inputTokens: 1, outputTokens: 1 },
            }
          : { calls: [], text: "done", usage: { inputTokens: 1, outputTokens: 1 } };
      },
    });
    const job = await l.run(tenant, "vault/keeper", "go", jobs);
    expect(results(await l.events(job.id))).toEqual({
      "1.1": { ok: true },
      "2.1": { ok: false, code: "POLICY_VIOLATION" },
    });
  });
});

describe("the governance a step goes by", () => {
  it("is read by the previous step's own write, not by a statement of its own at every step", async () => {
    const tenant = await l.tenant();
    const steps = 6;
    const jobs = l.engine({
      id: "test:many-steps",
      async generate(request) {
        return request.step <= steps
          ? {
              calls: [{ name: "vault__write", args: { key: `k${request.step}`, value: "v" } }],
              usage: { inputTokens: 1, outputTokens: 1 },
            }
          : { calls: [], text: "done", usage: { inputTokens: 1, outputTokens: 1 } };
      },
    });
    const reads = await statementsWhile('select "governance_version"', async () => {
      const job = await l.run(tenant, "vault/keeper", "go", jobs);
      expect(job.status).toBe("succeeded");
      expect(Object.keys(results(await l.events(job.id)))).toHaveLength(steps);
    });
    // The start's check (a killed agent starts none) goes by the version its catalog look-up
    // read with the catalog's; the first step goes by what the set-up's write of the context
    // read, after the plugins' set-up code; every later step goes by what the last write read.
    expect(reads).toBe(0);
  });

  it("a run by ID reads its job's row with its tenant's versions, and its claim and set-up read the versions no more", async () => {
    const tenant = await l.tenant();
    const started = await l.runtime.jobs.start({ tenant, agent: "vault/keeper", input: "go" });
    const versionReads = await statementsWhile('select "tenants"."catalog_version"', async () => {
      expect((await l.runtime.jobs.run(started.id, { tenant })).status).toBe("succeeded");
    });
    expect(versionReads).toBe(0);
  });

  it("is read at the first step when a post_session_access handler ran after the set-up's write, so a kill switch it set stops the job before its first model call", async () => {
    const tenant = await l.tenant();
    const doorman = hookPlugin("doorman", (host) => {
      host.addHook({
        name: "kill-on-access",
        build: () => ({
          post_session_access: async () => {
            await l.runtime.killSwitches.kill(tenant, "agent", "vault/keeper", ALICE);
          },
        }),
      });
    });
    const calls: number[] = [];
    const jobs = hookedEngine(doorman, {
      id: "test:doorman",
      async generate(request) {
        calls.push(request.step);
        return { calls: [], text: "hello", usage: { inputTokens: 1, outputTokens: 1 } };
      },
    });
    const started = await jobs.start({ tenant, agent: "vault/keeper", input: "hi", mode: "chat" });
    const job = await jobs.run(started.id, { tenant });
    expect(job.failure).toMatchObject({ kind: "killed" });
    expect(calls).toEqual([]);
  });

  it("is read again when an on_post_checkpoint handler ran after that write, so its change counts at the next step", async () => {
    const tenant = await l.tenant();
    const watcher = hookPlugin("watcher", (host) => {
      host.addHook({
        name: "kill-after-first",
        build: () => ({
          on_post_checkpoint: async (payload: HookPayload<"on_post_checkpoint">) => {
            if (payload.events.some((entry) => entry.kind === "tool_result")) {
              await l.runtime.killSwitches.kill(tenant, "agent", "vault/keeper", ALICE);
            }
          },
        }),
      });
    });
    const jobs = hookedEngine(watcher, {
      id: "test:watched",
      async generate(request) {
        return {
          calls: [{ name: "vault__write", args: { key: `k${request.step}`, value: "v" } }],
          usage: { inputTokens: 1, outputTokens: 1 },
        };
      },
    });
    const job = await l.run(tenant, "vault/keeper", "go", jobs);
    expect(job.failure).toMatchObject({ kind: "killed" });
    // The kill came after step 1's result: step 2's model call never happened.
    expect(ofKind(await l.events(job.id), "model_call")).toHaveLength(1);
  });
});

describe("the approval binding in a job", () => {
  it("reads no approval for a call the loop let through without one, with a pre_tool_call handler listening", async () => {
    const tenant = await l.tenant();
    const steps = 3;
    const seen: string[] = [];
    const watcher = hookPlugin("watcher", (host) => {
      host.addHook({
        name: "sees-calls",
        build: () => ({
          pre_tool_call: (payload: HookPayload<"pre_tool_call">) => {
            seen.push(payload.callId);
          },
        }),
      });
    });
    const jobs = hookedEngine(
      watcher,
      {
        id: "test:bound",
        async generate(request) {
          return request.step <= steps
            ? {
                calls: [{ name: "vault__write", args: { key: `k${request.step}`, value: "v" } }],
                usage: { inputTokens: 1, outputTokens: 1 },
              }
            : { calls: [], text: "done", usage: { inputTokens: 1, outputTokens: 1 } };
        },
      },
      [approvalBindingInterceptor(l.runtime.store)],
    );
    const reads = await statementsWhile('select * from "approvals"', async () => {
      const job = await l.run(tenant, "vault/keeper", "go", jobs);
      expect(job.status).toBe("succeeded");
      expect(Object.keys(results(await l.events(job.id)))).toHaveLength(steps);
    });
    expect(seen).toEqual(["1.1", "2.1", "3.1"]);
    expect(reads).toBe(0);
  });
});

describe("the agent's grant", () => {
  // A model that asks for vault__write, which sneaky does not list. Install refuses a script that
  // plans such a call (OZ-S025), so the model is given here: only a model's answer brings one.
  const sneaky = () =>
    l.engine(
      planned([
        { calls: [{ name: "vault__write", args: { key: "door", value: "open" } }] },
        { text: "could not write" },
      ]),
    );

  it("never lets a model call a function the agent's tools do not list, whatever it asks", async () => {
    const tenant = await l.tenant();
    const job = await l.run(tenant, "vault/sneaky", "go", sneaky());
    expect(job.status).toBe("succeeded");
    const result = ofKind(await l.events(job.id), "tool_result")[0]?.data;
    expect(result).toMatchObject({ ok: false, error: { code: "NOT_FOUND" } });
    expect(result?.error?.message).toBe(
      "there is no function vault__write; the functions you may call: vault__read",
    );
    expect(executionsOf(job.id)).toEqual([]);
  });

  it("is not widened by an allow rule on a function the agent does not list", async () => {
    const tenant = await l.tenant();
    await l.runtime.policy.set(tenant, "allow", "vault/vault.write");
    await l.runtime.policy.set(tenant, "allow", "vault/*");
    const job = await l.run(tenant, "vault/sneaky", "go", sneaky());
    expect(results(await l.events(job.id))).toEqual({ "1.1": { ok: false, code: "NOT_FOUND" } });
    expect(executionsOf(job.id)).toEqual([]);
  });

  it("decides alone where no rule matches: a listed function runs", async () => {
    const tenant = await l.tenant();
    await l.runtime.policy.set(tenant, "deny", "vault/audit.*");
    const job = await l.run(tenant, "vault/keeper");
    expect(results(await l.events(job.id))).toEqual({ "1.1": { ok: true } });
    expect(executionsOf(job.id)).toHaveLength(1);
  });
});

describe("built-ins", () => {
  it("are denied by their own address, oz.delegate, like functions", async () => {
    const tenant = await l.tenant();
    await l.runtime.policy.set(tenant, "deny", "oz.delegate");
    const job = await l.run(tenant, "vault/boss");
    expect(job.status).toBe("succeeded");
    expect(results(await l.events(job.id))).toEqual({ "1.1": { ok: false, code: "POLICY_VIOLATION" } });
    expect(await l.runtime.jobs.search({ tenant, agent: "keeper" })).toEqual([]);
  });

  it("are held for a person by oz.*, and run once approved", async () => {
    const tenant = await l.tenant();
    await l.runtime.policy.set(tenant, "ask", "oz.*");
    const waiting = await l.run(tenant, "vault/boss");
    expect(waiting).toMatchObject({ status: "waiting", waitingFor: { kind: "approval", callId: "1.1" } });
    const [approval] = await l.runtime.approvals.list(tenant);
    expect(approval).toMatchObject({
      address: "oz.delegate",
      args: { agent: "keeper", input: "open the door" },
    });
    await l.runtime.approvals.approve(tenant, approval!.id, ALICE);
    const parent = await l.runtime.jobs.run(waiting.id, { tenant: waiting.tenant });
    expect(parent).toMatchObject({ status: "waiting", waitingFor: { kind: "child" } });
    const [child] = await l.runtime.jobs.search({ tenant, agent: "keeper" });
    expect(child).toBeDefined();
  });
});

describe("lazy tool loading", () => {
  it("decides a call through oz.call_tool as the function it names, approval included", async () => {
    const tenant = await l.tenant();
    await l.runtime.policy.set(tenant, "ask", "vault/vault.write");
    const jobs = l.engine(
      planned([
        {
          calls: [
            { name: "oz__call_tool", args: { name: "vault__write", args: { key: "door", value: "open" } } },
          ],
        },
        { text: "done" },
      ]),
    );
    const job = await l.run(tenant, "vault/finder", "go", jobs);
    expect(job).toMatchObject({ status: "waiting", waitingFor: { kind: "approval" } });
    const [approval] = await l.runtime.approvals.list(tenant);
    expect(approval).toMatchObject({ address: "vault/vault.write", args: { key: "door", value: "open" } });
    await l.runtime.approvals.approve(tenant, approval!.id, ALICE);
    expect(await jobs.run(job.id, { tenant: job.tenant })).toMatchObject({ status: "succeeded" });
    expect(executionsOf(job.id)).toHaveLength(1);
  });

  it("offers through oz.find_tools no function a deny rule refuses", async () => {
    const tenant = await l.tenant();
    await l.runtime.policy.set(tenant, "deny", "vault/vault.read");
    const jobs = l.engine(
      planned([
        { calls: [{ name: "oz__find_tools", args: { query: "vault value key" } }] },
        { text: "done" },
      ]),
    );
    const job = await l.run(tenant, "vault/finder", "go", jobs);
    const found = ofKind(await l.events(job.id), "tool_result")[0]?.data.result as {
      functions: { name: string }[];
    };
    expect(found.functions.map((fn) => fn.name)).toEqual(["vault__write"]);
  });
});
