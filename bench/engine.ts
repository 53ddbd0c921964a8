// A job step's cost as an embedder pays it, and whether it stays flat in the job's length.
// Each step is one model call and one tool call, both recorded: the model is a scripted AI SDK
// language model a plugin provides (so oz0's model adapter runs, as with a real provider), the
// job runs through `Runtime.open` on SQLite in memory, on a file (WAL), and on a file with the
// governance plugin (budget, rate limit) and two tool-policy rules. The floor, from the same
// run, is the least a durable loop does: two bare SQLite inserts per step on a file. Every job
// is checked to have succeeded with one tool result per step in its history.
// Run it with `npm run bench`.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { Runtime } from "@oz0/runtime";

const STEP_COUNTS = [5, 20, 100];
const ROUNDS = 25;
const WARM_UP_JOBS = 40;
const LONG_JOB = 1000;
const LONG_ROUNDS = 5;
/** Steps 901–1,000 may cost this much more than steps 1–100 and still be called flat. */
const FLAT_WITHIN = 0.15;
const TENANT = "default";

/** What the generated plugin's code reads its model and tool from, by bench key. */
interface Slot {
  model: unknown;
  tool: (args: { a: number; b: number }) => number;
}
const slots: Record<string, Slot> = {};
(globalThis as { __oz0Bench?: Record<string, Slot> }).__oz0Bench = slots;

const MANIFEST = `name: bench
version: 1.0.0
main: index.js
capabilities: [tool, provider]
tools:
  - id: math
agents:
  - name: stepper
    tools: [math.add]
    skills: []
    input: text
    output: text
    model: { use: "scripted:fake" }
    limits: { max_turns: 100000, max_tokens: 1000000000 }
`;

const code = (key: string) => `const s = globalThis.__oz0Bench[${JSON.stringify(key)}];
export default { setup(host) {
  host.addTool({ name: "math", description: "Arithmetic.", build: () => ({ functions: [
    { name: "add", description: "Add two numbers.", input: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"], additionalProperties: false },
      run: async (args) => s.tool(args) } ] }) });
  host.addProvider({ name: "scripted", meta: { displayName: "Scripted bench model" }, build: async () => ({ languageModel: () => s.model }) });
} };
`;

const USAGE = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

function streamOf(parts: readonly unknown[]): ReadableStream<unknown> {
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
}

/** One oz0 set-up: a runtime over a fresh home with the bench plugin, and a job runner. */
interface Flavour {
  readonly name: string;
  /** Runs one job of `steps` steps; the time each model call began, by turn, in `turnTimes`. */
  run(steps: number): Promise<number>;
  readonly turnTimes: number[];
  close(): Promise<void>;
}

async function oz0Flavour(name: string, options: { memory: boolean; governed: boolean }): Promise<Flavour> {
  const key = `${name}-${Math.random().toString(36).slice(2)}`;
  const home = await mkdtemp(join(tmpdir(), "oz0-bench-"));
  const pluginDir = join(home, "bench-plugin");
  await mkdir(pluginDir);
  await writeFile(join(pluginDir, "plugin.yaml"), MANIFEST);
  await writeFile(join(pluginDir, "index.js"), code(key));
  const turnTimes: number[] = [];
  let steps = 0;
  let turn = 0;
  slots[key] = {
    tool: ({ a, b }) => a + b,
    model: {
      specificationVersion: "v4",
      provider: "scripted",
      modelId: "fake",
      supportedUrls: {},
      doGenerate: async () => {
        throw new Error("oz0 streams every model call");
      },
      doStream: async ({
        prompt,
      }: {
        prompt: { role: string; content: { output?: { value?: unknown } }[] }[];
      }) => {
        const k = turn++;
        turnTimes[k] = performance.now();
        if (k > 0) {
          // The previous turn's result must reach the model: add(k - 1, 1) is k.
          const last = prompt.at(-1);
          const value = last?.role === "tool" ? last.content.at(-1)?.output?.value : undefined;
          if (Number(value) !== k) throw new Error(`turn ${k}: expected the tool result ${k}, got ${value}`);
        }
        if (k < steps) {
          return {
            stream: streamOf([
              { type: "stream-start", warnings: [] },
              {
                type: "tool-call",
                toolCallId: `c${k}`,
                toolName: "math__add",
                input: JSON.stringify({ a: k, b: 1 }),
              },
              { type: "finish", finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage: USAGE },
            ]),
          };
        }
        return {
          stream: streamOf([
            { type: "stream-start", warnings: [] },
            { type: "text-start", id: "t" },
            { type: "text-delta", id: "t", delta: "done" },
            { type: "text-end", id: "t" },
            { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage: USAGE },
          ]),
        };
      },
    },
  };
  const runtime = await Runtime.open({ home, memory: options.memory });
  await runtime.catalog.install(TENANT, pluginDir);
  await runtime.models.setPrice(TENANT, "scripted:fake", { input: 0, output: 0 });
  if (options.governed) {
    await runtime.catalog.install(TENANT, resolve("plugins/governance"));
    await runtime.catalog.configs.set(TENANT, "governance", {
      budget: { job: { tokens: 1e12 }, tenant: { tokens: 1e15, period: "month" } },
      rate_limit: { calls_per_minute: 1e9, tool_calls_per_minute: 1e9 },
    });
    await runtime.policy.set(TENANT, "allow", "bench/math.*");
    await runtime.policy.set(TENANT, "deny", "std/http.*");
  }
  return {
    name,
    turnTimes,
    async run(count) {
      steps = count;
      turn = 0;
      const t0 = performance.now();
      const job = await runtime.jobs.start({ tenant: TENANT, agent: "bench/stepper", input: "go" });
      const done = await runtime.jobs.run(job.id, { tenant: TENANT });
      const us = ((performance.now() - t0) * 1000) / count;
      if (done.status !== "succeeded" || done.output !== "done") {
        throw new Error(`the bench job ${done.id} ended ${done.status}: ${JSON.stringify(done.failure)}`);
      }
      const results = await runtime.store.db
        .selectFrom("job_events")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("job_id", "=", job.id)
        .where("kind", "=", "tool_result")
        .executeTakeFirstOrThrow();
      if (Number(results.n) !== count) {
        throw new Error(`the bench job ${job.id} recorded ${results.n} tool results for ${count} steps`);
      }
      return us;
    },
    async close() {
      await runtime.close();
      await rm(home, { recursive: true, force: true });
    },
  };
}

/** The floor: a job row, two autocommit inserts per step and the row's end, on a file with oz0's pragmas. */
async function floorFlavour(): Promise<Flavour> {
  const dir = await mkdtemp(join(tmpdir(), "oz0-bench-floor-"));
  const db = new DatabaseSync(join(dir, "floor.db"));
  db.exec(
    "pragma busy_timeout = 10000; pragma journal_mode = WAL; pragma synchronous = NORMAL; pragma foreign_keys = ON;",
  );
  db.exec(`create table jobs (id text primary key, status text not null, input text, output text, created_at integer, updated_at integer);
    create table job_events (job_id text not null, seq integer not null, kind text not null, data text not null, at integer not null, primary key (job_id, seq));`);
  const insJob = db.prepare(
    "insert into jobs (id, status, input, created_at, updated_at) values (?, 'running', ?, ?, ?)",
  );
  const insEvent = db.prepare("insert into job_events (job_id, seq, kind, data, at) values (?, ?, ?, ?, ?)");
  const endJob = db.prepare("update jobs set status = 'succeeded', output = ?, updated_at = ? where id = ?");
  let jobs = 0;
  return {
    name: "floor",
    turnTimes: [],
    async run(count) {
      const t0 = performance.now();
      const id = `job-${++jobs}`;
      let seq = 0;
      insJob.run(id, '"go"', Date.now(), Date.now());
      for (let k = 0; k < count; k++) {
        const call = { id: `c${k}`, name: "add", args: { a: k, b: 1 } };
        insEvent.run(id, ++seq, "model_call", JSON.stringify({ step: k + 1, calls: [call] }), Date.now());
        const result = await Promise.resolve(k + 1);
        insEvent.run(
          id,
          ++seq,
          "tool_result",
          JSON.stringify({ callId: call.id, ok: true, result }),
          Date.now(),
        );
      }
      insEvent.run(
        id,
        ++seq,
        "model_call",
        JSON.stringify({ step: count + 1, text: "done", calls: [] }),
        Date.now(),
      );
      endJob.run('"done"', Date.now(), id);
      return ((performance.now() - t0) * 1000) / count;
    },
    async close() {
      db.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** `--profile [--governed]`: only 1,000-step jobs on a file, for `node --cpu-prof` (docs/performance.md). */
async function profile(): Promise<void> {
  const governed = process.argv.includes("--governed");
  const flavour = await oz0Flavour(governed ? "governed (file)" : "SQLite file", { memory: false, governed });
  try {
    for (let round = 0; round < 5; round++) await flavour.run(LONG_JOB);
  } finally {
    await flavour.close();
  }
}

async function main(): Promise<void> {
  const flavours = [
    await oz0Flavour("SQLite :memory:", { memory: true, governed: false }),
    await oz0Flavour("SQLite file", { memory: false, governed: false }),
    await oz0Flavour("governed (file)", { memory: false, governed: true }),
    await floorFlavour(),
  ];
  try {
    for (let round = 0; round < WARM_UP_JOBS; round++) for (const flavour of flavours) await flavour.run(20);
    console.log("oz0 per step, through Runtime.open with a scripted AI SDK model (oz0's model adapter runs)");
    console.log(
      "each step: one model call and one tool call, both recorded; every job checked for its full history",
    );
    console.log(
      `median µs per step of ${ROUNDS} jobs, the set-ups interleaved; floor: two bare SQLite inserts per step\n`,
    );
    console.log(`steps  ${flavours.map((flavour) => flavour.name.padStart(16)).join("  ")}  file/floor`);
    for (const count of STEP_COUNTS) {
      const samples = flavours.map(() => [] as number[]);
      for (let round = 0; round < ROUNDS; round++) {
        for (const [index, flavour] of flavours.entries()) samples[index]!.push(await flavour.run(count));
      }
      const medians = samples.map(median);
      console.log(
        `${String(count).padStart(5)}  ${medians.map((us) => us.toFixed(1).padStart(16)).join("  ")}  ${(medians[1]! / medians[3]!).toFixed(2).padStart(10)}`,
      );
    }

    // Within one long job there are no fixed costs: its early steps against its late ones.
    console.log(`\nwithin one ${LONG_JOB}-step job, µs per step (median of ${LONG_ROUNDS} jobs):`);
    console.log(`${"".padEnd(16)}  steps 1–100  steps ${LONG_JOB - 99}–${LONG_JOB}  late/early`);
    const verdicts: string[] = [];
    for (const flavour of flavours.slice(0, 3)) {
      const early: number[] = [];
      const late: number[] = [];
      for (let round = 0; round < LONG_ROUNDS; round++) {
        await flavour.run(LONG_JOB);
        const times = flavour.turnTimes;
        // Turn k began step k + 1's model call: turns 0..100 span steps 1–100.
        early.push(((times[100]! - times[0]!) * 1000) / 100);
        late.push(((times[LONG_JOB]! - times[LONG_JOB - 100]!) * 1000) / 100);
      }
      const a = median(early);
      const b = median(late);
      const ratio = b / a;
      console.log(
        `${flavour.name.padEnd(16)}  ${a.toFixed(1).padStart(11)}  ${b.toFixed(1).padStart(15)}  ${ratio.toFixed(2).padStart(10)}`,
      );
      verdicts.push(
        ratio <= 1 + FLAT_WITHIN
          ? `${flavour.name}: flat (steps ${LONG_JOB - 99}–${LONG_JOB} within ${FLAT_WITHIN * 100}% of steps 1–100)`
          : `${flavour.name}: GROWS with the job's length (steps ${LONG_JOB - 99}–${LONG_JOB} cost ${ratio.toFixed(2)}× steps 1–100)`,
      );
    }
    console.log(`\n${verdicts.join("\n")}`);
  } finally {
    for (const flavour of flavours) await flavour.close();
  }
}

await (process.argv.includes("--profile") ? profile() : main());
