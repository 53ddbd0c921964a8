// The governed dispatch path's cost per tool call, against calling the function directly: the
// arguments' schema check, the tenant's tool policy (one governance-version read, then a cached
// match over 0, 10 or 100 rules), 0, 10 or 100 hook handlers on pre_tool_call (each recording its
// governance_checked), and the history append a job makes for every call (tool_call, then the
// governance events and tool_result, to SQLite in a file, WAL). Then whole 20-step jobs on the
// same settings. Run it with `npm run bench`.
import { rm } from "node:fs/promises";
import {
  type CallableFunction,
  dispatchCall,
  JobEngine,
  type LanguageModel,
  loadPluginDir,
  openStore,
  type PartSource,
  pluginHookSource,
  RunHooks,
  type Store,
} from "@oz0/runtime";
import type { FunctionCall } from "@oz0/sdk";
import { createRecordingHost } from "@oz0/sdk/internal";
import { event } from "../packages/runtime/src/events/index.js";
import { hookInterceptor } from "../packages/runtime/src/hooks/index.js";
import { JobStore, type Lease } from "../packages/runtime/src/jobs/store.js";
import { bumpGovernanceVersion, governanceInterceptor } from "../packages/runtime/src/policy/index.js";
import type { CallContext } from "../packages/runtime/src/tools/index.js";
import { JobUsage } from "../packages/runtime/src/usage/index.js";
import { benchHome } from "./bench-plugin.js";

const SIZES = [0, 10, 100];
const CALLS = 2000;
const ROUNDS = 5;
const JOB_STEPS = 20;

/** A plugin with `count` passing handlers on pre_tool_call, as lifecycle specs. */
function hooksPlugin(count: number) {
  const code = createRecordingHost("watchers");
  for (let index = 0; index < count; index++) {
    code.addBeforeToolCall({ name: `watch-${index}`, run: () => undefined });
  }
  return { manifest: { name: "watchers" }, code };
}

/** `count` rules none of which covers the bench's function, and one that allows it. */
async function setRules(store: Store, count: number): Promise<void> {
  await store.db.deleteFrom("policies").where("tenant", "=", "default").execute();
  const rows = Array.from({ length: count }, (_, index) => ({
    tenant: "default",
    pattern: index === 0 ? "bench/bench.*" : `other${index}/*`,
    action: index === 0 ? ("allow" as const) : ("deny" as const),
    created_at: Date.now(),
  }));
  if (rows.length > 0) await store.db.insertInto("policies").values(rows).execute();
  await bumpGovernanceVersion(store.db, "default");
}

/** µs per call of `body` in the best of the rounds: the machine's other load only adds. */
async function perCall(body: (n: number) => Promise<unknown>): Promise<number> {
  const rounds: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const t0 = performance.now();
    for (let n = 0; n < CALLS; n++) await body(n);
    rounds.push(((performance.now() - t0) * 1000) / CALLS);
  }
  return Math.min(...rounds);
}

async function main(): Promise<void> {
  const { home, pluginDir } = await benchHome("oz0-bench-governance-");
  const plugin = await loadPluginDir(pluginDir);
  const store = await openStore({ home });
  const jobs = new JobStore(store);
  const built = (await plugin.code!.registration("tool", "bench")!.spec.build({} as never)).functions[0]!;
  const fn: CallableFunction = {
    address: "bench/bench.echo",
    plugin: "bench",
    tool: "bench",
    function: "echo",
    modelName: "bench__echo",
    description: built.description,
    inputSchema: built.input as CallableFunction["inputSchema"],
    run: async (args, call) => built.run(args, call),
  };
  const controller = new AbortController();
  const call = (n: number): FunctionCall => ({
    tenant: "default",
    jobId: "bench-job",
    callId: `${n}`,
    idempotencyKey: `bench-job:${n}`,
    agent: "bench/stepper",
    address: fn.address,
    attempt: 1,
    signal: controller.signal,
  });
  // A job's call no loop decided: the path's policy check decides each, as a flow's.
  const JOB_CALL: CallContext = { origin: { kind: "job", job: "bench-job" } };
  const policy = governanceInterceptor(store);

  /** A job held under a lease, whose history the calls append to, as a running job's do. */
  const heldJob = async (): Promise<Lease> => {
    const id = `bench-${Math.random().toString(36).slice(2)}`;
    await jobs.create(
      {
        id,
        tenant: "default",
        name: "stepper",
        plugin: "bench",
        kind: "agent",
        queue: "pool.bench",
        status: "queued",
        input: '"go"',
      },
      [event("job_started", { agent: "bench/stepper", mode: "run", input: "go" })],
    );
    const claimed = await jobs.claim({ job: id, node: "bench", token: `bench:${id}`, ttlMs: 60_000 });
    return claimed!.lease;
  };

  try {
    console.log(`the governed dispatch path on SQLite (file, WAL) at ${home}`);
    console.log(`µs per tool call, the best of ${ROUNDS} rounds of ${CALLS} calls\n`);
    console.log(
      "rules+hooks  direct  dispatch  +policy  +hooks  +policy+hooks  +history (governed path)  per-call overhead",
    );
    for (const size of SIZES) {
      await setRules(store, size);
      const table = await pluginHookSource([hooksPlugin(size)]).table("default");
      const hooks = new RunHooks({
        table,
        scope: { tenant: "default", jobId: "bench-job", agent: "bench/stepper" },
        usage: new JobUsage(),
        tenantUsage: async () => new JobUsage().totals(),
      });
      const hooked = hookInterceptor(hooks);
      const both = hooked === undefined ? [policy] : [policy, hooked];
      // Warm up every path before measuring.
      for (let n = 0; n < 500; n++) {
        await dispatchCall(fn, { n }, call(n), { context: JOB_CALL, interceptors: both });
        hooks.take([]);
      }
      const direct = await perCall(async (n) => built.run({ n }, call(n)));
      const dispatch = await perCall((n) => dispatchCall(fn, { n }, call(n), { context: JOB_CALL }));
      const withPolicy = await perCall((n) =>
        dispatchCall(fn, { n }, call(n), { context: JOB_CALL, interceptors: [policy] }),
      );
      const withHooks = await perCall(async (n) => {
        await dispatchCall(fn, { n }, call(n), {
          context: JOB_CALL,
          interceptors: hooked === undefined ? [] : [hooked],
        });
        hooks.take([]);
      });
      const governed = await perCall(async (n) => {
        await dispatchCall(fn, { n }, call(n), { context: JOB_CALL, interceptors: both });
        hooks.take([]);
      });
      const lease = await heldJob();
      const withHistory = await perCall((n) =>
        dispatchCall(fn, { n }, call(n), {
          context: JOB_CALL,
          interceptors: both,
          recorder: {
            started: async () => {
              await jobs.write(lease, [
                event("tool_call", {
                  callId: `${n}`,
                  name: fn.modelName,
                  address: fn.address,
                  key: `k${n}`,
                  attempt: 1,
                }),
              ]);
            },
            finished: async (_fn, outcome) => {
              await jobs.write(lease, [
                ...hooks.take([]),
                event(
                  "tool_result",
                  outcome.ok
                    ? { callId: `${n}`, ok: true, result: outcome.result, ms: outcome.ms }
                    : { callId: `${n}`, ok: false, error: outcome.error, ms: outcome.ms },
                ),
              ]);
            },
          },
        }),
      );
      console.log(
        [
          String(size).padStart(11),
          direct.toFixed(2).padStart(6),
          dispatch.toFixed(2).padStart(8),
          withPolicy.toFixed(2).padStart(7),
          withHooks.toFixed(2).padStart(6),
          governed.toFixed(2).padStart(13),
          withHistory.toFixed(1).padStart(24),
          (withHistory - direct).toFixed(1).padStart(18),
        ].join("  "),
      );
    }

    console.log(
      `\nwhole ${JOB_STEPS}-step jobs (one model call and one tool call per step, all recorded), µs per step, best of ${ROUNDS * 2}:`,
    );
    console.log("rules+hooks  engine  governed engine");
    const source: PartSource = {
      resolvePart: () => ({ plugin: "bench", name: "stepper", bare: false }),
      loadInstalled: () => plugin,
      toolOwners: () => ["bench"],
      tenantGrant: () => undefined,
    };
    const model: LanguageModel = {
      id: "bench:scripted",
      async generate(request) {
        const usage = { inputTokens: 10, outputTokens: 5 };
        if (request.step > JOB_STEPS) return { calls: [], text: "done", usage };
        return { calls: [{ name: "bench__echo", args: { n: request.step } }], usage };
      },
    };
    for (const size of SIZES) {
      await setRules(store, size);
      const plain = new JobEngine({
        store,
        source,
        home,
        models: async () => model,
        hooks: pluginHookSource([]),
      });
      const governed = new JobEngine({
        store,
        source,
        home,
        models: async () => model,
        interceptors: [policy],
        hooks: pluginHookSource([hooksPlugin(size)]),
      });
      const perStep = async (engine: JobEngine): Promise<number> => {
        const times: number[] = [];
        for (let round = 0; round < ROUNDS * 3; round++) {
          const t0 = performance.now();
          const job = await engine.start({ tenant: "default", agent: "bench/stepper", input: "go" });
          const done = await engine.run(job.id, { tenant: "default" });
          if (done.status !== "succeeded") throw new Error(`the bench job ${done.id} ended ${done.status}`);
          times.push(((performance.now() - t0) * 1000) / JOB_STEPS);
        }
        return Math.min(...times.slice(ROUNDS));
      };
      const a = await perStep(plain);
      const b = await perStep(governed);
      console.log(
        [String(size).padStart(11), a.toFixed(1).padStart(6), b.toFixed(1).padStart(15)].join("  "),
      );
    }
  } finally {
    controller.abort();
    await store.close();
    await rm(home, { recursive: true, force: true });
  }
}

await main();
