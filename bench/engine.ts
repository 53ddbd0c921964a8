// A job step's cost as an embedder pays it, and whether it stays flat in the job's length.
// Each step is one model call and one tool call, both recorded: the model is a scripted AI SDK
// language model a plugin provides (so oz0's model adapter runs, as with a real provider), the
// job runs through `Runtime.open` on SQLite in memory, on a file (WAL), and on a file with the
// governance plugin (budget, rate limit) and two tool-policy rules. The floor, from the same
// run, is the least a durable loop does: two bare SQLite inserts per step on a file. Every job
// is checked to have succeeded with one tool result per step in its history. Then the same on
// PostgreSQL (when a server answers at OZ0_BENCH_DATABASE_URL, by default the local one) beside
// its floor, two bare autocommit inserts per step, and one-step jobs per second on both engines.
// Run it with `npm run bench`.
import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { Runtime } from "@oz0/runtime";
import { generateText, isStepCount, tool } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import pg from "pg";
import { z } from "zod";
import { toolResultCounter } from "./history-check.js";
import { POSTGRES_URL, postgresDatabase } from "./postgres.js";

const STEP_COUNTS = [5, 20, 100];
const ROUNDS = 25;
const WARM_UP_JOBS = 40;
const LONG_JOB = 1000;
const LONG_ROUNDS = 5;
/** Steps 901–1,000 may cost this much more than steps 1–100 and still be called flat. */
const FLAT_WITHIN = 0.15;
const TENANT = "default";
/** PostgreSQL steps cost milliseconds: fewer rounds keep the run short. */
const POSTGRES_ROUNDS = 7;
/** One-step jobs run back to back for the throughput figure. */
const THROUGHPUT_JOBS = 400;
/** How many jobs run at once for the concurrent figures (and pgbench's clients beside them). */
const CONCURRENT_JOBS = 4;
/** On PostgreSQL also this many at once beside as many pgbench clients, where writes of jobs at once share commits. */
const MANY_JOBS = 16;
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
  /**
   * Runs one job of `steps` steps. With `turns`, the time each model call began goes in
   * `turnTimes` and the main thread's CPU time in `turnCpu`, by turn: reading the CPU time is a
   * system call, so only the runs that use it pay for it.
   */
  run(steps: number, turns?: boolean): Promise<number>;
  readonly turnTimes: number[];
  /** The main thread's CPU time (µs) when each model call began, by turn: what a step cost it, whatever else ran. */
  readonly turnCpu: number[];
  close(): Promise<void>;
}

interface Oz0Options {
  readonly memory: boolean;
  readonly governed: boolean;
  /** A PostgreSQL database for the store, instead of SQLite. */
  readonly databaseUrl?: string;
  /** Runs when the flavour closes, after the runtime (drops its PostgreSQL database). */
  readonly dispose?: () => Promise<void>;
}

async function oz0Flavour(name: string, options: Oz0Options): Promise<Flavour> {
  const key = `${name}-${Math.random().toString(36).slice(2)}`;
  const home = await mkdtemp(join(tmpdir(), "oz0-bench-"));
  const pluginDir = join(home, "bench-plugin");
  await mkdir(pluginDir);
  await writeFile(join(pluginDir, "plugin.yaml"), MANIFEST);
  await writeFile(join(pluginDir, "index.js"), code(key));
  const turnTimes: number[] = [];
  const turnCpu: number[] = [];
  let steps = 0;
  let timeTurns = false;
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
        prompt: { role: string; content: { toolCallId?: string; output?: { value?: unknown } }[] }[];
      }) => {
        // The turn is the job's own, from its prompt (jobs may run at once): the last result
        // answers the call of step k (oz0 sends it as call_<k>_1). Read from the end, not counted
        // over the whole prompt, so the scripted model costs the same at every step, as the AI
        // SDK's mock does; a turn read wrong fails the result check below.
        const last = prompt.at(-1);
        const result = last?.role === "tool" ? last.content.at(-1) : undefined;
        const k = result === undefined ? 0 : Number(/^call_(\d+)_/.exec(result.toolCallId ?? "")?.[1]);
        if (timeTurns) {
          turnTimes[k] = performance.now();
          const cpu = process.threadCpuUsage();
          turnCpu[k] = cpu.user + cpu.system;
        }
        if (k > 0) {
          // The previous turn's result must reach the model: add(k - 1, 1) is k.
          const value = result?.output?.value;
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
  const runtime = await Runtime.open({ home, memory: options.memory, databaseUrl: options.databaseUrl });
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
  // The history check, built once: the throughput figures count it with each job.
  const toolResults = toolResultCounter(runtime);
  return {
    name,
    turnTimes,
    turnCpu,
    async run(count, turns = false) {
      steps = count;
      timeTurns = turns;
      const t0 = performance.now();
      const job = await runtime.jobs.start({ tenant: TENANT, agent: "bench/stepper", input: "go" });
      const done = await runtime.jobs.run(job.id, { tenant: TENANT });
      const us = ((performance.now() - t0) * 1000) / count;
      if (done.status !== "succeeded" || done.output !== "done") {
        throw new Error(`the bench job ${done.id} ended ${done.status}: ${JSON.stringify(done.failure)}`);
      }
      const results = await toolResults(job.id);
      if (results !== count) {
        throw new Error(`the bench job ${job.id} recorded ${results} tool results for ${count} steps`);
      }
      return us;
    },
    async close() {
      await runtime.close();
      await rm(home, { recursive: true, force: true });
      await options.dispose?.();
    },
  };
}

/**
 * The AI SDK's own loop, as the peer harness runs it (../shared/bench-peers, adapters/ai-sdk.mjs):
 * `generateText` with one tool and `stopWhen: isStepCount(steps + 1)` over the SDK's
 * MockLanguageModelV4, the same script, nothing recorded. The figure oz0's goals are halves and
 * quarters of.
 */
function aiSdkFlavour(): Flavour {
  let steps = 0;
  let turn = 0;
  let toolCalls = 0;
  const model = new MockLanguageModelV4({
    provider: "bench",
    modelId: "scripted",
    doGenerate: async ({ prompt }) => {
      const k = turn++;
      if (k > 0) {
        const last = prompt.at(-1);
        const part = last?.role === "tool" ? last.content.at(-1) : undefined;
        const value =
          part !== undefined && "output" in part ? (part.output as { value?: unknown }).value : undefined;
        if (Number(value) !== k)
          throw new Error(`AI SDK turn ${k}: expected the tool result ${k}, got ${value}`);
      }
      if (k < steps) {
        return {
          content: [
            {
              type: "tool-call",
              toolCallId: `call_${k}`,
              toolName: "add",
              input: JSON.stringify({ a: k, b: 1 }),
            },
          ],
          finishReason: { unified: "tool-calls", raw: "tool_calls" },
          usage: USAGE,
          warnings: [],
        };
      }
      return {
        content: [{ type: "text", text: "done" }],
        finishReason: { unified: "stop", raw: "stop" },
        usage: USAGE,
        warnings: [],
      };
    },
  });
  const tools = {
    add: tool({
      description: "Add two numbers and return the sum.",
      inputSchema: z.object({ a: z.number(), b: z.number() }),
      execute: async ({ a, b }) => {
        toolCalls++;
        return a + b;
      },
    }),
  };
  return {
    name: "AI SDK 7",
    turnTimes: [],
    turnCpu: [],
    async run(count) {
      steps = count;
      turn = 0;
      toolCalls = 0;
      model.doGenerateCalls.length = 0;
      const t0 = performance.now();
      const result = await generateText({ model, tools, prompt: "go", stopWhen: isStepCount(count + 1) });
      const us = ((performance.now() - t0) * 1000) / count;
      if (result.text !== "done" || toolCalls !== count) {
        throw new Error(
          `the AI SDK run answered ${JSON.stringify(result.text)} after ${toolCalls} tool calls of ${count}`,
        );
      }
      return us;
    },
    async close() {},
  };
}

/** One of oz0's performance goals as this run measured it: the figure, its goal and its floor. */
interface GoalRow {
  readonly what: string;
  readonly figure: string;
  readonly goal: string;
  readonly floor: string;
  readonly met: boolean;
}
const goals: GoalRow[] = [];

/** Records a goal of the form "figure at most `most` times `against`". */
function ratioGoal(what: string, figure: number, against: number, most: number, againstName: string): void {
  const ratio = figure / against;
  goals.push({
    what,
    figure: `${figure.toFixed(0)} µs (${ratio.toFixed(2)}× ${againstName})`,
    goal: `≤ ${most}× ${againstName}`,
    floor: `${againstName} ${against.toFixed(0)} µs`,
    met: ratio <= most,
  });
}

function printGoals(): void {
  if (goals.length === 0) return;
  console.log("\nperformance goals, each from this run (ratios of figures measured interleaved):");
  const width = (pick: (row: GoalRow) => string, title: string) =>
    Math.max(title.length, ...goals.map((row) => pick(row).length));
  const columns: [string, (row: GoalRow) => string][] = [
    ["goal", (row) => row.what],
    ["oz0", (row) => row.figure],
    ["at most", (row) => row.goal],
    ["floor, same run", (row) => row.floor],
    ["met", (row) => (row.met ? "yes" : "NO")],
  ];
  const widths = columns.map(([title, pick]) => width(pick, title));
  const line = (cells: string[]) =>
    `| ${cells.map((cell, index) => cell.padEnd(widths[index]!)).join(" | ")} |`;
  console.log(line(columns.map(([title]) => title)));
  console.log(line(widths.map((w) => "-".repeat(w))));
  for (const row of goals) console.log(line(columns.map(([, pick]) => pick(row))));
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
    turnCpu: [],
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

/** A fresh PostgreSQL database on the bench's server, or undefined when none answers there. */
/** PostgreSQL's floor: the SQLite floor's statements, each its own commit (one round trip). */
async function postgresFloorFlavour(url: string): Promise<Flavour> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`create table jobs (id text primary key, status text not null, input text, output text, created_at bigint, updated_at bigint);
    create table job_events (job_id text not null, seq integer not null, kind text not null, data text not null, at bigint not null, primary key (job_id, seq))`);
  const insJob =
    "insert into jobs (id, status, input, created_at, updated_at) values ($1, 'running', $2, $3, $4)";
  const insEvent = "insert into job_events (job_id, seq, kind, data, at) values ($1, $2, $3, $4, $5)";
  const endJob = "update jobs set status = 'succeeded', output = $1, updated_at = $2 where id = $3";
  const run = (name: string, text: string, values: unknown[]) => client.query({ name, text, values });
  let jobs = 0;
  return {
    name: "floor",
    turnTimes: [],
    turnCpu: [],
    async run(count) {
      const t0 = performance.now();
      const id = `job-${++jobs}`;
      let seq = 0;
      await run("job", insJob, [id, '"go"', Date.now(), Date.now()]);
      for (let k = 0; k < count; k++) {
        const call = { id: `c${k}`, name: "add", args: { a: k, b: 1 } };
        await run("event", insEvent, [
          id,
          ++seq,
          "model_call",
          JSON.stringify({ step: k + 1, calls: [call] }),
          Date.now(),
        ]);
        await run("event", insEvent, [
          id,
          ++seq,
          "tool_result",
          JSON.stringify({ callId: call.id, ok: true, result: k + 1 }),
          Date.now(),
        ]);
      }
      await run("event", insEvent, [
        id,
        ++seq,
        "model_call",
        JSON.stringify({ step: count + 1, text: "done", calls: [] }),
        Date.now(),
      ]);
      await run("end", endJob, ['"done"', Date.now(), id]);
      return ((performance.now() - t0) * 1000) / count;
    },
    async close() {
      await client.end();
    },
  };
}

/** One-step jobs per second, `THROUGHPUT_JOBS` of them, `at` at a time. */
async function jobsPerSecond(flavour: Flavour, at = 1): Promise<number> {
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: at }, async () => {
      while (next++ < THROUGHPUT_JOBS) await flavour.run(1);
    }),
  );
  return THROUGHPUT_JOBS / ((performance.now() - t0) / 1000);
}

/**
 * The write commits this process's PostgreSQL clients make: each `commit`, and each write
 * outside a transaction (an autocommit). The runtime's pool and the floor's client are both
 * `pg.Client`s; the lease heartbeat's thread has a module of its own and is not counted.
 */
const pgCommits = { count: 0 };
/** Every statement those clients send, each a round trip (the bench's own check of a job's history included). */
const pgStatements = { count: 0 };
{
  const open = new WeakSet<object>();
  const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  (pg.Client.prototype as { query: unknown }).query = function (this: object, ...args: unknown[]) {
    const first = args[0] as string | { text?: string } | undefined;
    const text = typeof first === "string" ? first : first?.text;
    if (typeof text === "string") {
      pgStatements.count++;
      const head = text.trimStart().slice(0, 8).toLowerCase();
      if (head.startsWith("begin") || head.startsWith("start")) open.add(this);
      else if (head.startsWith("commit")) {
        open.delete(this);
        pgCommits.count++;
      } else if (head.startsWith("rollback")) open.delete(this);
      else if (!open.has(this) && /^(insert|update|delete|with)/.test(head)) pgCommits.count++;
    }
    return query.apply(this, args);
  };
}

/** pgbench's simple-update TPS with `clients` clients on a fresh database of the bench's server, or undefined without pgbench. */
function pgbenchTps(url: string, clients: number): number | undefined {
  const run = (args: string[]) => spawnSync("pgbench", [...args, url], { encoding: "utf8" });
  const result = run(["-n", "-b", "simple-update", "-c", String(clients), "-j", String(clients), "-T", "5"]);
  if (result.error !== undefined) return undefined;
  const tps = /tps = ([\d.]+)/.exec(result.stdout ?? "");
  if (result.status !== 0 || tps === null) throw new Error(`pgbench failed: ${result.stderr}`);
  return Number(tps[1]);
}

/** PostgreSQL per step beside its floor, then one-step jobs/s on both engines. */
async function postgresAndThroughput(sqliteFile: Flavour, sqliteFloor: Flavour): Promise<void> {
  const database = await postgresDatabase();
  const flavours: Flavour[] = [];
  let pgbenchDatabase: { url: string; drop: () => Promise<void> } | undefined;
  if (database === undefined) {
    console.log(
      `\nno PostgreSQL answers at ${POSTGRES_URL} (OZ0_BENCH_DATABASE_URL): its figures are left out`,
    );
  } else {
    const floorDatabase = await postgresDatabase();
    pgbenchDatabase = await postgresDatabase();
    flavours.push(
      await oz0Flavour("PostgreSQL", {
        memory: false,
        governed: false,
        databaseUrl: database.url,
        dispose: database.drop,
      }),
      await postgresFloorFlavour(floorDatabase!.url),
    );
    const floorClose = flavours[1]!.close;
    flavours[1] = {
      ...flavours[1]!,
      close: async () => {
        await floorClose();
        await floorDatabase!.drop();
      },
    };
  }
  try {
    if (flavours.length > 0) {
      for (let round = 0; round < 5; round++) for (const flavour of flavours) await flavour.run(5);
      console.log(
        `\non PostgreSQL (${new URL(POSTGRES_URL).host}), median µs per step of ${POSTGRES_ROUNDS} jobs; floor: two bare autocommit inserts per step`,
      );
      console.log(
        `steps  ${"PostgreSQL".padStart(12)}  ${"floor".padStart(12)}  pg/floor  write commits per job`,
      );
      const commitsPerJob = new Map<number, number>();
      for (const count of STEP_COUNTS) {
        const samples = flavours.map(() => [] as number[]);
        let commits = 0;
        for (let round = 0; round < POSTGRES_ROUNDS; round++) {
          const before = pgCommits.count;
          samples[0]!.push(await flavours[0]!.run(count));
          commits += pgCommits.count - before;
          samples[1]!.push(await flavours[1]!.run(count));
        }
        commitsPerJob.set(count, commits / POSTGRES_ROUNDS);
        const [oz0, floor] = samples.map(median) as [number, number];
        console.log(
          `${String(count).padStart(5)}  ${oz0.toFixed(1).padStart(12)}  ${floor.toFixed(1).padStart(12)}  ${(oz0 / floor).toFixed(2).padStart(8)}  ${commitsPerJob.get(count)!.toFixed(1).padStart(21)}`,
        );
        ratioGoal(`${count} steps, PostgreSQL, per step vs bare commits`, oz0, floor, 1.3, "floor");
      }
      const [short, long] = [STEP_COUNTS[1]!, STEP_COUNTS.at(-1)!];
      const perStep = (commitsPerJob.get(long)! - commitsPerJob.get(short)!) / (long - short);
      console.log(`write commits per step (jobs of ${long} steps against ${short}): ${perStep.toFixed(2)}`);
      goals.push({
        what: "PostgreSQL: write commits per step",
        figure: perStep.toFixed(2),
        goal: "1",
        floor: "-",
        met: perStep <= 1,
      });
    }
    console.log(
      `\none-step jobs per second, ${THROUGHPUT_JOBS} in one process, one at a time and ${CONCURRENT_JOBS} at a time (goal on SQLite: 1,000):`,
    );
    const pairs: [string, Flavour, Flavour][] = [["SQLite file", sqliteFile, sqliteFloor]];
    if (flavours.length > 0) pairs.push(["PostgreSQL", flavours[0]!, flavours[1]!]);
    for (const [name, oz0, floor] of pairs) {
      const rates = { oz0: [] as number[], many: [] as number[], floor: [] as number[] };
      for (let round = 0; round < 3; round++) {
        rates.oz0.push(await jobsPerSecond(oz0));
        rates.many.push(await jobsPerSecond(oz0, CONCURRENT_JOBS));
        rates.floor.push(await jobsPerSecond(floor));
      }
      const [one, many, bare] = [median(rates.oz0), median(rates.many), median(rates.floor)];
      console.log(
        `${name.padEnd(12)}  oz0 ${one.toFixed(0).padStart(6)}/s, ${CONCURRENT_JOBS} at a time ${many.toFixed(0).padStart(6)}/s   floor (its statements bare) ${bare.toFixed(0).padStart(6)}/s`,
      );
      if (name === "SQLite file") {
        goals.push({
          what: "SQLite file: one-step jobs/s in one process",
          figure: `${one.toFixed(0)}/s (${many.toFixed(0)}/s ${CONCURRENT_JOBS} at a time)`,
          goal: "≥ 1,000/s",
          floor: `${bare.toFixed(0)}/s bare`,
          met: Math.max(one, many) >= 1000,
        });
      }
    }
    if (flavours.length > 0 && pgbenchDatabase !== undefined) {
      const init = spawnSync("pgbench", ["-i", "-q", "-s", "1", pgbenchDatabase.url], { encoding: "utf8" });
      if (init.error !== undefined) {
        console.log("\nno pgbench on the PATH: the comparison with its simple-update TPS is left out");
      } else {
        console.log(
          "\none-step jobs/s on PostgreSQL with N jobs at a time, beside pgbench's simple-update TPS with N clients, interleaved:",
        );
        for (const clients of [1, CONCURRENT_JOBS, MANY_JOBS]) {
          const before = { commits: pgCommits.count, statements: pgStatements.count };
          const oz0 = await jobsPerSecond(flavours[0]!, clients);
          // Jobs at once share commits when their writes go in one statement (jobs/write-group.ts).
          const commits = (pgCommits.count - before.commits) / THROUGHPUT_JOBS;
          const statements = (pgStatements.count - before.statements) / THROUGHPUT_JOBS;
          const tps = pgbenchTps(pgbenchDatabase.url, clients)!;
          console.log(
            `N = ${clients}: oz0 ${oz0.toFixed(0)}/s (per job ${statements.toFixed(1)} statements, the bench's check of its history included, and ${commits.toFixed(1)} write commits), pgbench ${tps.toFixed(0)} TPS (${(oz0 / tps).toFixed(2)})`,
          );
          goals.push({
            what: `PostgreSQL: one-step jobs/s, ${clients} at a time, vs pgbench -c ${clients}`,
            figure: `${oz0.toFixed(0)}/s (${(oz0 / tps).toFixed(2)}× pgbench)`,
            goal: "≥ 0.5× pgbench",
            floor: `pgbench ${tps.toFixed(0)} TPS`,
            met: oz0 / tps >= 0.5,
          });
        }
      }
    }
  } finally {
    for (const flavour of flavours) await flavour.close();
    await pgbenchDatabase?.drop();
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** `--profile [--governed | --memory | --postgres] [--setup]`: only 1,000-step (or one-step) jobs on a file, in memory or on PostgreSQL, for `node --cpu-prof` (docs/performance.md). */
async function profile(): Promise<void> {
  const governed = process.argv.includes("--governed");
  const memory = process.argv.includes("--memory");
  const database = process.argv.includes("--postgres") ? await postgresDatabase() : undefined;
  if (process.argv.includes("--postgres") && database === undefined)
    throw new Error(`no PostgreSQL answers at ${POSTGRES_URL} (OZ0_BENCH_DATABASE_URL)`);
  const flavour = await oz0Flavour(
    governed ? "governed (file)" : memory ? "SQLite :memory:" : database ? "PostgreSQL" : "SQLite file",
    { memory, governed, databaseUrl: database?.url, dispose: database?.drop },
  );
  try {
    // `--setup`: one-step jobs, where setting a job up is most of the cost. After a warm-up, the
    // jobs' time and CPU (the process's and the main thread's) are printed per job.
    const setup = process.argv.includes("--setup");
    const jobs = setup ? THROUGHPUT_JOBS * 2 : 5;
    for (let round = 0; round < WARM_UP_JOBS; round++) await flavour.run(setup ? 1 : 20);
    const [t0, cpu0, main0] = [performance.now(), process.cpuUsage(), process.threadCpuUsage()];
    for (let round = 0; round < jobs; round++) await flavour.run(setup ? 1 : LONG_JOB);
    const [wall, cpu, main] = [performance.now() - t0, process.cpuUsage(cpu0), process.threadCpuUsage(main0)];
    console.log(
      `${flavour.name}: ${jobs} jobs of ${setup ? 1 : LONG_JOB} steps, per job ${(wall / jobs).toFixed(2)} ms wall, ${((cpu.user + cpu.system) / 1000 / jobs).toFixed(2)} ms CPU (every thread), ${((main.user + main.system) / 1000 / jobs).toFixed(2)} ms on the main thread`,
    );
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
    aiSdkFlavour(),
  ];
  try {
    for (let round = 0; round < WARM_UP_JOBS; round++) for (const flavour of flavours) await flavour.run(20);
    console.log("oz0 per step, through Runtime.open with a scripted AI SDK model (oz0's model adapter runs)");
    console.log(
      "each step: one model call and one tool call, both recorded; every job checked for its full history",
    );
    console.log(
      `median µs per step of ${ROUNDS} jobs, the set-ups interleaved; floor: two bare SQLite inserts per step;`,
    );
    console.log(
      "AI SDK 7: its generateText loop over the same script, nothing recorded (the peer harness's adapter)\n",
    );
    console.log(
      `steps  ${flavours.map((flavour) => flavour.name.padStart(16)).join("  ")}  file/floor  governed/floor  governed/AI SDK  memory/AI SDK`,
    );
    for (const count of STEP_COUNTS) {
      const samples = flavours.map(() => [] as number[]);
      for (let round = 0; round < ROUNDS; round++) {
        for (const [index, flavour] of flavours.entries()) samples[index]!.push(await flavour.run(count));
      }
      const [memory, file, governed, floor, aiSdk] = samples.map(median) as [
        number,
        number,
        number,
        number,
        number,
      ];
      console.log(
        `${String(count).padStart(5)}  ${[memory, file, governed, floor, aiSdk].map((us) => us.toFixed(1).padStart(16)).join("  ")}  ${(file / floor).toFixed(2).padStart(10)}  ${(governed / floor).toFixed(2).padStart(14)}  ${(governed / aiSdk).toFixed(2).padStart(15)}  ${(memory / aiSdk).toFixed(2).padStart(13)}`,
      );
      ratioGoal(`${count} steps, governed file, per step vs the AI SDK`, governed, aiSdk, 0.5, "AI SDK");
      ratioGoal(`${count} steps, governed file, per step vs bare inserts`, governed, floor, 2, "floor");
      ratioGoal(`${count} steps, plain file, per step vs bare inserts`, file, floor, 2, "floor");
      ratioGoal(`${count} steps, :memory:, per step vs the AI SDK`, memory, aiSdk, 0.25, "AI SDK");
    }

    // Within one long job there are no fixed costs: its early steps against its late ones.
    console.log(`\nwithin one ${LONG_JOB}-step job, µs per step (median of ${LONG_ROUNDS} jobs):`);
    console.log(
      `${"".padEnd(16)}  steps 1–100  steps ${LONG_JOB - 99}–${LONG_JOB}  late/early  main-thread CPU: 1–100  ${LONG_JOB - 99}–${LONG_JOB}  late/early`,
    );
    const verdicts: string[] = [];
    for (const flavour of flavours.slice(0, 3)) {
      const early: number[] = [];
      const late: number[] = [];
      const earlyCpu: number[] = [];
      const lateCpu: number[] = [];
      for (let round = 0; round < LONG_ROUNDS; round++) {
        await flavour.run(LONG_JOB, true);
        const times = flavour.turnTimes;
        const cpu = flavour.turnCpu;
        // Turn k began step k + 1's model call: turns 0..100 span steps 1–100.
        early.push(((times[100]! - times[0]!) * 1000) / 100);
        late.push(((times[LONG_JOB]! - times[LONG_JOB - 100]!) * 1000) / 100);
        earlyCpu.push((cpu[100]! - cpu[0]!) / 100);
        lateCpu.push((cpu[LONG_JOB]! - cpu[LONG_JOB - 100]!) / 100);
      }
      const a = median(early);
      const b = median(late);
      const ratio = b / a;
      // Wall time counts what the main thread waited for too (another thread, the disk, the
      // scheduler on a loaded machine); its CPU time is what the steps themselves cost it.
      const cpuA = median(earlyCpu);
      const cpuB = median(lateCpu);
      console.log(
        `${flavour.name.padEnd(16)}  ${a.toFixed(1).padStart(11)}  ${b.toFixed(1).padStart(15)}  ${ratio.toFixed(2).padStart(10)}  ${cpuA.toFixed(1).padStart(22)}  ${cpuB.toFixed(1).padStart(9)}  ${(cpuB / cpuA).toFixed(2).padStart(10)}`,
      );
      goals.push({
        what: `flat in length, ${flavour.name}: steps ${LONG_JOB - 99}–${LONG_JOB} vs 1–100`,
        figure: `${b.toFixed(0)} vs ${a.toFixed(0)} µs (${ratio.toFixed(2)}×)`,
        goal: `≤ ${1 + FLAT_WITHIN}×`,
        floor: "-",
        met: ratio <= 1 + FLAT_WITHIN,
      });
      verdicts.push(
        ratio <= 1 + FLAT_WITHIN
          ? `${flavour.name}: flat (steps ${LONG_JOB - 99}–${LONG_JOB} within ${FLAT_WITHIN * 100}% of steps 1–100)`
          : `${flavour.name}: GROWS with the job's length (steps ${LONG_JOB - 99}–${LONG_JOB} cost ${ratio.toFixed(2)}× steps 1–100)`,
      );
    }
    console.log(`\n${verdicts.join("\n")}`);
    await postgresAndThroughput(flavours[1]!, flavours[3]!);
    printGoals();
  } finally {
    for (const flavour of flavours) await flavour.close();
  }
}

/** `--postgres`: only the PostgreSQL figures and the throughput, for a quick comparison. */
async function postgresOnly(): Promise<void> {
  const file = await oz0Flavour("SQLite file", { memory: false, governed: false });
  const floor = await floorFlavour();
  try {
    for (let round = 0; round < WARM_UP_JOBS; round++) {
      await file.run(5);
      await floor.run(5);
    }
    await postgresAndThroughput(file, floor);
    printGoals();
  } finally {
    await file.close();
    await floor.close();
  }
}

await (process.argv.includes("--profile")
  ? profile()
  : process.argv.includes("--postgres")
    ? postgresOnly()
    : main());
