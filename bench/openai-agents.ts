// A job step's cost on runtime openai-agents beside oz0's own loop: the same agent (one tool,
// an OpenAI model name) on each runtime, the same scripted model (oz0's model interface, so
// neither the AI SDK nor a network is in the figure) and the same store (SQLite on a file,
// WAL), each step one model call and one tool call, both recorded. What differs is the loop:
// oz0's own step, or the OpenAI Agents SDK's Runner calling oz0's recorded model and function
// calls. Every job is checked to have succeeded with one tool result per step.
// Run it with `npm run bench`.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { JobEngine, type LanguageModel, Runtime } from "@oz0/runtime";

const STEP_COUNTS = [5, 20, 100];
const ROUNDS = 15;
const WARM_UP_JOBS = 20;
const TENANT = "default";

const agent = (name: string, runtime: string) => `  - name: ${name}
    description: Adds, step after step.
${runtime}    tools: [math.add]
    skills: []
    input: text
    output: text
    model: { use: "openai:gpt-4.1" }
    limits: { max_turns: 100000, max_tokens: 1000000000 }
`;

const MANIFEST = `name: bench
version: 1.0.0
main: index.js
capabilities: [tool]
tools:
  - id: math
agents:
${agent("own", "")}${agent("sdk", "    runtime: openai-agents\n")}`;

const CODE = `export default { setup(host) {
  host.addTool({ name: "math", description: "Arithmetic.", build: () => ({ functions: [
    { name: "add", description: "Add two numbers.", input: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"], additionalProperties: false },
      run: async ({ a, b }) => a + b } ] }) });
} };
`;

let steps = 0;

/** Asks for add(k, 1) at turn k until `steps` turns, then answers; checks each result reached it. */
const model: LanguageModel = {
  id: "openai:gpt-4.1",
  async generate(request) {
    const k = request.step - 1;
    if (k > 0) {
      const last = request.messages.at(-1);
      const value = last?.role === "tool" ? last.content : undefined;
      if (Number(value) !== k)
        throw new Error(`turn ${k}: expected the tool result ${k}, got ${String(value)}`);
    }
    const usage = { inputTokens: 1, outputTokens: 1 };
    if (k < steps) return { calls: [{ name: "math__add", args: { a: k, b: 1 } }], usage };
    return { text: "done", calls: [], usage };
  },
};

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

const home = await mkdtemp(join(tmpdir(), "oz0-bench-agents-"));
const pluginDir = join(home, "bench-plugin");
await mkdir(pluginDir);
await writeFile(join(pluginDir, "plugin.yaml"), MANIFEST);
await writeFile(join(pluginDir, "index.js"), CODE);
const runtime = await Runtime.open({ home, defaultPlugins: [] });
try {
  await runtime.catalog.install(TENANT, pluginDir);
  const jobs = new JobEngine({
    store: runtime.store,
    source: runtime.catalog,
    home,
    models: async () => model,
  });

  /** Runs one job of `count` steps on agent `name`; its time per step, in µs. */
  async function run(name: string, count: number): Promise<number> {
    steps = count;
    const t0 = performance.now();
    const job = await jobs.start({ tenant: TENANT, agent: `bench/${name}`, input: "go" });
    const done = await jobs.run(job.id, { tenant: TENANT });
    const us = ((performance.now() - t0) * 1000) / count;
    if (done.status !== "succeeded" || done.output !== "done") {
      throw new Error(`the bench job ${done.id} ended ${done.status}: ${JSON.stringify(done.failure)}`);
    }
    const results = (await jobs.events(job.id, { tenant: TENANT })).filter((e) => e.kind === "tool_result");
    if (results.length !== count) {
      throw new Error(`the bench job ${job.id} recorded ${results.length} tool results for ${count} steps`);
    }
    return us;
  }

  for (const name of ["own", "sdk"]) for (let i = 0; i < WARM_UP_JOBS; i++) await run(name, 5);
  console.log(
    "runtime openai-agents beside oz0's own loop: µs per step (one model call + one tool call), SQLite file",
  );
  console.log(
    `${"steps".padEnd(8)}${"oz0".padStart(10)}${"openai-agents".padStart(16)}${"ratio".padStart(9)}`,
  );
  for (const count of STEP_COUNTS) {
    const own: number[] = [];
    const sdk: number[] = [];
    // Interleaved, so a slow moment of the machine weighs on both alike.
    for (let i = 0; i < ROUNDS; i++) {
      own.push(await run("own", count));
      sdk.push(await run("sdk", count));
    }
    const [a, b] = [median(own), median(sdk)];
    console.log(
      `${String(count).padEnd(8)}${a.toFixed(0).padStart(10)}${b.toFixed(0).padStart(16)}${(b / a).toFixed(2).padStart(8)}x`,
    );
  }
} finally {
  await runtime.close();
  await rm(home, { recursive: true, force: true });
}
