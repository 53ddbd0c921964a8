// A run's state is its own: steps in other modules read it and change it only through the
// run's methods (the type system refuses a write to its fields), and each mark is taken once.
import { describe, expect, it } from "vitest";
import type { JobEvent } from "../../src/events/index.js";
import { replay } from "../../src/jobs/history.js";
import { JobRun, type RunDeps } from "../../src/jobs/job-run.js";
import { NO_SECRETS } from "../../src/models/index.js";
import type { JobRow } from "../../src/store/index.js";

function run(): JobRun {
  const row = { id: "job-1", plugin: "helpdesk", name: "triage", cancel_requested_by: null } as JobRow;
  const lease = { job: "job-1", token: "t", ttlMs: 1_000, nextSeq: 1, redactor: NO_SECRETS, notesPending: 0 };
  const started = {
    seq: 1,
    at: 0,
    kind: "job_started",
    data: { agent: "helpdesk/triage", mode: "run", input: "x" },
  };
  return new JobRun({} as RunDeps, row, lease, replay([started as JobEvent]), 42, {});
}

describe("a job run's state", () => {
  it("is read through the run, and a write to its fields is refused by the type system", () => {
    const r = run();
    expect([r.now, r.cancelBy, r.deadline, r.stopReason, r.recordedCall]).toEqual([
      42,
      null,
      Number.POSITIVE_INFINITY,
      undefined,
      undefined,
    ]);
    expect(() => {
      // @ts-expect-error: the database's time moves only with the run's own writes and renewals.
      r.now = 7;
    }).toThrow(TypeError);
    expect(() => {
      // @ts-expect-error: a cancel request comes from the store, never from another module.
      r.cancelBy = "someone";
    }).toThrow(TypeError);
    expect([r.now, r.cancelBy]).toEqual([42, null]);
  });

  it("takes the mark of a call recorded with its reply once, and only for that call", () => {
    const r = run();
    r.recordedWithReply("1.1");
    expect(r.takeRecorded("1.2")).toBe(false);
    expect(r.recordedCall).toBe("1.1");
    expect(r.takeRecorded("1.1")).toBe(true);
    expect(r.takeRecorded("1.1")).toBe(false);
    r.recordedWithReply("2.1");
    expect(r.settleRecorded("2.2")).toBe(false);
    expect(r.recordedCall).toBeUndefined();
  });

  it("stops the calls in flight once, keeping the first reason", () => {
    const r = run();
    r.stop("cancel");
    r.stop("timeout");
    expect(r.stopReason).toBe("cancel");
    expect(r.signal.aborted).toBe(true);
    expect(r.takeGovernanceVersion()).toBeUndefined();
  });
});
