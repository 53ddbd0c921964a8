// The agent loop, wired: replay the history, record the claim, set the agent up, then hand the
// job to the agent runtime its `runtime:` selects (runtimes/), which takes steps through the
// core's session until the job ends or waits: oz0's own runtime takes the next pending tool
// call, else a model call. Before each step the gate checks for a cancel request, the wall
// time, the tool policy and the kill switches. Every step lives in its own module.
import { isOz0Error, Oz0Error } from "@oz0/sdk";
import { event, failureOf, type NewEvent } from "../events/index.js";
import { runHooksFor } from "../hooks/index.js";
import { RuntimeStop } from "../runtimes/index.js";
import { endCatalogOperation } from "../store/index.js";
import { tracedRun } from "../telemetry/index.js";
import type { PartSource } from "../tools/index.js";
import { callsIn } from "../usage/index.js";
import { runFlow } from "./flows/index.js";
import { replay } from "./history.js";
import { JobRun, type RunDeps, type RunListeners } from "./job-run.js";
import { stopped } from "./model-step.js";
import { CoreSession } from "./session.js";
import { type AgentSetup, setUpAgent } from "./setup.js";
import type { Claimed } from "./store.js";
import { takeUpChildEnds } from "./tool-step.js";

/** How a run ended for its worker: the job stopped (ended or waits), or the lease went to another. */
export type RunOutcome = "stopped" | "lost";

/** Runs a claimed job until it stops. */
export async function runJob(
  deps: RunDeps,
  claimed: Claimed,
  listeners: RunListeners = {},
  stop?: AbortSignal,
): Promise<RunOutcome> {
  const { row } = claimed;
  const events = claimed.events ?? (await deps.jobs.events(row.id));
  const traced = await tracedRun(
    deps.telemetry,
    {
      jobId: row.id,
      tenant: row.tenant,
      agent: `${row.plugin}/${row.name}`,
      kind: row.kind,
      attempt: row.attempts,
      parentJobId: row.parent_id,
      traceparent: row.traceparent,
      redact: (value) => claimed.lease.redactor.json(value),
    },
    listeners,
    (traceparent) => deps.jobs.keepTraceparent(row.id, traceparent),
  );
  const spans = traced.spans;
  const runDeps = spans === undefined ? deps : { ...deps, models: spans.models(deps.models) };
  const run = new JobRun(runDeps, row, claimed.lease, replay(events), claimed.now, traced.listeners, spans);
  run.usage.add(callsIn(events) ?? []);
  run.start();
  // The engine let go of the lease (an interrupted run): stopped as a worker that lost it is.
  const onStop = () => run.stop("lost");
  if (stop?.aborted === true) onStop();
  else stop?.addEventListener("abort", onStop, { once: true });
  try {
    await guarded(run, claimed.recorded);
    return "stopped";
  } catch (error) {
    if (isOz0Error(error, "LEASE_LOST")) return "lost";
    throw error;
  } finally {
    stop?.removeEventListener("abort", onStop);
    run.finish();
    spans?.end();
  }
}

/** A fault inside a step fails the job with the reason, rather than leaving it to be retried blindly. */
async function guarded(run: JobRun, recorded: NewEvent | undefined): Promise<void> {
  try {
    await loop(run, recorded);
  } catch (error) {
    if (isOz0Error(error, "LEASE_LOST")) throw error;
    // The job stopped inside a runtime's call (it ended or waits): the run is over.
    if (error instanceof RuntimeStop) return;
    try {
      await run.fail(failureOf(error));
    } catch {
      throw error;
    }
  }
}

/** `recorded`: the claim's `job_claimed`, when the claim wrote it in its own commit (its bundle was there before it). */
async function loop(run: JobRun, recorded: NewEvent | undefined): Promise<void> {
  const { row, deps } = run;
  // A node that cannot get the job's plugin bundle cannot run it, and that is not the job's
  // fault: the job is let go, to be claimed again after a while (here or by another node), and
  // nothing of this claim is recorded or counted.
  if (recorded === undefined && (await bundleMissing(deps.source, row.tenant, row.plugin))) {
    await deps.jobs.setAside(run.lease, BUNDLE_RETRY_MS);
    throw new Oz0Error(
      "LEASE_LOST",
      `job ${row.id}: its plugin bundle is missing on this node, so it is let go`,
      {
        data: { job: row.id, owner: run.lease.token },
      },
    );
  }
  const claim = recorded ?? event("job_claimed", { attempt: row.attempts, node: deps.node });
  // Recorded by the claim: applied and told now, as the write of it would have.
  if (recorded !== undefined) run.written([recorded]);
  if (row.attempts > deps.maxAttempts) {
    await run.end(
      {
        status: "dead",
        failure: {
          kind: "dead_letter",
          message:
            `the job's worker stopped ${row.attempts - 1} times in a row with the same step in flight (a poison step), ` +
            `so it is set aside instead of trying again; oz0 job trace ${row.id} shows the step it stopped at, ` +
            `and oz0 job retry ${row.id} queues it again`,
        },
      },
      recorded === undefined ? [claim] : [],
    );
    return;
  }
  if (recorded === undefined) await run.write([claim]);
  if (run.cancelBy !== null) {
    await run.end({ status: "cancelled", by: run.cancelBy });
    return;
  }
  // The tenant's hook handlers, bound to this job for the run; every later write passes them.
  run.useHooks(await runHooksFor(run));
  // A flow takes its own steps, on the same paths and under the same lease.
  if (row.kind === "flow") {
    endCatalogOperation();
    await runFlow(run);
    return;
  }
  let setup: AgentSetup;
  try {
    setup = await setUpAgent(run);
  } catch (error) {
    if (isOz0Error(error, "LEASE_LOST")) throw error;
    await (stopped(run) ?? run.fail(failureOf(error)));
    return;
  }
  // A delegated child's end came in while the job waited: its post_tool_call runs now.
  await takeUpChildEnds(run);
  const session = new CoreSession(run, setup);
  await session.run();
}

/** How long a job whose plugin bundle a node could not get waits before it is claimed again. */
export const BUNDLE_RETRY_MS = 10_000;

/** Whether plugin `plugin` of `tenant` loads here but for its bundle, missing from the store. */
export async function bundleMissing(source: PartSource, tenant: string, plugin: string): Promise<boolean> {
  try {
    await source.loadInstalled(tenant, plugin);
    return false;
  } catch (error) {
    // Any other reason it does not load is the job's to fail with, at its set-up.
    const cause = (error as { cause?: unknown }).cause;
    return (
      isOz0Error(error, "INVALID_PLUGIN") &&
      isOz0Error(cause, "INVALID_BUNDLE") &&
      (cause.data as { detail?: unknown } | undefined)?.detail === "bundle missing"
    );
  }
}
