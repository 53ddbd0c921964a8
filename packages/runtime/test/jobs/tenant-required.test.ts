// The job engine never reads "any tenant": every operation on one job names the tenant it acts
// in, refused by the types when left out and at run time when missing or empty, so one
// forgotten argument in a surface cannot reach another tenant's jobs.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { JobEngine, JobView } from "../../src/jobs/index.js";
import { type Harness, harness, TENANT } from "./helpers.js";

let h: Harness;
let engine: JobEngine;
let job: JobView;

beforeAll(async () => {
  h = await harness();
  engine = h.engine();
  job = await engine.start({ tenant: TENANT, agent: "helpdesk/triage", input: "ticket 7" });
});
afterAll(() => h.close());

async function refusal(work: () => Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await work();
  } catch (error) {
    return error as { code: string; message: string };
  }
  throw new Error("the call was not refused");
}

describe("a tenant-less job operation", () => {
  it("is refused by the type system", () => {
    // Each line is a type error; the test fails to typecheck if one becomes allowed.
    const calls = [
      // @ts-expect-error the tenant is required
      () => engine.get(job.id),
      // @ts-expect-error the tenant is required
      () => engine.card(job.id),
      // @ts-expect-error the tenant is required
      () => engine.events(job.id),
      // @ts-expect-error the tenant is required
      () => engine.events(job.id, { afterSeq: 1 }),
      // @ts-expect-error the tenant is required
      () => engine.cancel(job.id, "cli:alice"),
      // @ts-expect-error the tenant is required
      () => engine.answer(job.id, "yes", "cli:alice"),
      // @ts-expect-error the tenant is required
      () => engine.say(job.id, "hello", "cli:alice"),
      // @ts-expect-error the tenant is required
      () => engine.endChat(job.id),
      // @ts-expect-error the tenant is required
      () => engine.run(job.id),
      // @ts-expect-error the tenant is required
      () => engine.run(job.id, { follow: true }),
      // @ts-expect-error the tenant is required
      () => engine.runUp(job.id),
      // @ts-expect-error the tenant is required
      () => engine.resume(job.id),
    ];
    expect(calls).toHaveLength(12);
  });

  for (const tenant of [undefined, ""]) {
    it(`is refused at run time with ${tenant === undefined ? "an undefined" : "an empty"} tenant, before it reads the job`, async () => {
      const t = tenant as unknown as string;
      const calls: (() => Promise<unknown>)[] = [
        () => engine.get(job.id, t),
        () => engine.card(job.id, t),
        () => engine.events(job.id, { tenant: t }),
        () => engine.cancel(job.id, "cli:alice", { tenant: t }),
        () => engine.answer(job.id, "yes", "cli:alice", { tenant: t }),
        () => engine.say(job.id, "hello", "cli:alice", { tenant: t }),
        () => engine.endChat(job.id, { tenant: t }),
        () => engine.run(job.id, { tenant: t }),
        () => engine.runUp(job.id, { tenant: t }),
        () => engine.resume(job.id, { tenant: t }),
        // A caller that passes no options at all, as plain JavaScript can.
        () => (engine.run as (id: string) => Promise<unknown>)(job.id),
        () => (engine.events as (id: string) => Promise<unknown>)(job.id),
      ];
      for (const call of calls) {
        const error = await refusal(call);
        expect(error.code).toBe("INVALID_INPUT");
        expect(error.message).toContain("must name the tenant it acts in");
      }
      // Nothing was done to the job.
      expect((await engine.get(job.id, TENANT)).status).toBe("queued");
    });
  }

  it("finds no job of another tenant", async () => {
    const error = await refusal(() => engine.get(job.id, "other"));
    expect(error.code).toBe("NOT_FOUND");
  });
});
