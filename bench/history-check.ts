// How the benches check that a job really ran: the tool results its history holds, counted by
// a statement built once, so that the check costs the same at every job and little beside it.
import type { Runtime } from "@oz0/runtime";

/** Counts the `tool_result` events of a job of `runtime`'s store. */
export function toolResultCounter(runtime: Runtime): (job: string) => Promise<number> {
  const count = runtime.store.db
    .selectFrom("job_events")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("job_id", "=", "")
    .where("kind", "=", "tool_result")
    .compile();
  return async (job) => {
    const { rows } = await runtime.store.db.executeQuery<{ n: number }>({
      ...count,
      parameters: [job, "tool_result"],
    });
    return Number(rows[0]?.n ?? 0);
  };
}
