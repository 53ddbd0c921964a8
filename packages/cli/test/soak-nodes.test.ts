// The nodes' soak, shortened: two `oz0 node` processes on one PostgreSQL, two dozen multi-step
// jobs, and two SIGKILLs of a random node, each restarted. Counts only: no job is lost or
// dead-lettered (two kills cannot make the three crashes of a poison step), no recorded step
// runs again, and no side effect runs twice outside the at-least-once window of a call in
// flight at a kill. `npm run soak:nodes` runs it in full (bench/soak-nodes.ts).
import { afterAll, describe, expect, it } from "vitest";
import { soak, soakDatabase } from "../../../bench/soak-nodes.js";
import { POSTGRES_ADMIN_URL } from "../../runtime/test/store/engines.js";

const drops: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const drop of drops) await drop();
});

describe("nodes killed at random on one PostgreSQL", () => {
  it("lose no job, run no recorded step again, and run no side effect twice outside a call's at-least-once window", async () => {
    const database = await soakDatabase(POSTGRES_ADMIN_URL);
    drops.push(database.drop);
    const figures = await soak({
      databaseUrl: database.url,
      nodes: 2,
      jobs: 24,
      kills: 2,
      leaseMs: 2_000,
      holdMs: 200,
      warmMs: 3_000,
    });
    expect(figures).toMatchObject({
      jobs: 24,
      kills: 2,
      lost: 0,
      dead: 0,
      stepsRerun: 0,
      duplicateEffects: 0,
    });
  }, 240_000);
});
