// A routine's signed webhook is an event from outside that oz0 handles: once its signature is
// checked, pre_sensor_event may rewrite what it carries (the job's input) or refuse it, and
// post_sensor_event hears how it was handled. What pre_sensor_event records goes into the
// history of the job the webhook starts, right after its job_started, and what
// post_sensor_event records after it, unless a worker holds the job by then; a refused webhook
// starts no job, and the sender is told the refusal.
import type { Oz0Error } from "@oz0/sdk";
import type { NewEvent } from "../events/index.js";
import { HookBus } from "../hooks/index.js";
import type { JobEngine } from "../jobs/index.js";

export type Sensed =
  | {
      readonly ok: true;
      readonly event: unknown;
      readonly events: readonly NewEvent[];
      /** Tells post_sensor_event how the event was handled; what it records joins the job's history unless a worker holds the job by then. */
      handled(outcome: string, job?: string): Promise<void>;
    }
  /** Refused: `events` holds the governance_denied, which no job's history takes (none starts). */
  | { readonly ok: false; readonly error: Oz0Error; readonly events: readonly NewEvent[] };

/** A webhook for routine `routine` (by address) of `tenant`, carrying `event`, through the tenant's sensor hooks. */
export async function sensedWebhook(
  jobs: JobEngine,
  tenant: string,
  routine: string,
  event: unknown,
): Promise<Sensed> {
  const table = await jobs.hookTable(tenant);
  const fields = { sensor: "webhook" as const, source: `routine:${routine}` };
  if (!table.has("pre_sensor_event") && !table.has("post_sensor_event")) {
    return { ok: true, event, events: [], handled: async () => undefined };
  }
  const events: NewEvent[] = [];
  const bus = new HookBus(table, { tenant }, (entry) => events.push(entry as NewEvent));
  let taken = event;
  if (bus.has("pre_sensor_event")) {
    const outcome = await bus.fire("pre_sensor_event", { ...fields, event });
    if (!outcome.ok) return { ok: false, error: outcome.error, events };
    taken = outcome.payload.event;
  }
  const recorded = [...events];
  return {
    ok: true,
    event: taken,
    events: recorded,
    handled: async (outcome, job) => {
      if (!bus.has("post_sensor_event")) return;
      events.length = 0;
      await bus.fire("post_sensor_event", {
        ...fields,
        event: taken,
        outcome,
        ...(job === undefined ? {} : { job }),
      });
      if (job !== undefined) await jobs.noteWhileUnheld(job, tenant, events);
    },
  };
}
