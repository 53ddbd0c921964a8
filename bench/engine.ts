// The job engine's cost per step against a plain loop, and how a job's history grows with its
// steps. Each step is one model call (a scripted in-process model) and one tool call, recorded
// to SQLite in a file (WAL), as the embedded runtime runs. Run it with `npm run bench`.
import { rm } from "node:fs/promises";
import {
  JobEngine,
  type LanguageModel,
  loadPluginDir,
  type ModelReply,
  openStore,
  type PartSource,
} from "@oz0/runtime";
import { benchHome } from "./bench-plugin.js";

const STEP_COUNTS = [20, 100, 400, 1000];
const ROUNDS = 7;
const WARM_UP_JOBS = 30;

/** When each model step of the last job began, by step: the gaps are the cost of each step. */
const stepTimes: number[] = [];

/** Calls bench__echo until `steps` calls were made, then answers. */
function scriptedModel(steps: number): LanguageModel {
  return {
    id: "bench:scripted",
    async generate(request): Promise<ModelReply> {
      stepTimes[request.step] = performance.now();
      const usage = { inputTokens: 10, outputTokens: 5 };
      if (request.step > steps) return { calls: [], text: "done", usage };
      return { calls: [{ name: "bench__echo", args: { n: request.step } }], usage };
    },
  };
}

async function main(): Promise<void> {
  const { home, pluginDir } = await benchHome("oz0-bench-");
  const plugin = await loadPluginDir(pluginDir);
  const source: PartSource = {
    resolvePart: () => ({ plugin: "bench", name: "stepper", bare: false }),
    loadInstalled: () => plugin,
    toolOwners: () => ["bench"],
  };
  const store = await openStore({ home });
  let steps = 0;
  const engine = new JobEngine({ store, source, home, models: async () => scriptedModel(steps) });
  const tool = plugin.code!.registration("tool", "bench")!.spec;
  const echo = (await tool.build({} as never)).functions[0]!;

  /** One job of `count` steps: its time from start to end, and its history's bytes. */
  const runJob = async (count: number): Promise<{ ms: number; bytes: number }> => {
    steps = count;
    const t0 = performance.now();
    const job = await engine.start({ tenant: "default", agent: "bench/stepper", input: "go" });
    const done = await engine.run(job.id);
    const ms = performance.now() - t0;
    if (done.status !== "succeeded") throw new Error(`the bench job ${done.id} ended ${done.status}`);
    const row = await store.db
      .selectFrom("job_events")
      .select((eb) => eb.fn.sum<number>(eb.fn("length", ["data"])).as("bytes"))
      .where("job_id", "=", job.id)
      .executeTakeFirstOrThrow();
    return { ms, bytes: Number(row.bytes) };
  };
  const directLoop = async (count: number): Promise<number> => {
    const t0 = performance.now();
    for (let n = 1; n <= count; n++) await echo.run({ n }, {} as never);
    return performance.now() - t0;
  };

  try {
    // Warm the JIT, the statement cache and the validators before measuring anything.
    for (let round = 0; round < WARM_UP_JOBS; round++) {
      await runJob(20);
      await directLoop(20);
    }
    console.log(`oz0 job engine on SQLite (file, WAL) at ${home}`);
    console.log("each step: one model call (a scripted in-process model) and one tool call, both recorded\n");
    console.log("µs/step are the median of the rounds, with the best round in brackets\n");
    console.log("steps  direct µs/step  engine µs/step (best)  whole job ms  history bytes  bytes/step");
    const results = new Map<number, number>();
    for (const count of STEP_COUNTS) {
      const direct: number[] = [];
      const jobs: number[] = [];
      let bytes = 0;
      for (let round = 0; round < ROUNDS; round++) {
        direct.push((await directLoop(count)) / count);
        const job = await runJob(count);
        jobs.push(job.ms);
        bytes = job.bytes;
      }
      const jobMs = median(jobs);
      const best = Math.min(...jobs);
      results.set(count, best);
      console.log(
        [
          String(count).padStart(5),
          (median(direct) * 1000).toFixed(2).padStart(14),
          `${((jobMs * 1000) / count).toFixed(1).padStart(14)} (${((best * 1000) / count).toFixed(1)})`.padEnd(
            21,
          ),
          jobMs.toFixed(2).padStart(12),
          String(bytes).padStart(13),
          (bytes / count).toFixed(0).padStart(10),
        ].join("  "),
      );
    }
    console.log("\ncost of one more step (the slope between the best rounds of two job lengths), µs:");
    for (let index = 1; index < STEP_COUNTS.length; index++) {
      const a = STEP_COUNTS[index - 1]!;
      const b = STEP_COUNTS[index]!;
      const slope = (((results.get(b) ?? 0) - (results.get(a) ?? 0)) * 1000) / (b - a);
      console.log(`  ${a} → ${b} steps: ${slope.toFixed(1)}`);
    }
    // Within one long job, no job's fixed costs: the early steps against the late ones.
    const longest = STEP_COUNTS.at(-1)!;
    const windows: [number, number][] = [];
    for (let round = 0; round < ROUNDS; round++) {
      stepTimes.length = 0;
      await runJob(longest);
      const window = (from: number) => ((stepTimes[from + 100]! - stepTimes[from]!) * 1000) / 100;
      windows.push([window(1), window(longest - 100)]);
    }
    const early = Math.min(...windows.map(([first]) => first));
    const late = Math.min(...windows.map(([, last]) => last));
    console.log(
      `\nwithin one ${longest}-step job (best round): steps 1–100 ${early.toFixed(1)} µs/step, steps ${longest - 99}–${longest} ${late.toFixed(1)} µs/step`,
    );
    console.log("\nA step costs the same at every job length, and history grows by the same bytes per step.");
  } finally {
    await store.close();
    await rm(home, { recursive: true, force: true });
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

await main();
