// The nodes' soak: two or three `oz0 node` processes on one PostgreSQL, a few hundred multi-step
// jobs (helpdesk/counter: four model steps and three ledger.add calls, each a side effect
// written to a shared file), and SIGKILLs of random working nodes, each restarted at once. It counts
// what must stay 0: jobs lost (not succeeded in the end), recorded steps run again (a model
// step or a call's result recorded twice), and side effects run twice outside the
// at-least-once window (more executions of a call than 1 + its `tool_call_retried` events).
//
// Full run: npm run soak:nodes [-- --nodes 3 --jobs 300 --kills 60]
// (OZ0_SOAK_DATABASE_URL: an administrator's URL to create the run's database on; default the
// local server). packages/cli/test/soak-nodes.test.ts runs it shortened.
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { localAdmin, Runtime } from "@oz0/runtime";
import pg from "pg";

const ROOT = join(import.meta.dirname, "..");
const MAIN = join(ROOT, "packages/cli/src/main.ts");
const RESOLVE_TS = join(ROOT, "packages/runtime/test/store/fixtures/resolve-ts.ts");
const HELPDESK = join(ROOT, "packages/runtime/test/fixtures/jobs/helpdesk");
const TENANT = "soak";
/** The counter agent's model steps: three calls and the answer. */
const MODEL_STEPS = 4;

export interface SoakOptions {
  /** A database of its own for the run (it is filled with the run's tenant and jobs). */
  readonly databaseUrl: string;
  readonly nodes: number;
  readonly jobs: number;
  readonly kills: number;
  /** Each node's lease: how soon another node takes over a killed node's jobs. */
  readonly leaseMs: number;
  /** How long each ledger.add holds its call open after its side effect: kills land inside calls. */
  readonly holdMs: number;
  /** How long a node runs before it may be killed (WARM_MS when left out). */
  readonly warmMs?: number;
  /** The longest the run waits for the jobs to end after the last kill. */
  readonly settleMs?: number;
  readonly log?: (line: string) => void;
}

export interface SoakFigures {
  readonly nodes: number;
  readonly jobs: number;
  readonly kills: number;
  readonly succeeded: number;
  /** Jobs that did not succeed in the end (still queued or running, failed, dead). */
  readonly lost: number;
  readonly dead: number;
  /** Model steps or call results recorded more than once. */
  readonly stepsRerun: number;
  /** Side effects run more often than once plus their recorded retries. */
  readonly duplicateEffects: number;
  /** Calls in flight at a kill that ran again, as the at-least-once window allows. */
  readonly retriedCalls: number;
  readonly seconds: number;
}

interface NodeProcess {
  readonly child: ChildProcess;
  readonly since: number;
}

/**
 * How long a node runs before it may be killed, by default. A node still loading takes seconds to record
 * its jobs' next steps; killing the node that took a job over, and the next, before any of
 * them recorded one is a poison step's pattern (the dead letter's rule), not a random kill.
 */
const WARM_MS = 10_000;

export async function soak(options: SoakOptions): Promise<SoakFigures> {
  const log = options.log ?? (() => {});
  const began = Date.now();
  const work = await mkdtemp(join(tmpdir(), "oz0-soak-"));
  const ledger = join(work, "ledger.txt");
  const runtime = await Runtime.open({ home: join(work, "edge"), databaseUrl: options.databaseUrl });
  const nodes: NodeProcess[] = [];
  let spawned = 0;
  const spawnNode = (): NodeProcess => {
    const home = join(work, `node-${++spawned}`);
    const child = spawn(
      process.execPath,
      [
        "--conditions=@oz0/source",
        "--import",
        RESOLVE_TS,
        MAIN,
        "node",
        "--json",
        "--concurrency",
        "4",
        "--lease",
        String(options.leaseMs / 1000),
        "--grace",
        "1",
        "--home",
        home,
      ],
      {
        env: {
          ...process.env,
          OZ0_DATABASE_URL: options.databaseUrl,
          OZ0_TEST_LEDGER: ledger,
          OZ0_TEST_HOLD_MS: String(options.holdMs),
        },
        stdio: ["ignore", "pipe", "ignore"],
      },
    );
    child.stdout?.resume();
    return { child, since: Date.now() };
  };
  try {
    const admin = localAdmin("default");
    await runtime.services.identity.createTenant(admin, TENANT);
    const caller = localAdmin(TENANT);
    await runtime.services.plugins.install(caller, HELPDESK);
    const ids: string[] = [];
    for (let index = 0; index < options.jobs; index++) {
      const job = await runtime.services.jobs.start(caller, {
        agent: "helpdesk/counter",
        input: `job ${index}`,
      });
      ids.push(job.id);
    }
    log(`${options.jobs} jobs queued; starting ${options.nodes} nodes`);
    for (let index = 0; index < options.nodes; index++) nodes.push(spawnNode());
    let kills = 0;
    while (kills < options.kills) {
      // Kills a lease apart at least, each of a node that has run a while (warmMs). Every kill
      // planned is made, so the count is the run's own, whenever the jobs end.
      await sleep(options.leaseMs + Math.floor(Math.random() * options.leaseMs));
      const ready = nodes.filter((node) => Date.now() - node.since >= (options.warmMs ?? WARM_MS));
      if (ready.length === 0) continue;
      const victim = ready[Math.floor(Math.random() * ready.length)]!;
      victim.child.kill("SIGKILL");
      nodes.splice(nodes.indexOf(victim), 1, spawnNode());
      kills++;
      log(`kill ${kills}/${options.kills}`);
    }
    const until = Date.now() + (options.settleMs ?? 120_000);
    while (!(await allEnded(runtime, ids)) && Date.now() < until) await sleep(200);
    return {
      ...(await count(runtime, ids, ledger)),
      nodes: options.nodes,
      kills,
      seconds: (Date.now() - began) / 1000,
    };
  } finally {
    await Promise.all(
      nodes.map(async (node) => {
        if (node.child.exitCode !== null || node.child.signalCode !== null) return;
        const exited = new Promise((resolve) => node.child.once("exit", resolve));
        node.child.kill("SIGTERM");
        await Promise.race([exited, sleep(10_000).then(() => node.child.kill("SIGKILL"))]);
      }),
    );
    await runtime.close();
    await rm(work, { recursive: true, force: true });
  }
}

async function allEnded(runtime: Runtime, ids: readonly string[]): Promise<boolean> {
  const open = await runtime.store.db
    .selectFrom("jobs")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("id", "in", ids)
    .where("status", "in", ["queued", "running"])
    .executeTakeFirstOrThrow();
  return Number(open.n) === 0;
}

async function count(
  runtime: Runtime,
  ids: readonly string[],
  ledger: string,
): Promise<Omit<SoakFigures, "nodes" | "kills" | "seconds">> {
  const rows = await runtime.store.db
    .selectFrom("jobs")
    .select(["id", "status"])
    .where("id", "in", ids)
    .execute();
  const succeeded = rows.filter((row) => row.status === "succeeded").length;
  const dead = rows.filter((row) => row.status === "dead").length;
  const executions = new Map<string, number>();
  if (existsSync(ledger)) {
    for (const line of readFileSync(ledger, "utf8").split("\n")) {
      const key = line.split(" ")[0];
      if (key) executions.set(key, (executions.get(key) ?? 0) + 1);
    }
  }
  let stepsRerun = 0;
  let duplicateEffects = 0;
  let retriedCalls = 0;
  for (const id of ids) {
    const events = await runtime.jobs.events(id, { tenant: TENANT });
    const models = events.filter((entry) => entry.kind === "model_call").length;
    stepsRerun += Math.max(0, models - MODEL_STEPS);
    const results = new Map<string, number>();
    const retries = new Map<string, number>();
    const keys = new Map<string, string>();
    for (const entry of events) {
      if (entry.kind === "tool_result")
        results.set(entry.data.callId, (results.get(entry.data.callId) ?? 0) + 1);
      if (entry.kind === "tool_call_retried")
        retries.set(entry.data.callId, (retries.get(entry.data.callId) ?? 0) + 1);
      if (entry.kind === "tool_call") keys.set(entry.data.callId, entry.data.key);
    }
    for (const times of results.values()) stepsRerun += Math.max(0, times - 1);
    for (const [callId, key] of keys) {
      const allowed = 1 + (retries.get(callId) ?? 0);
      retriedCalls += retries.get(callId) ?? 0;
      duplicateEffects += Math.max(0, (executions.get(key) ?? 0) - allowed);
    }
  }
  return {
    jobs: ids.length,
    succeeded,
    lost: ids.length - succeeded,
    dead,
    stepsRerun,
    duplicateEffects,
    retriedCalls,
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A database of the run's own on the server at `adminUrl`, and what drops it. */
export async function soakDatabase(adminUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `oz0_soak_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      nodes: { type: "string", default: "3" },
      jobs: { type: "string", default: "300" },
      kills: { type: "string", default: "60" },
      lease: { type: "string", default: "2000" },
      hold: { type: "string", default: "30" },
    },
  });
  const adminUrl = process.env.OZ0_SOAK_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const database = await soakDatabase(adminUrl);
  try {
    const figures = await soak({
      databaseUrl: database.url,
      nodes: Number(values.nodes),
      jobs: Number(values.jobs),
      kills: Number(values.kills),
      leaseMs: Number(values.lease),
      holdMs: Number(values.hold),
      settleMs: 300_000,
      log: (line) => process.stderr.write(`${line}\n`),
    });
    process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
    const bad = figures.lost + figures.stepsRerun + figures.duplicateEffects;
    process.exitCode = bad === 0 ? 0 : 1;
  } finally {
    await database.drop();
  }
}
