// A job as a plugin author writes one, beside the bench's own: examples/std-tour's receipt agent
// on the offline test model (its script read for every job), seven model calls and six calls of
// std's zod-typed tools (json, calculator, text through its regex worker, datetime), all recorded.
// What engine.ts's plugin does not have (zod inputs, a script, a worker) shows here. Median ms
// per job in memory and on a file, each job checked to have succeeded with its six tool results.
// Run it with `npm run bench`.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Runtime } from "@oz0/runtime";
import { toolResultCounter } from "./history-check.js";

const TENANT = "default";
const WARM_UP_JOBS = 100;
const JOBS = 300;
const TOOL_CALLS = 6;

async function medianMs(memory: boolean): Promise<number> {
  const home = await mkdtemp(join(tmpdir(), "oz0-bench-std-"));
  const runtime = await Runtime.open({ home, memory });
  try {
    await runtime.catalog.install(TENANT, resolve("examples/std-tour"));
    const toolResults = toolResultCounter(runtime);
    const times: number[] = [];
    for (let index = 0; index < WARM_UP_JOBS + JOBS; index++) {
      const t0 = performance.now();
      const job = await runtime.jobs.start({
        tenant: TENANT,
        agent: "std-tour/receipt",
        input: "order 1042",
      });
      const done = await runtime.jobs.run(job.id, { tenant: TENANT });
      const ms = performance.now() - t0;
      if (done.status !== "succeeded")
        throw new Error(`job ${done.id} ended ${done.status}: ${JSON.stringify(done.failure)}`);
      const results = await toolResults(job.id);
      if (results !== TOOL_CALLS)
        throw new Error(`job ${job.id} recorded ${results} tool results, not ${TOOL_CALLS}`);
      if (index >= WARM_UP_JOBS) times.push(ms);
    }
    times.sort((a, b) => a - b);
    return times[Math.floor(times.length / 2)]!;
  } finally {
    await runtime.close();
    await rm(home, { recursive: true, force: true });
  }
}

console.log(`std-tour/receipt on the test model: 7 model calls, ${TOOL_CALLS} std tool calls, all recorded`);
console.log(`median ms per job of ${JOBS}, after ${WARM_UP_JOBS} to warm up`);
for (const [name, memory] of [
  ["SQLite :memory:", true],
  ["SQLite file", false],
] as const) {
  console.log(`  ${name.padEnd(16)} ${(await medianMs(memory)).toFixed(2).padStart(7)} ms`);
}
