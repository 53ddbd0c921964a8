// StartJob → job succeeded through `oz0 serve`'s HTTP API, beside the same job embedded. One
// runtime on a SQLite file (WAL) with the job engine's fixture plugin; its `triage` agent runs on
// the offline test model (two tool calls, then its answer). Embedded: start() then run() in the
// process. Server: POST /v1/t/lab/jobs, then the job's event stream until its `end` event, with
// the server's own worker running the job, all on loopback. Then requests/s with autocannon:
// StartJob (the worker running what it starts) and reading a job. Every job is checked to have
// succeeded. Run it with `npm run bench:server` (`npm run bench` runs it too).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Runtime } from "@oz0/runtime";
import { startServer } from "@oz0/server";
import autocannon from "autocannon";

const JOBS = 60;
const WARM_UP = 10;
const SECONDS = 3;
const CONNECTIONS = 10;
const TENANT = "lab";
/** The API key the requests send, made through the runtime's identity as `oz0 key create` makes one. */
let KEY = "";
const AGENT = "helpdesk/triage";
const HELPDESK = fileURLToPath(new URL("../packages/runtime/test/fixtures/jobs/helpdesk", import.meta.url));

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function p95(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))];
}

function expectSucceeded(job) {
  if (job.status !== "succeeded")
    throw new Error(`job ${job.id} ended ${job.status}: ${JSON.stringify(job.failure)}`);
}

async function embedded(runtime) {
  const times = [];
  for (let i = 0; i < WARM_UP + JOBS; i++) {
    const begin = performance.now();
    const started = await runtime.jobs.start({ tenant: TENANT, agent: AGENT, input: `ticket ${i}` });
    const job = await runtime.jobs.run(started.id, { tenant: TENANT });
    const took = performance.now() - begin;
    expectSucceeded(job);
    if (i >= WARM_UP) times.push(took);
  }
  return times;
}

/** Reads an event stream to its end and returns the job the `end` event carries. */
async function untilEnd(response) {
  const text = await response.text();
  const end = text.split("\n\n").find((block) => block.startsWith("event: end"));
  if (end === undefined) throw new Error("the event stream ended without its end event");
  return JSON.parse(end.slice(end.indexOf("data: ") + 6)).job;
}

async function throughServer(url) {
  const headers = { authorization: `Bearer ${KEY}`, "content-type": "application/json" };
  const times = [];
  for (let i = 0; i < WARM_UP + JOBS; i++) {
    const begin = performance.now();
    const started = await fetch(`${url}/v1/t/${TENANT}/jobs`, {
      method: "POST",
      headers,
      body: JSON.stringify({ agent: AGENT, input: `ticket ${i}` }),
    });
    if (started.status !== 201)
      throw new Error(`StartJob answered ${started.status}: ${await started.text()}`);
    const { id } = await started.json();
    const events = await fetch(`${url}/v1/t/${TENANT}/jobs/${id}/events`, {
      headers: { ...headers, accept: "text/event-stream" },
    });
    const job = await untilEnd(events);
    const took = performance.now() - begin;
    expectSucceeded(job);
    if (i >= WARM_UP) times.push(took);
  }
  return times;
}

function cannon(options) {
  return autocannon({ connections: CONNECTIONS, duration: SECONDS, ...options });
}

async function main() {
  const home = await mkdtemp(join(tmpdir(), "oz0-bench-server-"));
  const runtime = await Runtime.open({ home, defaultPlugins: [] });
  try {
    const root = { tenant: "default", actor: "user:bench", role: "admin", agents: ["*"] };
    await runtime.identity.createTenant(root, TENANT);
    await runtime.catalog.install(TENANT, HELPDESK);
    const admin = { tenant: TENANT, actor: "user:bench", role: "admin", agents: ["*"] };
    KEY = (await runtime.identity.createKey(admin, { name: "bench", role: "admin" })).key;
    const embeddedTimes = await embedded(runtime);
    const server = await startServer({
      runtime,
      host: "127.0.0.1",
      port: 0,
      eventPollMs: 5,
      worker: { concurrency: 4 },
    });
    try {
      const serverTimes = await throughServer(server.url);
      const headers = { authorization: `Bearer ${KEY}`, "content-type": "application/json" };
      const starts = await cannon({
        url: `${server.url}/v1/t/${TENANT}/jobs`,
        method: "POST",
        headers,
        body: JSON.stringify({ agent: AGENT, input: "ticket 7" }),
      });
      const one = (await runtime.jobs.search({ tenant: TENANT, limit: 1 }))[0];
      const reads = await cannon({ url: `${server.url}/v1/t/${TENANT}/jobs/${one.id}`, headers });
      const failed = (result) => result.non2xx + result.errors;
      console.log(
        `server: StartJob → job succeeded (${AGENT}, 3 steps, ${JOBS} jobs one after another, SQLite file)`,
      );
      console.log(
        `  embedded start()+run()          median ${median(embeddedTimes).toFixed(2)} ms  p95 ${p95(embeddedTimes).toFixed(2)} ms`,
      );
      console.log(
        `  HTTP StartJob + event stream    median ${median(serverTimes).toFixed(2)} ms  p95 ${p95(serverTimes).toFixed(2)} ms`,
      );
      console.log(`  requests/s over ${CONNECTIONS} connections for ${SECONDS} s (loopback):`);
      console.log(
        `    POST StartJob                 ${starts.requests.average.toFixed(0)} req/s  p50 ${starts.latency.p50} ms  (${failed(starts)} failed)`,
      );
      console.log(
        `    GET  a job                    ${reads.requests.average.toFixed(0)} req/s  p50 ${reads.latency.p50} ms  (${failed(reads)} failed)`,
      );
      if (failed(starts) + failed(reads) > 0) process.exitCode = 1;
    } finally {
      await server.close();
    }
  } finally {
    await runtime.close();
    await rm(home, { recursive: true, force: true });
  }
}

await main();
