// A separate oz0 worker process for harness-crash.test.ts: it runs one job of an agent on a
// harness, on the test's home with a short lease, and kills itself with SIGKILL at the first
// event of the kind it is given, while the harness's session is under way.
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { JobEngine } from "../../src/jobs/index.js";
import { governanceInterceptor } from "../../src/policy/index.js";
import { Runtime } from "../../src/runtime.js";

const task = JSON.parse(process.argv[2] ?? "{}") as {
  home: string;
  job: string;
  tenant: string;
  leaseMs: number;
  marker: string;
  killOn: string;
};
const AGENTS = fileURLToPath(new URL("../fixtures/harness-agents", import.meta.url));
// The marker, an argument the agents ignore, lets the test find the harness's process.
const launches = globalThis as {
  __oz0AcpHarness?: { command: string; args: string[] };
  __oz0JsonlHarness?: { command: string; args: string[] };
};
launches.__oz0AcpHarness = { command: process.execPath, args: [join(AGENTS, "acp-agent.mjs"), task.marker] };
launches.__oz0JsonlHarness = {
  command: process.execPath,
  args: [join(AGENTS, "jsonl-agent.mjs"), task.marker],
};

/** No model of oz0's is asked anything on a harness: the harness has its own. */
const NO_MODEL = {
  id: "test:unused",
  async generate(): Promise<never> {
    throw new Error("a harness job asked oz0's model");
  },
};
const runtime = await Runtime.open({ home: task.home, defaultPlugins: [] });
const engine = new JobEngine({
  store: runtime.store,
  source: runtime.catalog,
  home: task.home,
  models: async () => NO_MODEL,
  interceptors: [governanceInterceptor(runtime.store)],
  leaseMs: task.leaseMs,
});
const job = await engine.run(task.job, {
  tenant: task.tenant,
  onEvent: (entry) => {
    if (entry.kind === task.killOn) process.kill(process.pid, "SIGKILL");
  },
});
// Reached only when the job never got to that event: the test prints what it became.
process.stdout.write(`${JSON.stringify(job)}\n`);
await runtime.close();
