// What people and workers do to jobs: cancel (at the next step, recording who), attempts
// counted at claim, dead-lettering a job that keeps stopping its worker, resuming, search.
import { isOz0Error } from "@oz0/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { JobEngine } from "../../src/jobs/index.js";
import { JobStore } from "../../src/jobs/index.js";
import type { LanguageModel } from "../../src/models/index.js";
import { type Harness, harness, kinds, ofKind, TENANT, using } from "./helpers.js";

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

/** Lets the lease of `id` run out, as when its worker died. */
async function expireLease(id: string): Promise<void> {
  await h.store.db.updateTable("jobs").set({ lease_expires_at: 0 }).where("id", "=", id).execute();
}

describe("cancel", () => {
  it("ends a queued job at once, recording who cancelled it", async () => {
    const engine = h.engine();
    const started = await engine.start({ tenant: TENANT, agent: "helpdesk/triage", input: "ticket 7" });
    const job = await engine.cancel(started.id, "cli:erin", { tenant: TENANT });
    expect(job).toMatchObject({
      status: "cancelled",
      failure: { kind: "cancelled", message: "cancelled by cli:erin" },
    });
    expect(ofKind(await engine.events(job.id, { tenant: TENANT }), "job_cancelled")[0]?.data).toEqual({
      by: "cli:erin",
    });
  });

  it("stops a running job at its next step", async () => {
    let engine: JobEngine;
    const cancelling: LanguageModel = {
      id: "test:cancelling",
      async generate(request) {
        // The person cancels while the first model call is in flight.
        if (request.step === 1) {
          const [running] = await engine.search({ tenant: TENANT, status: "running" });
          await engine.cancel(running!.id, "frank", { tenant: TENANT });
        }
        return {
          calls: [{ name: "tickets__lookup", args: { id: 7 } }],
          usage: { inputTokens: 1, outputTokens: 1 },
        };
      },
    };
    engine = h.engine({ models: using(cancelling) });
    const started = await engine.start({ tenant: TENANT, agent: "helpdesk/triage", input: "ticket 7" });
    expect(await engine.get(started.id, TENANT)).toMatchObject({ cancelRequestedBy: null });
    const job = await engine.run(started.id, { tenant: TENANT });
    expect(job).toMatchObject({
      status: "cancelled",
      cancelRequestedBy: "frank",
      failure: { message: "cancelled by frank" },
    });
    const events = await engine.events(job.id, { tenant: TENANT });
    // The step under way finished and was recorded; no further model call was made.
    expect(kinds(events).slice(-3)).toEqual(["tool_call", "tool_result", "job_cancelled"]);
    expect(ofKind(events, "model_call")).toHaveLength(1);
  });

  it("refuses to cancel a job that has ended", async () => {
    const { job } = await h.run("helpdesk/triage", "ticket 7");
    const error = await h
      .engine()
      .cancel(job.id, "gina", { tenant: TENANT })
      .catch((thrown: unknown) => thrown);
    expect(isOz0Error(error, "JOB_STATE_CONFLICT")).toBe(true);
    expect((error as Error).message).toBe(
      `job ${job.id} has already ended (succeeded); there is nothing to cancel.`,
    );
  });

  it("does not find a job of another tenant", async () => {
    const { job } = await h.run("helpdesk/triage", "ticket 7");
    await expect(h.engine().get(job.id, "acme")).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(h.engine().cancel(job.id, "x", { tenant: "acme" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });
});

describe("attempts and dead letters", () => {
  it("counts nothing for a claim whose run never began, and takes the job up from its history", async () => {
    const engine = h.engine();
    const jobs = new JobStore(h.store);
    const started = await engine.start({ tenant: TENANT, agent: "helpdesk/triage", input: "ticket 7" });
    // A worker claims the job and dies before writing anything: no step was in flight.
    await jobs.claim({ job: started.id, node: "dead", token: "dead#1", ttlMs: 60_000 });
    await expireLease(started.id);
    const job = await engine.run(started.id, { tenant: TENANT });
    expect(job).toMatchObject({ status: "succeeded", attempts: 1 });
    expect(
      ofKind(await engine.events(job.id, { tenant: TENANT }), "job_claimed").map(
        (entry) => entry.data.attempt,
      ),
    ).toEqual([1]);
  });

  it("claims that die before their runs begin never dead-letter a job, however many", async () => {
    const engine = h.engine({ maxAttempts: 2 });
    const jobs = new JobStore(h.store);
    const started = await engine.start({ tenant: TENANT, agent: "helpdesk/triage", input: "ticket 7" });
    for (const node of ["a", "b", "c", "d", "e"]) {
      await jobs.claim({ job: started.id, node, token: `${node}#1`, ttlMs: 60_000 });
      await expireLease(started.id);
    }
    expect(await engine.run(started.id, { tenant: TENANT })).toMatchObject({ status: "succeeded" });
  });

  it("starts attempts over when a job waits: waiting is progress, not a crash", async () => {
    const { job } = await h.run("helpdesk/asker", "ticket 7");
    expect(job).toMatchObject({ status: "waiting", attempts: 0 });
  });
});

describe("resume", () => {
  it("refuses to run a job another worker holds, naming how to take it over", async () => {
    const engine = h.engine();
    const started = await engine.start({ tenant: TENANT, agent: "helpdesk/triage", input: "ticket 7" });
    await new JobStore(h.store).claim({ job: started.id, node: "other", token: "other#1", ttlMs: 60_000 });
    const error = await engine.run(started.id, { tenant: TENANT }).catch((thrown: unknown) => thrown);
    expect(isOz0Error(error, "JOB_STATE_CONFLICT")).toBe(true);
    expect((error as Error).message).toContain(
      `oz0 job resume ${started.id} takes it over once the lease runs out`,
    );
  });

  it("waits for the lease of a worker that died to run out, then takes the job over", async () => {
    const engine = h.engine({ pollMs: 20 });
    const started = await engine.start({ tenant: TENANT, agent: "helpdesk/triage", input: "ticket 7" });
    await new JobStore(h.store).claim({ job: started.id, node: "gone", token: "gone#1", ttlMs: 150 });
    const waits: number[] = [];
    const job = await engine.resume(started.id, {
      tenant: TENANT,
      onLeaseWait: (wait) => waits.push(wait.remainingMs),
    });
    expect(job).toMatchObject({ status: "succeeded", attempts: 1 });
    expect(waits.length).toBeGreaterThan(0);
  });

  it("refuses to resume a job that has ended", async () => {
    const { job } = await h.run("helpdesk/triage", "ticket 7");
    await expect(h.engine().resume(job.id, { tenant: TENANT })).rejects.toMatchObject({
      code: "JOB_STATE_CONFLICT",
    });
  });
});

describe("search", () => {
  it("finds jobs by agent and status, newest first", async () => {
    const local = await harness();
    try {
      const a = await local.run("helpdesk/triage", "ticket 7");
      const b = await local.run("helpdesk/quitter", "ticket 99");
      const engine = local.engine();
      expect((await engine.search({ tenant: TENANT, agent: "triage" })).map((job) => job.id)).toEqual([
        a.job.id,
      ]);
      expect((await engine.search({ tenant: TENANT, status: "failed" })).map((job) => job.id)).toEqual([
        b.job.id,
      ]);
      expect((await engine.search({ tenant: TENANT })).map((job) => job.id)).toEqual([b.job.id, a.job.id]);
    } finally {
      await local.close();
    }
  });
});
