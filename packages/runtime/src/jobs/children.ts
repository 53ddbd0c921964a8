// Starting a child job (oz.delegate, a flow's agent step): the parent waits for it, and the
// child is created, tagged and queued in the same transaction, so neither exists without the other.
import { event, type NewEvent } from "../events/index.js";
import { childJobId } from "./ids.js";
import type { JobRun } from "./job-run.js";
import { placed } from "./queues.js";
import { agentTags } from "./tags.js";

export interface ChildStart {
  /** The parent's call or step that starts the child; part of the child's ID. */
  readonly callId: string;
  /** The child's agent. */
  readonly child: { readonly plugin: string; readonly name: string };
  readonly input: unknown;
  /** Events the parent records before `child_job_started`, in the same write. */
  readonly before?: readonly NewEvent[];
}

/** The ID the child of `start` gets: known before it starts, so hooks can name it. */
export function childIdOf(run: JobRun, start: Pick<ChildStart, "callId" | "child">): string {
  return childJobId(run.row.id, start.child.name, start.callId);
}

/** Puts the parent to wait for a new child job of `start.child` and queues the child. */
export async function waitForChild(run: JobRun, start: ChildStart): Promise<true> {
  const { row, deps } = run;
  const { callId, child, input } = start;
  const job = childIdOf(run, start);
  const agent = `${child.plugin}/${child.name}`;
  const tags = await agentTags(deps.source, row.tenant, child);
  const placement = await placed(deps.jobs.store, deps.source, row.tenant, { ...child, kind: "agent" });
  return run.wait(
    { kind: "child", callId, job },
    [...(start.before ?? []), event("child_job_started", { callId, job, agent })],
    async (trx) => {
      await deps.jobs.createIn(
        trx,
        {
          id: job,
          tenant: row.tenant,
          name: child.name,
          plugin: child.plugin,
          kind: "agent",
          ...placement,
          status: "queued",
          input: JSON.stringify(input),
          parent_id: row.id,
          depth: row.depth + 1,
          // The child's runs are spans under the parent's run, in its trace.
          traceparent: run.spans?.childTraceparent(callId) ?? row.traceparent,
          mode: "run",
          tags: JSON.stringify(tags),
        },
        [event("job_started", { agent, mode: "run", input, parent: row.id, by: run.address })],
      );
    },
  );
}
