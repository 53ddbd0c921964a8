// `oz0 worker [--concurrency N]`: runs a worker in the foreground. It takes the store's
// runnable jobs (every tenant's, or only those of the tenant a --tenant given on the command
// line names), up to N at once, printing a line as it takes each and as each stops (JSON
// lines with --json), and fires the routines that come due (a line for each fire). SIGTERM or
// SIGINT drains it: it takes nothing more, lets the jobs in flight finish within the grace
// period, lets go of the rest (queued, for another worker) and exits 0.
import { once } from "node:events";
import type { JobView } from "@oz0/runtime";
import type { Command } from "commander";
import { withLocalRuntime } from "../context.js";
import { numberOption } from "../options.js";
import type { Output } from "../output.js";

interface WorkerOptions {
  concurrency?: number;
  grace?: number;
}

export function registerWorker(program: Command, out: Output): Command {
  return program
    .command("worker")
    .description("run a worker in the foreground: it takes queued jobs and runs them until SIGTERM")
    .option(
      "--concurrency <n>",
      "how many jobs it runs at once (default 4)",
      numberOption({ whole: true, min: 1, what: "how many jobs to run at once", example: "4" }),
    )
    .option(
      "--grace <seconds>",
      "on SIGTERM, how long the jobs in flight run on before they are let go (default 30)",
      numberOption({ min: 0, what: "seconds to let the jobs in flight finish", example: "30" }),
    )
    .action(async (options: WorkerOptions, command: Command) => {
      // A worker serves the whole store unless told which tenant: --tenant's default is no choice.
      const tenant = tenantGiven(command) ? out.options.tenant : undefined;
      await withLocalRuntime(out, async ({ runtime }) => {
        const say = (what: "claimed" | "stopped", job: JobView) => {
          if (out.json)
            out.writeJson({ event: what, job: { id: job.id, agent: job.agent, status: job.status } });
          else
            out.stdout(
              `${what === "claimed" ? "took" : "stopped"} job ${job.id} · ${job.agent} · ${job.status}\n`,
            );
        };
        const worker = runtime.worker({
          ...(tenant === undefined ? {} : { tenant }),
          ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
          ...(options.grace === undefined ? {} : { graceMs: options.grace * 1000 }),
          onClaimed: (job) => say("claimed", job),
          onStopped: (job) => say("stopped", job),
          onError: (error) =>
            out.stderr(`oz0: worker: ${error instanceof Error ? error.message : String(error)}\n`),
        });
        // Every worker runs the routine scheduler too: each tick fires once however many run it.
        const routines = runtime.routines.scheduler({
          ...(tenant === undefined ? {} : { tenant }),
          onFired: ({ routine, result }) => {
            const job = result.outcome === "started" ? result.job.id : null;
            if (out.json) out.writeJson({ event: "routine", routine, outcome: result.outcome, job });
            else out.stdout(`routine ${routine} · ${result.outcome}${job === null ? "" : ` · job ${job}`}\n`);
          },
          onError: (error) =>
            out.stderr(`oz0: routines: ${error instanceof Error ? error.message : String(error)}\n`),
        });
        const stop = new AbortController();
        const onSignal = () => stop.abort();
        process.once("SIGTERM", onSignal);
        process.once("SIGINT", onSignal);
        try {
          await worker.start();
          routines.start();
          if (out.json)
            out.writeJson({
              event: "started",
              worker: worker.id,
              concurrency: worker.concurrency,
              tenant: tenant ?? null,
            });
          else
            out.stderr(
              `worker ${worker.id} · ${tenant === undefined ? "every tenant" : `tenant ${tenant}`} · ${worker.concurrency} at once · SIGTERM drains it\n`,
            );
          if (!stop.signal.aborted) await once(stop.signal, "abort");
          if (!out.json)
            out.stderr(`worker ${worker.id} draining: ${worker.inFlight.length} job(s) in flight\n`);
          await routines.stop();
          await worker.drain();
          if (out.json) out.writeJson({ event: "drained", worker: worker.id });
          else out.stderr(`worker ${worker.id} stopped\n`);
        } finally {
          process.off("SIGTERM", onSignal);
          process.off("SIGINT", onSignal);
        }
      });
    });
}

/** Whether --tenant was given on the command line, rather than left at its default. */
function tenantGiven(command: Command): boolean {
  let root = command;
  while (root.parent !== null) root = root.parent;
  return root.getOptionValueSource("tenant") === "cli";
}
