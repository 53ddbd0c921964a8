// Crash safety with real processes: a worker is killed with SIGKILL in the middle of a tool
// call and in the middle of a model call; another process takes the job up from its history
// once the dead worker's lease runs out, repeating no completed step. The in-flight step runs
// again at most once per crash, with the same idempotency key. On SQLite and on PostgreSQL.
import { rm } from "node:fs/promises";
import { afterAll, describe, expect, it } from "vitest";
import { disposeFixtures, engineFixtures } from "../store/engines.js";
import { ofKind } from "./helpers.js";
import { finish, history, kill, lines, scene, startWorker, until } from "./workers.js";

/** Short, so the second worker takes over soon after the first is killed; long enough that a live worker on a loaded 2-core machine renews it in time. */
const LEASE_MS = 2_000;
/** Each test starts two Node processes, which can take seconds each on a busy machine. */
const TIMEOUT_MS = 60_000;

const fixtures = engineFixtures().filter((entry) => entry.label !== "memory");
// Dropping the databases waits for a PostgreSQL server that the other suites keep busy.
afterAll(() => disposeFixtures(fixtures), 60_000);

describe.concurrent.each(fixtures)("crash safety on $label", (fixture) => {
  it(
    "takes up a job whose worker was killed in the middle of a tool call, running that call once more with the same key",
    async () => {
      const s = await scene(await fixture.fresh(), "helpdesk/counter");
      try {
        const first = startWorker(s, { mode: "run", leaseMs: LEASE_MS }, { OZ0_TEST_HANG_ON: "two" });
        await until(() => lines(s.ledger).length === 2, "the second call started", first);
        await kill(first);
        const job = await finish(startWorker(s, { mode: "work", leaseMs: LEASE_MS }));
        expect(job).toMatchObject({ id: s.job, status: "succeeded", output: "counted" });
        const [one, two, twoAgain, three] = lines(s.ledger);
        expect([one, two, twoAgain, three]).toEqual([
          `${s.job}:1.1 1 one`,
          `${s.job}:2.1 1 two`,
          `${s.job}:2.1 2 two`,
          `${s.job}:3.1 1 three`,
        ]);
        const events = await history(s);
        // The first claim recorded steps before it died: the second starts the count over.
        expect(ofKind(events, "job_claimed").map((entry) => entry.data.attempt)).toEqual([1, 1]);
        expect(ofKind(events, "tool_call_retried").map((entry) => entry.data)).toEqual([
          { callId: "2.1", attempt: 2, args: { entry: "two" } },
        ]);
        expect(ofKind(events, "tool_result").map((entry) => entry.data.callId)).toEqual([
          "1.1",
          "2.1",
          "3.1",
        ]);
        // The model was not asked again for a step it had answered.
        expect(lines(s.modelLog)).toEqual(["1", "2", "3", "4"]);
      } finally {
        await rm(s.dir, { recursive: true, force: true });
      }
    },
    TIMEOUT_MS,
  );

  it(
    "takes up a job whose worker was killed in the middle of a model call, repeating no completed step",
    async () => {
      const s = await scene(await fixture.fresh(), "helpdesk/counter");
      try {
        const first = startWorker(s, { mode: "run", leaseMs: LEASE_MS, hangAtModelStep: 2 });
        await until(() => lines(s.modelLog).length === 2, "the second model call started", first);
        await kill(first);
        const job = await finish(startWorker(s, { mode: "work", leaseMs: LEASE_MS }));
        expect(job).toMatchObject({ id: s.job, status: "succeeded", output: "counted" });
        expect(lines(s.ledger)).toEqual([`${s.job}:1.1 1 one`, `${s.job}:2.1 1 two`, `${s.job}:3.1 1 three`]);
        // Model call 2 was in flight when the worker died: it runs again, once; call 1 does not.
        expect(lines(s.modelLog)).toEqual(["1", "2", "2", "3", "4"]);
        const events = await history(s);
        expect(ofKind(events, "model_call").map((entry) => entry.data.step)).toEqual([1, 2, 3, 4]);
        // The first claim recorded steps before it died: the second starts the count over.
        expect(ofKind(events, "job_claimed").map((entry) => entry.data.attempt)).toEqual([1, 1]);
      } finally {
        await rm(s.dir, { recursive: true, force: true });
      }
    },
    TIMEOUT_MS,
  );
});
