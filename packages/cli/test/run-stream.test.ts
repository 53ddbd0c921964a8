// `oz0 run` beside a worker in another runtime (as `oz0 worker` in another process would be):
// on PostgreSQL the model's text streams onto stderr as the worker's run streams it, through the
// job's live feed; on SQLite no text crosses from one process to another, and the answer comes
// once the job has ended (docs/jobs.md#following-a-job-live-model-text).
import { join } from "node:path";
import { Runtime } from "@oz0/runtime";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disposeFixtures, engineFixtures } from "../../runtime/test/store/engines.js";
import { FIXTURES, homeWithPlugins, LAB } from "./jobs-helpers.js";
import { oz0 } from "./run-cli.js";

const TELLER_TEXT = 'Once upon a time\na worker told a story, word by word — ünïcode ✓ and "quotes".';
/** A slow poll no test could wait out. */
const HOUR_MS = 3_600_000;

const fixtures = engineFixtures().filter((fixture) => fixture.label !== "memory");
afterAll(() => disposeFixtures(fixtures));

/** Resolves once some connection to `url`'s database listens for live text: `oz0 run` is following. */
async function listeningForText(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (;;) {
      const { rows } = await client.query(
        "select count(*)::int as n from pg_stat_activity where datname = current_database() and query = 'listen oz0_live'",
      );
      if ((rows[0] as { n: number }).n > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    await client.end();
  }
}

describe.each(fixtures)("oz0 run beside a worker in another runtime on $label", (fixture) => {
  let home: string;
  let cleanup: (() => Promise<void>) | undefined;
  let databaseUrl: string | undefined;
  beforeAll(async () => {
    databaseUrl = (await fixture.fresh()).databaseUrl;
    if (databaseUrl !== undefined) process.env.OZ0_DATABASE_URL = databaseUrl;
    // Embedded in both passes: what `oz0 run` here does beside a worker in another runtime.
    ({ home, cleanup } = await homeWithPlugins({ embedded: true }));
    const installed = await oz0([
      "plugin",
      "install",
      join(FIXTURES, "narrator"),
      "--home",
      home,
      "--tenant",
      LAB,
    ]);
    expect(installed.code, installed.stderr).toBe(0);
  });
  afterAll(async () => {
    delete process.env.OZ0_DATABASE_URL;
    await cleanup?.();
  });

  it(
    fixture.engine === "postgres"
      ? "prints the worker's model text onto stderr as it streams, then the answer"
      : "prints the answer once the job has ended, the text of the worker's run not crossing to it",
    async () => {
      const runtime = await Runtime.open({ home, databaseUrl });
      // A live node elsewhere that serves lab's queue but has not taken the job: `oz0 run` leaves
      // the job to the nodes for a while, and follows the one that takes it.
      const now = await runtime.store.now();
      await runtime.store.db
        .insertInto("workers")
        .values({
          id: "node-elsewhere",
          host: "elsewhere",
          pid: 1,
          concurrency: 1,
          started_at: now,
          expires_at: now + HOUR_MS,
          version: "0.0.0",
          format: 1_000_000,
          labels: "",
          pool: null,
          tenant: LAB,
        })
        .execute();
      const worker = runtime.worker({ tenant: LAB, pollMs: 50 });
      try {
        // On SQLite the worker is up first, so it, not `oz0 run`, takes the job however slow the
        // machine; on PostgreSQL it starts once `oz0 run` listens, so its text cannot be over first.
        if (databaseUrl === undefined) await worker.start();
        const run = oz0(["run", "narrator/teller", "go", "--home", home, "--tenant", LAB]);
        if (databaseUrl !== undefined) {
          await listeningForText(databaseUrl);
          await worker.start();
        }
        const result = await run;
        expect(result.code, result.stderr).toBe(0);
        expect(result.stdout).toContain(TELLER_TEXT);
        const indented = TELLER_TEXT.replaceAll("\n", "\n  ");
        if (fixture.engine === "postgres") expect(result.stderr).toContain(`  ${indented}`);
        else expect(result.stderr).not.toContain("word by word");
      } finally {
        await worker.drain();
        await runtime.store.db.deleteFrom("workers").where("id", "=", "node-elsewhere").execute();
        await runtime.close();
      }
    },
  );
});
