// A routine's signed webhook is an event from outside that oz0 handles: once its signature is
// checked, pre_sensor_event may rewrite what it carries (the job's input) or refuse it, and
// post_sensor_event hears how it was handled. What pre_sensor_event records goes into the
// history of the job the webhook starts, right after its job_started, and what
// post_sensor_event records after it (with the next write of a worker that holds the job by
// then); a refused webhook starts no job, the sender is told the refusal, and what the hooks
// recorded goes to the tenant's audit log, as does what a webhook that started no job recorded.
import type { Oz0Error } from "@oz0/sdk";
import type { HookRecordsEntry } from "../audit/index.js";
import type { NewEvent } from "../events/index.js";
import { HookBus } from "../hooks/index.js";
import type { JobEngine } from "../jobs/index.js";

export type Sensed =
  | {
      readonly ok: true;
      readonly event: unknown;
      readonly events: readonly NewEvent[];
      /** Tells post_sensor_event how the event was handled; what it records joins the job's history, or the audit log when no job started. */
      handled(outcome: string, job?: string): Promise<void>;
    }
  /** Refused: `events` holds the governance_denied, which went to the audit log (no job starts). */
  | { readonly ok: false; readonly error: Oz0Error; readonly events: readonly NewEvent[] };

/** A webhook for routine `routine` (by address) of `tenant`, carrying `event`, through the tenant's sensor hooks. */
export async function sensedWebhook(
  jobs: JobEngine,
  tenant: string,
  routine: string,
  event: unknown,
  /** Where the records of a webhook that started no job go: the audit log. */
  unkept: (entry: HookRecordsEntry) => Promise<void> = async () => undefined,
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
    if (!outcome.ok) {
      await unkept({ tenant, source: fields.source, subject: routine, outcome: "refused", events });
      return { ok: false, error: outcome.error, events };
    }
    taken = outcome.payload.event;
  }
  const recorded = [...events];
  return {
    ok: true,
    event: taken,
    events: recorded,
    handled: async (outcome, job) => {
      events.length = 0;
      if (bus.has("post_sensor_event")) {
        await bus.fire("post_sensor_event", {
          ...fields,
          event: taken,
          outcome,
          ...(job === undefined ? {} : { job }),
        });
      }
      if (job !== undefined) await jobs.note(job, tenant, events);
      // No job took the webhook up (a replay, a fire the routine skipped): its records, from the start, go to the audit log.
      else
        await unkept({
          tenant,
          source: fields.source,
          subject: routine,
          outcome,
          events: [...recorded, ...events],
        });
    },
  };
}
