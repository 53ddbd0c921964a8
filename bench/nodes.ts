// Jobs per second for one-step jobs on one PostgreSQL, with one node and with two, beside
// pgbench's simple-update TPS on the same server in the same run (the server's own ceiling for
// small write transactions). Each node is a runtime of its own (its own connections, its own
// heartbeat thread) running a worker at concurrency 8; every job is checked to have succeeded.
// Run it with `npm run bench:nodes` (OZ0_BENCH_DATABASE_URL: an administrator's URL; default
// the local server). pgbench is looked for on PATH and in /usr/lib/postgresql/*/bin.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { localAdmin, Runtime } from "@oz0/runtime";
import { soakDatabase } from "./soak-nodes.js";

const HELPDESK = join(import.meta.dirname, "../packages/runtime/test/fixtures/jobs/helpdesk");
const JOBS = Number(process.env.OZ0_BENCH_JOBS ?? 400);

async function jobsPerSecond(databaseUrl: string, nodes: number): Promise<number> {
  const work = await mkdtemp(join(tmpdir(), "oz0-bench-nodes-"));
  const edge = await Runtime.open({ home: join(work, "edge"), databaseUrl });
  const runtimes = await Promise.all(
    Array.from({ length: nodes }, (_, index) =>
      Runtime.open({ home: join(work, `node-${index}`), databaseUrl }),
    ),
  );
  try {
    const caller = localAdmin("default");
    const ids: string[] = [];
    // Queued first, then the nodes start: the figure is the nodes' draining of the queue.
    for (let index = 0; index < JOBS; index++) {
      ids.push(
        (await edge.services.jobs.start(caller, { agent: "helpdesk/early", input: `job ${index}` })).id,
      );
    }
    let done = 0;
    let finished: () => void = () => {};
    const all = new Promise<void>((resolve) => {
      finished = resolve;
    });
    const workers = runtimes.map((runtime) =>
      runtime.worker({
        concurrency: 8,
        onStopped: () => {
          if (++done === JOBS) finished();
        },
      }),
    );
    const began = performance.now();
    await Promise.all(workers.map((worker) => worker.start()));
    await all;
    const seconds = (performance.now() - began) / 1000;
    await Promise.all(workers.map((worker) => worker.drain()));
    const succeeded = await edge.store.db
      .selectFrom("jobs")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("id", "in", ids)
      .where("status", "=", "succeeded")
      .executeTakeFirstOrThrow();
    if (Number(succeeded.n) !== JOBS) throw new Error(`only ${succeeded.n} of ${JOBS} jobs succeeded`);
    return JOBS / seconds;
  } finally {
    await Promise.all([edge, ...runtimes].map((runtime) => runtime.close()));
    await rm(work, { recursive: true, force: true });
  }
}

function pgbench(): string | undefined {
  try {
    execFileSync("pgbench", ["--version"], { stdio: "ignore" });
    return "pgbench";
  } catch {
    const root = "/usr/lib/postgresql";
    if (!existsSync(root)) return undefined;
    for (const version of readdirSync(root).sort().reverse()) {
      const path = join(root, version, "bin/pgbench");
      if (existsSync(path)) return path;
    }
    return undefined;
  }
}

function simpleUpdateTps(binary: string, databaseUrl: string): number {
  execFileSync(binary, ["-i", "-s", "1", "-q", databaseUrl], { stdio: "ignore" });
  const out = execFileSync(binary, ["-b", "simple-update", "-c", "8", "-j", "2", "-T", "5", databaseUrl], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "ignore"],
  });
  const tps = /tps = ([\d.]+)/.exec(out)?.[1];
  if (tps === undefined) throw new Error(`pgbench printed no tps:\n${out}`);
  return Number(tps);
}

const adminUrl = process.env.OZ0_BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const database = await soakDatabase(adminUrl);
try {
  const setup = await Runtime.open({
    home: await mkdtemp(join(tmpdir(), "oz0-bench-setup-")),
    databaseUrl: database.url,
  });
  await setup.services.plugins.install(localAdmin("default"), HELPDESK);
  await setup.close();
  const one = await jobsPerSecond(database.url, 1);
  const two = await jobsPerSecond(database.url, 2);
  process.stdout.write(`one-step jobs, ${JOBS} per run, PostgreSQL\n`);
  process.stdout.write(`  1 node:  ${one.toFixed(0)} jobs/s\n`);
  process.stdout.write(`  2 nodes: ${two.toFixed(0)} jobs/s\n`);
  const binary = pgbench();
  if (binary === undefined)
    process.stdout.write("  pgbench: not found on PATH or in /usr/lib/postgresql; no TPS figure\n");
  else
    process.stdout.write(
      `  pgbench simple-update (8 clients, 5 s): ${simpleUpdateTps(binary, database.url).toFixed(0)} TPS\n`,
    );
} finally {
  await database.drop();
}
