// `oz0 node [--labels a,b] [--pool NAME] [--concurrency N]` (also spelled `oz0 worker`): runs a
// worker node in the foreground on the home's store (OZ0_DATABASE_URL for PostgreSQL). It takes
// the runnable jobs of the task queues it serves (its pool's, or the plugins' own pools, whose
// labels are all among its own; every tenant's, or only those of the tenant a --tenant given
// on the command line names), up to N at once, printing a line as it takes each and as each
// stops (JSON lines with --json), and fires the routines that come due (a line for each fire).
// SIGTERM or SIGINT drains it: it takes nothing more, lets the jobs in flight finish within the
// grace period, lets go of the rest (queued, for another node) and exits 0.
// `oz0 node list` shows the nodes, live or gone; `oz0 node pool list|set|remove` maps a
// tenant's plugins to shared pools.
import { once } from "node:events";
import type { JobView, NodeView, PoolMapping } from "@oz0/runtime";
import type { Command } from "commander";
import { withLocalRuntime, withRuntime } from "../context.js";
import { numberOption } from "../options.js";
import type { Output } from "../output.js";

interface NodeOptions {
  concurrency?: number;
  lease?: number;
  grace?: number;
  labels?: string[];
  pool?: string;
}

export function registerNode(program: Command, out: Output): Command {
  const node = program
    .command("node")
    .alias("worker")
    .description("run a worker node, list the nodes, and map plugins to shared pools");
  node
    .command("list")
    .description(
      "list the nodes on the store: live, stopped (drained) or gone (killed), with their labels and pool",
    )
    .action(async () => {
      const nodes = await withRuntime(out, ({ services, caller }) => services.nodes.list(caller));
      out.result(nodes, drawNodes);
    });
  const pool = node
    .command("pool")
    .description("map the tenant's plugins to shared pools with a node selector");
  pool
    .command("list")
    .description("list the tenant's plugins mapped to shared pools")
    .action(async () => {
      const pools = await withRuntime(out, ({ services, caller }) => services.nodes.pools(caller));
      out.result(pools, drawPools);
    });
  pool
    .command("set")
    .description(
      "run a plugin's next jobs on a shared pool: the nodes started with --pool NAME and the labels",
    )
    .argument("<plugin>", "the installed plugin")
    .argument("<pool>", "the shared pool")
    .option(
      "--labels <a,b>",
      "labels the pool's nodes must have, beside those the plugin requires",
      labelList,
    )
    .action(async (plugin: string, name: string, options: { labels?: string[] }) => {
      const mapped = await withRuntime(out, ({ services, caller }) =>
        services.nodes.setPool(caller, { plugin, pool: name, labels: options.labels }),
      );
      out.result(mapped, (entry) => `plugin ${entry.plugin} runs on ${entry.queue} from its next job`);
    });
  pool
    .command("remove")
    .description("take a plugin back to its own pool, pool.<plugin>")
    .argument("<plugin>", "the plugin")
    .action(async (plugin: string) => {
      await withRuntime(out, ({ services, caller }) => services.nodes.removePool(caller, plugin));
      out.result({ plugin, pool: null }, () => `plugin ${plugin} runs on its own pool from its next job`);
    });
  node
    .command("run", { isDefault: true })
    .description(
      "run a worker node in the foreground: it takes queued jobs of its queues and runs them until SIGTERM",
    )
    .option(
      "--labels <a,b>",
      "the node's labels: it runs jobs whose required labels are all among them",
      labelList,
    )
    .option(
      "--pool <name>",
      "the shared pool it serves (a tenant maps plugins to it); the plugins' own pools when left out",
    )
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
    .option(
      "--lease <seconds>",
      "how long its claim holds a job without a write: a job of a node that died is taken over after this (default 15)",
      numberOption({ min: 0.1, what: "seconds a lease lasts", example: "15" }),
    )
    .action(async (options: NodeOptions, command: Command) => {
      // A worker serves the whole store unless told which tenant: --tenant's default is no choice.
      const tenant = tenantGiven(command) ? out.options.tenant : undefined;
      await withLocalRuntime(
        out,
        async ({ runtime }) => {
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
            ...(options.labels === undefined ? {} : { labels: options.labels }),
            ...(options.pool === undefined ? {} : { pool: options.pool }),
            onClaimed: (job) => say("claimed", job),
            onStopped: (job) => say("stopped", job),
            onError: (error) =>
              out.stderr(`oz0: worker: ${error instanceof Error ? error.message : String(error)}\n`),
          });
          // How strongly tools' processes are kept apart here (docs/security.md#the-tool-runtime).
          const { processIsolation } = await import("@oz0/runtime");
          const isolation = processIsolation();
          if (out.json) out.writeJson({ event: "isolation", mode: isolation.mode, reason: isolation.reason });
          else out.stdout(`tool processes: ${isolation.mode} · ${isolation.reason}\n`);
          // Every worker runs the routine scheduler too: each tick fires once however many run it.
          const routines = runtime.routines.scheduler({
            ...(tenant === undefined ? {} : { tenant }),
            onFired: ({ routine, result }) => {
              const job = result.outcome === "started" ? result.job.id : null;
              if (out.json) out.writeJson({ event: "routine", routine, outcome: result.outcome, job });
              else
                out.stdout(`routine ${routine} · ${result.outcome}${job === null ? "" : ` · job ${job}`}\n`);
            },
            onError: (error) =>
              out.stderr(`oz0: routines: ${error instanceof Error ? error.message : String(error)}\n`),
          });
          // Plugins' runtimes run where jobs do: each in one live node cluster-wide (docs/deploy.md).
          const leaseMs = options.lease === undefined ? undefined : Math.round(options.lease * 1000);
          const runtimes = runtime.pluginRuntimes.host({
            node: worker.id,
            ...(tenant === undefined ? {} : { tenant }),
            ...(leaseMs === undefined ? {} : { leaseMs, pollMs: Math.max(100, Math.floor(leaseMs / 3)) }),
            onError: (error) =>
              out.stderr(`oz0: plugin runtimes: ${error instanceof Error ? error.message : String(error)}\n`),
          });
          // And drains the channels' outbox (their listeners are runtimes of the host above).
          const channels = runtime.channelDrainer({
            tenant,
            onError: (error) =>
              out.stderr(`oz0: channels: ${error instanceof Error ? error.message : String(error)}\n`),
          });
          const stop = new AbortController();
          const onSignal = () => stop.abort();
          process.once("SIGTERM", onSignal);
          process.once("SIGINT", onSignal);
          try {
            await worker.start();
            routines.start();
            runtimes.start();
            channels.start();
            if (out.json)
              out.writeJson({
                event: "started",
                worker: worker.id,
                concurrency: worker.concurrency,
                tenant: tenant ?? null,
                labels: worker.serves.labels,
                pool: worker.serves.pool,
              });
            else
              out.stderr(
                `node ${worker.id} · ${tenant === undefined ? "every tenant" : `tenant ${tenant}`} · ` +
                  `${worker.serves.pool === null ? "the plugins' own pools" : `pool ${worker.serves.pool}`}` +
                  `${worker.serves.labels.length === 0 ? "" : ` · labels ${worker.serves.labels.join(",")}`} · ` +
                  `${worker.concurrency} at once · SIGTERM drains it\n`,
              );
            if (!stop.signal.aborted) await once(stop.signal, "abort");
            if (!out.json)
              out.stderr(`node ${worker.id} draining: ${worker.inFlight.length} job(s) in flight\n`);
            await channels.stop();
            await routines.stop();
            await runtimes.stop();
            await worker.drain();
            if (out.json) out.writeJson({ event: "drained", worker: worker.id });
            else out.stderr(`node ${worker.id} stopped\n`);
          } finally {
            process.off("SIGTERM", onSignal);
            process.off("SIGINT", onSignal);
          }
        },
        options.lease === undefined ? {} : { leaseMs: Math.round(options.lease * 1000) },
      );
    });
  return node;
}

function labelList(text: string): string[] {
  return text
    .split(",")
    .map((label) => label.trim())
    .filter((label) => label !== "");
}

function drawNodes(nodes: readonly NodeView[]): string {
  if (nodes.length === 0) return "no nodes";
  return nodes
    .map((entry) =>
      [
        entry.id,
        entry.state,
        `${entry.host}:${entry.pid}`,
        `oz0 ${entry.version} (format ${entry.format})`,
        entry.pool === null ? "own pools" : `pool ${entry.pool}`,
        entry.labels.length === 0 ? "no labels" : `labels ${entry.labels.join(",")}`,
        `${entry.concurrency} at once`,
        entry.tenant === null ? "every tenant" : `tenant ${entry.tenant}`,
        `${entry.state === "live" ? "until" : "since"} ${new Date(entry.until).toISOString()}`,
      ].join(" · "),
    )
    .join("\n");
}

function drawPools(pools: readonly PoolMapping[]): string {
  if (pools.length === 0) return "no plugin is mapped to a shared pool; each runs on pool.<plugin>";
  return pools.map((entry) => `${entry.plugin} → ${entry.queue} (set by ${entry.createdBy})`).join("\n");
}

/** Whether --tenant was given on the command line, rather than left at its default. */
function tenantGiven(command: Command): boolean {
  let root = command;
  while (root.parent !== null) root = root.parent;
  return root.getOptionValueSource("tenant") === "cli";
}
