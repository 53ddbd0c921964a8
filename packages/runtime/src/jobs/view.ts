// A job as the CLI, the API and the console show it: its agent by address, its status, and
// its output or failure, read from the stored row.

import type { JobFailure, WaitingFor } from "../events/index.js";
import type { JobMode, JobRow, JobStatus } from "../store/index.js";

export interface JobView {
  readonly id: string;
  readonly tenant: string;
  /** `<plugin>/<agent>`, from the owner the job started under. */
  readonly agent: string;
  readonly status: JobStatus;
  readonly mode: JobMode;
  readonly input: unknown;
  /** The answer, once the job succeeded; null before and otherwise. */
  readonly output: unknown;
  readonly failure: JobFailure | null;
  readonly parent: string | null;
  readonly depth: number;
  /** The agent's tags when the job started (none for a flow). */
  readonly tags: readonly string[];
  /** Claims in a row with the same step in flight (jobs.md, "Failover"); progress starts it over at 1. */
  readonly attempts: number;
  /** The task queue it runs on: `pool.<plugin>`, `pool.<plugin>.<labels>` or a shared pool's. */
  readonly queue: string;
  /**
   * Why no live node will take it, while it waits to run and none serves its queue (no node of
   * its pool with its labels, or only nodes of an older job format); null otherwise, and where
   * the view is not read through the jobs service.
   */
  readonly unserved: string | null;
  readonly waitingFor: WaitingFor | null;
  readonly cancelRequestedBy: string | null;
  /** Epoch milliseconds, by the database's clock. */
  readonly createdAt: number;
  readonly updatedAt: number;
}

export function jobView(row: JobRow): JobView {
  return {
    id: row.id,
    tenant: row.tenant,
    agent: `${row.plugin}/${row.name}`,
    status: row.status,
    mode: row.mode,
    input: JSON.parse(row.input),
    output: row.output === null ? null : JSON.parse(row.output),
    failure: row.failure === null ? null : (JSON.parse(row.failure) as JobFailure),
    parent: row.parent_id,
    depth: row.depth,
    tags: JSON.parse(row.tags) as string[],
    attempts: row.attempts,
    queue: row.queue,
    unserved: null,
    waitingFor: row.waiting_for === null ? null : (JSON.parse(row.waiting_for) as WaitingFor),
    cancelRequestedBy: row.cancel_requested_by,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}
