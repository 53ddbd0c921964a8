// The agent loop, wired: replay the history, record the claim, set the agent up, then take
// steps (the next pending tool call, else a model call) until the job ends or waits, checking
// for a cancel request and the wall time before each. Every step lives in its own module.
import { isOz0Error } from "@oz0/sdk";
import { event, failureOf } from "../events/index.js";
import { runHooksFor } from "../hooks/index.js";
import { tracedRun } from "../telemetry/index.js";
import { callsIn } from "../usage/index.js";
import { runFlow } from "./flows/index.js";
import { governStep } from "./gate.js";
import { replay } from "./history.js";
import { JobRun, type RunDeps, type RunListeners } from "./job-run.js";
import { modelStep, stopped, timeoutFailure } from "./model-step.js";
import { type AgentSetup, setUpAgent } from "./setup.js";
import type { Claimed } from "./store.js";
import { toolStep } from "./tool-step.js";

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
  const events = await deps.jobs.events(row.id);
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
    await guarded(run);
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
async function guarded(run: JobRun): Promise<void> {
  try {
    await loop(run);
  } catch (error) {
    if (isOz0Error(error, "LEASE_LOST")) throw error;
    try {
      await run.fail(failureOf(error));
    } catch {
      throw error;
    }
  }
}

async function loop(run: JobRun): Promise<void> {
  const { row, deps } = run;
  const claim = event("job_claimed", { attempt: row.attempts, node: deps.node });
  if (row.attempts > deps.maxAttempts) {
    await run.end(
      {
        status: "dead",
        failure: {
          kind: "dead_letter",
          message:
            `the job's worker stopped ${row.attempts - 1} times in a row while running it, so it is set aside ` +
            `instead of trying again; oz0 job trace ${row.id} shows the step it stopped at`,
        },
      },
      [claim],
    );
    return;
  }
  await run.write([claim]);
  if (run.cancelBy !== null) {
    await run.end({ status: "cancelled", by: run.cancelBy });
    return;
  }
  // The tenant's hook handlers, bound to this job for the run; every later write passes them.
  run.useHooks(await runHooksFor(run));
  // A flow takes its own steps, on the same paths and under the same lease.
  if (row.kind === "flow") {
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
  // Setting up ran the plugins' code after the last write: the first step reads the version itself.
  run.forgetGovernanceVersion();
  for (;;) {
    if (run.stopReason === "lost") throw run.signal.reason;
    // A call whose tool_call went out with its model reply finishes its step first.
    if (run.cancelBy !== null && run.recordedCall === undefined) {
      await run.end({ status: "cancelled", by: run.cancelBy });
      return;
    }
    if (run.now >= run.deadline || run.stopReason === "timeout") {
      await run.fail(timeoutFailure(run));
      return;
    }
    // The tenant's tool policy and kill switches as of this step; a killed agent's job ends here.
    if (await governStep(run)) return;
    const next = run.history.pending.values().next().value;
    const done = next !== undefined ? await toolStep(run, setup, next) : await modelStep(run, setup);
    if (done) return;
  }
}
