// On PostgreSQL the step writes of a process's jobs go in groups (jobs/write-group.ts): while
// GROUP_FLYING statements are on their way, the writes other jobs ask for wait and go next as
// one statement and one commit. Each job's write keeps its owner check; a write resolves only once it committed,
// so a crash in the middle of a group loses nothing that was acknowledged.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { event } from "../../src/events/index.js";
import { JobStore, type Lease } from "../../src/jobs/index.js";
import { writeGroupOf } from "../../src/jobs/store.js";
import { GROUP_FLYING } from "../../src/jobs/write-group.js";
import { openStore, type Store, type StoreOptions } from "../../src/store/index.js";
import { disposeFixtures, engineFixtures } from "../store/engines.js";
import { type Harness, harness, TENANT } from "./helpers.js";

const fixtures = engineFixtures().filter((fixture) => fixture.label === "postgres");
afterAll(() => disposeFixtures(fixtures), 60_000);

const RESOLVE_TS = fileURLToPath(new URL("../store/fixtures/resolve-ts.ts", import.meta.url));
const WRITER = fileURLToPath(new URL("./group-writer.ts", import.meta.url));
const WRITER_NAME = "oz0_group_writer";

describe.each(fixtures)("grouped writes on $label", (fixture) => {
  let options: StoreOptions;
  let store: Store;
  let h: Harness;
  beforeAll(async () => {
    options = await fixture.fresh();
    store = await openStore(options);
    h = await harness(["helpdesk"], store);
  });
  afterAll(() => store?.close());

  /** `count` jobs started and claimed, each with its lease. */
  async function claimed(jobs: JobStore, count: number, prefix: string): Promise<Lease[]> {
    const leases: Lease[] = [];
    for (let index = 0; index < count; index++) {
      const started = await h.engine().start({ tenant: TENANT, agent: "helpdesk/triage", input: "ticket" });
      const claim = await jobs.claim({
        job: started.id,
        node: prefix,
        token: `${prefix}#${index}`,
        ttlMs: 600_000,
      });
      leases.push(claim!.lease);
    }
    return leases;
  }

  const note = (text: string) => event("mcp_log", { callId: "c", tool: "t", level: "info", data: text });

  async function kindsOf(job: string): Promise<{ seq: number; kind: string; data: string }[]> {
    return store.db
      .selectFrom("job_events")
      .select(["seq", "kind", "data"])
      .where("job_id", "=", job)
      .orderBy("seq")
      .execute();
  }

  it("writes of several jobs at once go in fewer statements than writes, each job's events in order under its lease", async () => {
    const jobs = new JobStore(store);
    // More jobs than statements may be on their way: the first writes go alone, the rest together.
    const leases = await claimed(jobs, GROUP_FLYING + 4, "grouping");
    const group = writeGroupOf(store);
    const before = { ...group.sent };
    await Promise.all(
      leases.map(async (lease) => {
        for (let write = 0; write < 5; write++)
          await jobs.write(lease, [note(`${write}a`), note(`${write}b`)]);
      }),
    );
    const statements = group.sent.statements - before.statements;
    expect(group.sent.writes - before.writes).toBe(leases.length * 5);
    expect(statements).toBeLessThan(leases.length * 5);
    for (const lease of leases) {
      const events = await kindsOf(lease.job);
      // job_started (the claim itself records nothing here), then the ten notes.
      const notes = events.filter((entry) => entry.kind === "mcp_log");
      expect(notes.map((entry) => JSON.parse(entry.data).data)).toEqual(
        Array.from({ length: 5 }, (_, write) => [`${write}a`, `${write}b`]).flat(),
      );
      expect(events.map((entry) => entry.seq)).toEqual(events.map((_, index) => index + 1));
      expect(lease.nextSeq).toBe(events.length + 1);
    }
  });

  it("a writer whose lease was taken over is refused in its group, and the other jobs' writes commit", async () => {
    const jobs = new JobStore(store);
    // The first GROUP_FLYING writes go alone; the next three together, the lost one among them.
    const leases = await claimed(jobs, GROUP_FLYING + 3, "lost");
    const lost = GROUP_FLYING + 1;
    // Another worker took that job over: its token is no longer this one's.
    await store.db
      .updateTable("jobs")
      .set({ lease_owner: "elsewhere#1" })
      .where("id", "=", leases[lost]!.job)
      .execute();
    const group = writeGroupOf(store);
    const before = group.sent.statements;
    const outcomes = await Promise.allSettled(leases.map((lease) => jobs.write(lease, [note("x")])));
    expect(group.sent.statements - before).toBe(GROUP_FLYING + 1);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(
      leases.map((_, index) => (index === lost ? "rejected" : "fulfilled")),
    );
    expect((outcomes[lost] as PromiseRejectedResult).reason).toMatchObject({ code: "LEASE_LOST" });
    for (const [index, lease] of leases.entries()) {
      const wrote = (await kindsOf(lease.job)).some((entry) => entry.kind === "mcp_log");
      expect(wrote).toBe(index !== lost);
    }
  });

  it("a grouped write tells its worker of hooks' records waiting for the job, and the next write moves them in", async () => {
    const jobs = new JobStore(store);
    const leases = await claimed(jobs, GROUP_FLYING + 2, "noted");
    const noted = leases.at(-1)!;
    // Written from outside while the worker holds the job: the record waits in job_notes.
    expect(await jobs.note(noted.job, TENANT, [note("from a hook")])).toBe(false);
    const group = writeGroupOf(store);
    const before = group.sent.statements;
    await Promise.all(leases.map((lease) => jobs.write(lease, [note("step")])));
    // The last writes went together, the noted job's among them.
    expect(group.sent.statements - before).toBeLessThan(leases.length);
    expect(noted.notesPending).toBe(1);
    await jobs.write(noted, [note("next step")]);
    expect(noted.notesPending).toBe(0);
    const data = (await kindsOf(noted.job))
      .filter((entry) => entry.kind === "mcp_log")
      .map((entry) => JSON.parse(entry.data).data);
    expect(data).toEqual(["step", "from a hook", "next step"]);
  });

  it("a group whose statement fails runs each write again alone: only the faulty one is refused", async () => {
    const jobs = new JobStore(store);
    const leases = await claimed(jobs, GROUP_FLYING + 3, "faulty");
    // A writer of the group believes in a seq its job already has: its insert fails, and with
    // it the group's statement, of which nothing commits.
    const faulty = GROUP_FLYING + 1;
    leases[faulty]!.nextSeq = 1;
    const group = writeGroupOf(store);
    const before = group.sent.statements;
    const outcomes = await Promise.allSettled(leases.map((lease) => jobs.write(lease, [note("y")])));
    expect(outcomes.map((outcome) => outcome.status)).toEqual(
      leases.map((_, index) => (index === faulty ? "rejected" : "fulfilled")),
    );
    // The first ones alone, the group of three, then each of those three again alone.
    expect(group.sent.statements - before).toBe(GROUP_FLYING + 1 + 3);
    for (const [index, lease] of leases.entries()) {
      const notes = (await kindsOf(lease.job)).filter((entry) => entry.kind === "mcp_log");
      expect(notes).toHaveLength(index === faulty ? 0 : 1);
    }
    expect((await kindsOf(leases[faulty]!.job)).map((entry) => entry.kind)).toEqual(["job_started"]);
  });

  it("a process killed in the middle of grouped writes loses none of the writes it acknowledged", async () => {
    const jobs = new JobStore(store);
    const leases = await claimed(jobs, GROUP_FLYING * 2, "crash");
    // The writer's connections are named, so that what they have on their way can be ended with it.
    const url = new URL(options.databaseUrl!);
    url.searchParams.set("application_name", WRITER_NAME);
    const writerUrl = url.toString();
    const child: ChildProcess = spawn(
      process.execPath,
      [
        "--conditions=@oz0/source",
        "--import",
        RESOLVE_TS,
        WRITER,
        JSON.stringify({
          options: { databaseUrl: writerUrl },
          leases: leases.map(({ job, token, nextSeq }) => ({ job, token, nextSeq })),
        }),
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exited = once(child, "exit");
    const deadline = Date.now() + 60_000;
    // Enough acknowledged writes that groups are on their way when it dies.
    while (stdout.split("\n").length < 200) {
      if (child.exitCode !== null) throw new Error(`the writer exited early: ${stderr}`);
      if (Date.now() > deadline) throw new Error(`gave up waiting for the writer: ${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    // The jobs' rows held here: the writes on their way wait for them, uncommitted. Whatever the
    // writer acknowledged by now committed before; then it dies, and the server ends what it
    // had on its way (a statement left running would commit once the rows were let go).
    const holder = new pg.Client({ connectionString: options.databaseUrl });
    await holder.connect();
    try {
      await holder.query("begin");
      await holder.query("select id from jobs where id = any($1) for update", [
        leases.map((lease) => lease.job),
      ]);
      await new Promise((resolve) => setTimeout(resolve, 200));
      child.kill("SIGKILL");
      await exited;
      await holder.query(
        "select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1",
        [WRITER_NAME],
      );
      await holder.query("rollback");
    } finally {
      await holder.end();
    }
    const acknowledged = stdout
      .split("\n")
      .filter((line) => line.endsWith("}"))
      .map((line) => JSON.parse(line) as { job: string; first: number; count: number });
    expect(acknowledged.length).toBeGreaterThanOrEqual(199);
    for (const lease of leases) {
      const seqs = new Set((await kindsOf(lease.job)).map((entry) => entry.seq));
      const mine = acknowledged.filter((write) => write.job === lease.job);
      for (const write of mine)
        for (let seq = write.first; seq < write.first + write.count; seq++) expect(seqs.has(seq)).toBe(true);
      // What committed is the history from its start, with no gap: no write went in part.
      const sorted = [...seqs].sort((a, b) => a - b);
      expect(sorted).toEqual(sorted.map((_, index) => index + 1));
    }
  }, 90_000);
});
