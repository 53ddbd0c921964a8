// The job state machine: every move its table does not list is refused, on each store engine,
// with the job named and nothing written; a write that lost a race to another finds the job
// moved and is refused instead of overwriting it; a person's request the table refuses is
// JOB_STATE_CONFLICT.
import { isOz0Error } from "@oz0/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  assertInitial,
  canMove,
  JOB_TRANSITIONS,
  moveJob,
  moveStatus,
  movesInto,
} from "../../src/jobs/status.js";
import {
  DEFAULT_TENANT,
  JOB_STATUSES,
  type JobStatus,
  openStore,
  type Store,
} from "../../src/store/index.js";
import { disposeFixtures, engineFixtures } from "../store/engines.js";

const fixtures = engineFixtures();
afterAll(() => disposeFixtures(fixtures));

const REFUSED: [JobStatus, JobStatus][] = JOB_STATUSES.flatMap((from) =>
  JOB_STATUSES.filter((to) => !canMove(from, to)).map((to): [JobStatus, JobStatus] => [from, to]),
);
const ALLOWED: [JobStatus, JobStatus][] = JOB_STATUSES.flatMap((from) =>
  JOB_TRANSITIONS[from].map((to): [JobStatus, JobStatus] => [from, to]),
);

let serial = 0;
async function jobAt(store: Store, status: JobStatus): Promise<string> {
  const id = `status-${++serial}`;
  await store.db
    .insertInto("jobs")
    .values({
      id,
      tenant: DEFAULT_TENANT,
      name: "triage",
      plugin: "helpdesk",
      kind: "agent",
      queue: "pool.helpdesk",
      status,
      input: JSON.stringify("a ticket"),
      created_at: 1,
      updated_at: 1,
    })
    .execute();
  return id;
}

async function statusOf(store: Store, id: string): Promise<JobStatus> {
  const row = await store.db
    .selectFrom("jobs")
    .select("status")
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
  return row.status;
}

describe("the job state machine's table", () => {
  it("lets an ended job go nowhere, but a dead-lettered one back to the queue when an operator retries it", () => {
    for (const ended of ["succeeded", "failed", "cancelled"] as const) {
      expect(JOB_TRANSITIONS[ended]).toEqual([]);
    }
    expect(JOB_TRANSITIONS.dead).toEqual(["queued"]);
  });

  it("names every status, and every status but the ones a job starts in can be reached", () => {
    expect(Object.keys(JOB_TRANSITIONS).sort()).toEqual([...JOB_STATUSES].sort());
    for (const status of JOB_STATUSES) {
      if (status !== "queued" && status !== "running") expect(movesInto(status).length).toBeGreaterThan(0);
    }
  });

  it.each(REFUSED)("refuses to build a move from %s to %s, before anything is written", (from, to) => {
    const build = () => moveStatus({} as never, to, [from], "job-1");
    expect(build).toThrow(
      expect.objectContaining({ code: "INTERNAL", data: { job: "job-1", status: from, to } }),
    );
    expect(build).toThrow(`from ${from} to ${to}`);
  });

  it("refuses to create a job in a status no job starts in", () => {
    for (const status of ["waiting", "succeeded", "failed", "cancelled", "dead"] as const) {
      expect(() => assertInitial("job-1", status)).toThrow(expect.objectContaining({ code: "INTERNAL" }));
    }
    expect(() => assertInitial("job-1", "queued")).not.toThrow();
    expect(() => assertInitial("job-1", "running")).not.toThrow();
  });
});

describe.each(fixtures)("job status moves on $label", (fixture) => {
  let store: Store;
  beforeAll(async () => {
    store = await openStore(await fixture.fresh());
  });
  afterAll(() => store?.close());

  it.each(REFUSED)(
    "refuses to move a %s job to %s, naming the job and both statuses, and leaves it as it was",
    async (from, to) => {
      const id = await jobAt(store, from);
      // The write moves a job from every status the table lets reach `to`: this one is in none.
      const sources = movesInto(to);
      const error = await store
        .transaction((trx) => moveJob(trx, id, to, { from: sources }))
        .then(
          () => undefined,
          (thrown: unknown) => thrown,
        );
      expect(isOz0Error(error, "INTERNAL")).toBe(true);
      expect(error).toMatchObject({ data: { job: id, status: from, to } });
      expect((error as Error).message).toContain(`job ${id}`);
      expect((error as Error).message).toContain(`from ${from} to ${to}`);
      expect(await statusOf(store, id)).toBe(from);
    },
  );

  it.each(ALLOWED)("moves a %s job to %s", async (from, to) => {
    const id = await jobAt(store, from);
    await store.transaction((trx) => moveJob(trx, id, to, { from: [from] }));
    expect(await statusOf(store, id)).toBe(to);
  });

  it("refuses a person's request the table refuses as JOB_STATE_CONFLICT", async () => {
    const id = await jobAt(store, "succeeded");
    await expect(
      store.transaction((trx) =>
        moveJob(trx, id, "cancelled", { from: movesInto("cancelled"), side: "user" }),
      ),
    ).rejects.toMatchObject({
      code: "JOB_STATE_CONFLICT",
      data: { job: id, status: "succeeded", to: "cancelled" },
    });
  });

  it("a write that lost a race finds the job moved and is refused instead of overwriting it", async () => {
    const id = await jobAt(store, "waiting");
    // A chat ended (waiting → succeeded) while an answer was on its way to wake the same job.
    await store.transaction((trx) => moveJob(trx, id, "succeeded", { from: ["waiting"] }));
    await expect(
      store.transaction((trx) => moveJob(trx, id, "queued", { from: ["waiting"] })),
    ).rejects.toMatchObject({ code: "INTERNAL", data: { job: id, status: "succeeded", to: "queued" } });
    expect(await statusOf(store, id)).toBe("succeeded");
  });

  it("a legal move the write does not make from where the job is says which statuses it moves from", async () => {
    const id = await jobAt(store, "running");
    await expect(
      store.transaction((trx) => moveJob(trx, id, "queued", { from: ["waiting"] })),
    ).rejects.toThrow("this write moves only a job that is waiting");
    expect(await statusOf(store, id)).toBe("running");
  });
});
