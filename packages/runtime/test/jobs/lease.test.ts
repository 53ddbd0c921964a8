// Leases with real processes: a worker whose tool keeps its thread busy (a CPU-bound loop,
// longer than the lease) keeps its job, since its lease is renewed from a thread of its own,
// so a second worker waits and the call runs once; and a worker whose lease was taken from it
// has its call stopped and records nothing after. On SQLite and on PostgreSQL. The tool
// computes until the test lets it go, and the test reads the lease by the database's clock,
// so nothing here depends on how fast the machine is.
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openStore, type Store } from "../../src/store/index.js";
import { disposeFixtures, engineFixtures } from "../store/engines.js";
import { kinds, ofKind } from "./helpers.js";
import { finish, history, lines, type Scene, scene, startWorker, until } from "./workers.js";

/** Renewed every third of it, from a thread nothing in the tool can hold up: generous on a loaded 2-core machine. */
const LEASE_MS = 3_000;
/** Each test starts two Node processes and waits out a lease. */
const TIMEOUT_MS = 90_000;

const fixtures = engineFixtures().filter((entry) => entry.label !== "memory");
// Dropping the databases waits for a PostgreSQL server that the other suites keep busy.
afterAll(() => disposeFixtures(fixtures), 60_000);

async function busyScene(options: Awaited<ReturnType<(typeof fixtures)[number]["fresh"]>>) {
  const s = await scene(options, "busy/spinner", ["busy"]);
  return { ...s, release: join(s.dir, "release") };
}

function env(s: Scene & { release: string }, extra: Record<string, string> = {}) {
  return { OZ0_TEST_RELEASE: s.release, ...extra };
}

async function lease(store: Store, job: string) {
  const row = await store.db
    .selectFrom("jobs")
    .select(["lease_owner", "lease_expires_at", "status"])
    .where("id", "=", job)
    .executeTakeFirstOrThrow();
  return { ...row, now: await store.now() };
}

describe.each(fixtures)("leases on $label", (fixture) => {
  it(
    "a worker busy in a CPU-bound call for longer than its lease keeps the job: a second worker waits, the call runs once, and the job succeeds",
    async () => {
      const s = await busyScene(await fixture.fresh());
      const store = await openStore(s.options);
      try {
        const first = startWorker(s, { mode: "resume", leaseMs: LEASE_MS }, env(s));
        await until(() => lines(s.ledger).length === 1, "the call started", first);
        // The lease the first worker held when its thread went busy: the tool does not yield
        // until the test lets it, so nothing on that thread can renew it.
        const held = await lease(store, s.job);
        const second = startWorker(s, { mode: "resume", leaseMs: LEASE_MS }, env(s));
        // Until the database's clock is past that lease, and the second worker has looked for
        // the job twice since then (each look tries to claim it first), or it ran the call.
        let looksThen: number | undefined;
        await until(
          async () => {
            if (lines(s.ledger).length > 1) return true;
            const looks = second.stdout().filter((line) => line.startsWith('{"wait"')).length;
            if (looksThen === undefined && (await store.now()) > held.lease_expires_at! + 100)
              looksThen = looks;
            return looksThen !== undefined && looks >= looksThen + 2;
          },
          "the second worker to wait out the first lease",
          first,
          second,
        );
        const kept = await lease(store, s.job);
        await writeFile(s.release, "");
        const [byFirst, bySecond] = await Promise.all([finish(first), finish(second)]);
        expect(lines(s.ledger)).toEqual([`${s.job}:1.1 1 start`, `${s.job}:1.1 1 end`]);
        expect(kept).toMatchObject({ status: "running", lease_owner: held.lease_owner });
        expect(kept.lease_expires_at).toBeGreaterThan(held.lease_expires_at!);
        expect(byFirst).toMatchObject({ status: "succeeded", output: "computed", attempts: 1 });
        expect(bySecond).toMatchObject({ status: "succeeded", output: "computed", attempts: 1 });
        const events = await history(s);
        expect(ofKind(events, "job_claimed").map((entry) => entry.data.attempt)).toEqual([1]);
        expect(ofKind(events, "tool_call_retried")).toEqual([]);
        expect(kinds(events).at(-1)).toBe("job_succeeded");
      } finally {
        await store.close();
        await rm(s.dir, { recursive: true, force: true });
      }
    },
    TIMEOUT_MS,
  );

  it(
    "a worker whose lease was taken from it has its call stopped and records nothing after losing it",
    async () => {
      const s = await busyScene(await fixture.fresh());
      const store = await openStore(s.options);
      try {
        const first = startWorker(
          s,
          { mode: "run", leaseMs: LEASE_MS },
          env(s, { OZ0_TEST_AWAIT_ABORT: "1" }),
        );
        await until(() => lines(s.ledger).length === 1, "the call started", first);
        // Another worker takes the lease over, as one that found it run out would.
        await store.db
          .updateTable("jobs")
          .set({ lease_owner: "a-worker-that-took-over", lease_expires_at: 0 })
          .where("id", "=", s.job)
          .execute();
        const second = startWorker(s, { mode: "work", leaseMs: LEASE_MS }, env(s));
        await until(() => lines(s.ledger).length === 2, "the second worker's call started", first, second);
        await writeFile(s.release, "");
        const [, bySecond] = await Promise.all([finish(first), finish(second)]);
        // The first recorded its start-up before it lost the lease: progress, so a first attempt again.
        expect(bySecond).toMatchObject({ status: "succeeded", output: "computed", attempts: 1 });
        // Both computed; the first had its call's signal aborted for the lost lease.
        expect(lines(s.ledger).sort()).toEqual(
          [
            `${s.job}:1.1 1 start`,
            `${s.job}:1.1 1 end`,
            `${s.job}:1.1 1 aborted LEASE_LOST`,
            `${s.job}:1.1 2 start`,
            `${s.job}:1.1 2 end`,
          ].sort(),
        );
        // Only the second worker's result is in the history, and nothing of the first's after
        // the second claimed the job.
        const events = await history(s);
        const claims = ofKind(events, "job_claimed");
        expect(claims.map((entry) => entry.data.attempt)).toEqual([1, 1]);
        const after = events.filter((entry) => entry.seq > claims[1]!.seq);
        expect(kinds(after)).toEqual(["tool_call_retried", "tool_result", "model_call", "job_succeeded"]);
        expect(ofKind(events, "tool_result").map((entry) => entry.data)).toEqual([
          expect.objectContaining({
            callId: "1.1",
            ok: true,
            result: expect.objectContaining({ attempt: 2 }),
          }),
        ]);
      } finally {
        await store.close();
        await rm(s.dir, { recursive: true, force: true });
      }
    },
    TIMEOUT_MS,
  );
});
