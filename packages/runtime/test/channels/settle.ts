// What the channels' tests share: settling a tenant's outbox and catching a refusal.
import type { Runtime } from "../../src/runtime.js";

/** The error `promise` is refused with; a promise that resolves fails the test. */
export async function refusal(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a refusal");
}

/**
 * Drains the outbox and runs the tenant's queued jobs until no message waits for its answer or
 * its first delivery (a delivery waiting out its backoff is left to the test).
 */
export async function settle(runtime: Runtime, tenant: string): Promise<void> {
  for (let round = 0; round < 400; round += 1) {
    const worked = await runtime.channels.drain(tenant);
    const queued = await runtime.jobs.search({ tenant, status: "queued" });
    for (const job of queued) await runtime.jobs.run(job.id, { tenant });
    const rows = await runtime.store.db
      .selectFrom("channel_messages")
      .select(["state", "job", "attempts", "after_seq"])
      .where("tenant", "=", tenant)
      .where("state", "in", ["inbound", "answering", "delivering"])
      .execute();
    let open = 0;
    for (const row of rows) {
      if (row.state === "delivering") open += Number(row.attempts) === 0 ? 1 : 0;
      else if (row.state === "inbound") open += 1;
      else {
        // An answer a person is yet to let the job give is no work for the outbox.
        const job = await runtime.jobs.get(row.job!, tenant);
        const waits = (await runtime.jobs.events(job.id, { tenant })).findLast(
          (event) => event.kind === "job_waiting",
        );
        const told = waits !== undefined && Number(row.after_seq) >= waits.seq;
        open += job.status === "waiting" && job.waitingFor?.kind !== "chat" && told ? 0 : 1;
      }
    }
    if (open === 0) return;
    // A row looked at again later (its job had not come to rest): wait for its recheck.
    if (worked === 0 && queued.length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("the outbox did not settle");
}
