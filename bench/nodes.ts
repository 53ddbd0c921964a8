// Jobs per second for one-step jobs on one PostgreSQL, with one node and with two, beside
// pgbench's simple-update TPS on the same server in the same run (the server's own ceiling for
// small write transactions). Each node is an `oz0 node` process of its own at concurrency 8;
// the run waits until every job has succeeded.
// Run it with `npm run bench:nodes` (OZ0_BENCH_DATABASE_URL: an administrator's URL; default
// the local server). pgbench is looked for on PATH and in /usr/lib/postgresql/*/bin.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { localAdmin, Runtime } from "@oz0/runtime";
import { soakDatabase } from "./soak-nodes.js";

const HELPDESK = join(import.meta.dirname, "../packages/runtime/test/fixtures/jobs/helpdesk");
const MAIN = join(import.meta.dirname, "../packages/cli/src/main.ts");
const RESOLVE_TS = join(import.meta.dirname, "../packages/runtime/test/store/fixtures/resolve-ts.ts");
const JOBS = Number(process.env.OZ0_BENCH_JOBS ?? 400);

/**
 * Jobs per second of `nodes` node processes (`oz0 node --pool bench`, from the sources) draining
 * JOBS one-step jobs. The jobs are queued on a pool no node serves, then moved to the nodes'
 * pool in one UPDATE (whose NOTIFY wakes them): the clock runs from that UPDATE to the last
 * job's end, so the nodes' start-up is not counted.
 */
async function jobsPerSecond(databaseUrl: string, nodes: number): Promise<number> {
  const work = await mkdtemp(join(tmpdir(), "oz0-bench-nodes-"));
  const edge = await Runtime.open({ home: join(work, "edge"), databaseUrl });
  const children: ChildProcess[] = [];
  try {
    const caller = localAdmin("default");
    await edge.services.nodes.setPool(caller, { plugin: "helpdesk", pool: "hold" });
    const ids: string[] = [];
    for (let index = 0; index < JOBS; index++) {
      ids.push(
        (await edge.services.jobs.start(caller, { agent: "helpdesk/early", input: `job ${index}` })).id,
      );
    }
    const started: Promise<void>[] = [];
    for (let index = 0; index < nodes; index++) {
      const child = spawn(
        process.execPath,
        [
          "--conditions=@oz0/source",
          "--import",
          RESOLVE_TS,
          MAIN,
          "node",
          "--json",
          "--pool",
          "bench",
          "--concurrency",
          "8",
          "--home",
          join(work, `node-${index}`),
        ],
        { env: { ...process.env, OZ0_DATABASE_URL: databaseUrl }, stdio: ["ignore", "pipe", "ignore"] },
      );
      children.push(child);
      started.push(
        new Promise((resolve) => {
          child.stdout?.on("data", (chunk: Buffer) => {
            if (chunk.toString().includes('"event":"started"')) resolve();
          });
        }),
      );
    }
    await Promise.all(started);
    const db = edge.store.db;
    const began = performance.now();
    await db
      .updateTable("jobs")
      .set({ pool: "bench", queue: "pool.bench", status: "queued" })
      .where("id", "in", ids)
      .execute();
    for (;;) {
      const open = await db
        .selectFrom("jobs")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("id", "in", ids)
        .where("status", "!=", "succeeded")
        .executeTakeFirstOrThrow();
      if (Number(open.n) === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const seconds = (performance.now() - began) / 1000;
    await edge.services.nodes.removePool(caller, "helpdesk");
    return JOBS / seconds;
  } finally {
    await Promise.all(
      children.map(
        (child) =>
          new Promise((resolve) => {
            child.once("exit", resolve);
            child.kill("SIGTERM");
          }),
      ),
    );
    await edge.close();
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
