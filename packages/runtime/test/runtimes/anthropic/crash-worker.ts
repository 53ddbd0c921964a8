// A separate oz0 worker process for remote-anthropic-crash.test.ts: it runs one remote:anthropic
// job on the test's home with a short lease, and is killed with SIGKILL mid-session.
import { JobEngine } from "../../../src/jobs/index.js";
import { governanceInterceptor } from "../../../src/policy/index.js";
import { Runtime } from "../../../src/runtime.js";

const task = JSON.parse(process.argv[2] ?? "{}") as {
  home: string;
  job: string;
  tenant: string;
  leaseMs: number;
};
const runtime = await Runtime.open({ home: task.home, defaultPlugins: [] });
const engine = new JobEngine({
  store: runtime.store,
  source: runtime.catalog,
  home: task.home,
  models: runtime.models.resolver,
  interceptors: [governanceInterceptor(runtime.store)],
  redactor: (tenant) => runtime.models.redactor(tenant),
  leaseMs: task.leaseMs,
});
const job = await engine.run(task.job, { tenant: task.tenant });
process.stdout.write(`${JSON.stringify(job)}\n`);
await runtime.close();
