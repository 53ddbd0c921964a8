// `oz0 routine list|fire|pause|resume|history|add|remove|secret`: a tenant's routines, its
// plugins' and its own. Each subcommand parses, calls the runtime's routines service as the
// local admin, and draws; `oz0 worker` runs the scheduler that fires them.
import type { FireView, RoutineView } from "@oz0/runtime";
import type { RoutineInput } from "@oz0/sdk";
import type { Command } from "commander";
import { withRuntime } from "../context.js";
import { numberOption } from "../options.js";
import type { Output } from "../output.js";
import { table } from "./plugin.js";

interface AddOptions {
  run: string;
  schedule?: string;
  event?: string;
  timezone?: string;
  missed?: "skip" | "catch_up_last";
  overlap?: "skip" | "queue" | "allow";
  input?: string;
  description?: string;
  role?: "runner" | "approver" | "operator" | "admin";
  agents?: string;
  tools?: string;
  maxTurns?: number;
  maxTokens?: number;
  wallSeconds?: number;
  maxCostUsd?: number;
}

export function registerRoutine(program: Command, out: Output): void {
  const routine = program
    .command("routine")
    .description("the tenant's routines: schedules and events that start jobs (oz0 worker fires them)");

  routine
    .command("list")
    .description("list the tenant's routines: trigger, target, policies, next tick, last fire")
    .action(async () => {
      const { list, workers } = await withRuntime(out, async ({ services, caller }) => ({
        list: await services.routines.list(caller),
        workers: await services.jobs.liveWorkers(caller),
      }));
      out.result(list, (routines) => drawList(out.options.tenant, routines));
      // A routine fires only while a worker runs: say so rather than let it look armed.
      if (workers === 0 && list.length > 0 && !out.json) {
        out.stderr("oz0: no worker is running on this store; routines fire only while oz0 worker runs\n");
      }
    });

  routine
    .command("fire")
    .description("fire a routine now; its job runs as the routine's identity")
    .argument("<name>", "the routine: <plugin>/<name>, or a tenant routine's name")
    .option("--input <text>", "the job's input instead of the routine's")
    .action(async (name: string, options: { input?: string }) => {
      const fired = await withRuntime(out, async ({ services, caller }) =>
        services.routines.fire(caller, name, options.input === undefined ? {} : { input: options.input }),
      );
      out.result(fired, drawFire);
    });

  for (const [verb, paused] of [
    ["pause", true],
    ["resume", false],
  ] as const) {
    routine
      .command(verb)
      .description(
        paused
          ? "stop a routine firing until resumed"
          : "let a paused routine fire again, from its next tick",
      )
      .argument("<name>", "the routine")
      .action(async (name: string) => {
        const view = await withRuntime(out, async ({ services, caller }) =>
          paused ? services.routines.pause(caller, name) : services.routines.resume(caller, name),
        );
        out.result(view, (one) => `routine ${one.name} ${one.paused ? "paused" : "resumed"}`);
      });
  }

  routine
    .command("history")
    .description("a routine's fires, newest first: started, queued, skipped, missed or failed")
    .argument("<name>", "the routine")
    .option(
      "--limit <n>",
      "how many fires (default 20)",
      numberOption({ whole: true, min: 1, what: "how many fires to show", example: "20" }),
    )
    .action(async (name: string, options: { limit?: number }) => {
      const fires = await withRuntime(out, async ({ services, caller }) =>
        services.routines.history(caller, name, options.limit === undefined ? {} : { limit: options.limit }),
      );
      out.result(fires, (list) => drawHistory(name, list));
    });

  routine
    .command("add")
    .description("add a routine of the tenant's own, checked as install checks a manifest's")
    .argument("<name>", "the routine's name")
    .requiredOption("--run <address>", "the agent or flow it starts: <plugin>/<name>")
    .option("--schedule <cron>", 'cron, 5 fields or 6 with seconds first ("0 */5 * * * *")')
    .option("--event <event>", "webhook, or job.ended:<plugin>/<agent>")
    .option("--timezone <zone>", "the IANA time zone the schedule is read in (default UTC)")
    .option("--missed <policy>", "skip or catch_up_last: a tick no worker reached in time")
    .option("--overlap <policy>", "skip, queue or allow: a fire while the previous job runs")
    .option("--input <text>", "the input of each job")
    .option("--description <text>", "what the routine does")
    .option("--role <role>", "the role its jobs run as: runner (default), approver, operator, admin")
    .option("--agents <list>", "the agents in its identity's scope, comma-separated (default: --run)")
    .option("--tools <list>", "the functions its jobs may call, a subset of the agent's, comma-separated")
    .option(
      "--max-turns <n>",
      "model calls per job",
      numberOption({ whole: true, min: 1, what: "model calls", example: "10" }),
    )
    .option(
      "--max-tokens <n>",
      "tokens per job",
      numberOption({ whole: true, min: 1, what: "tokens", example: "20000" }),
    )
    .option(
      "--wall-seconds <n>",
      "seconds per job",
      numberOption({ whole: true, min: 1, what: "seconds", example: "300" }),
    )
    .option(
      "--max-cost-usd <usd>",
      "US dollars per job",
      numberOption({ min: 0, what: "US dollars", example: "0.5" }),
    )
    .action(async (name: string, options: AddOptions) => {
      const view = await withRuntime(out, async ({ services, caller }) =>
        services.routines.add(caller, routineFrom(name, options)),
      );
      out.result(view, (one) => `routine ${one.name} added: ${trigger(one)} → ${one.run}`);
    });

  routine
    .command("remove")
    .description("remove a routine of the tenant's own (a plugin's goes with its plugin)")
    .argument("<name>", "the routine")
    .action(async (name: string) => {
      const removed = await withRuntime(out, async ({ services, caller }) =>
        services.routines.remove(caller, name),
      );
      out.result(removed, (report) => `routine ${report.removed} removed`);
    });

  routine
    .command("secret")
    .description("make a webhook routine's signing secret anew; it is shown this once")
    .argument("<name>", "the routine (event: webhook)")
    .action(async (name: string) => {
      const made = await withRuntime(out, async ({ services, caller }) =>
        services.routines.secret(caller, name),
      );
      out.result(
        made,
        (one) =>
          `${one.secret}\nthe signing secret of routine ${one.routine}, shown this once; the previous one no longer works.\n` +
          "Sign each request: X-Oz0-Timestamp: <unix seconds>, X-Oz0-Signature: sha256=HMAC-SHA256(secret, <timestamp>.<body>)",
      );
    });
}

function routineFrom(name: string, options: AddOptions): RoutineInput {
  const list = (text: string | undefined) =>
    text === undefined
      ? undefined
      : text
          .split(",")
          .map((item) => item.trim())
          .filter((item) => item !== "");
  const limits = {
    ...(options.maxTurns === undefined ? {} : { max_turns: options.maxTurns }),
    ...(options.maxTokens === undefined ? {} : { max_tokens: options.maxTokens }),
    ...(options.wallSeconds === undefined ? {} : { wall_seconds: options.wallSeconds }),
    ...(options.maxCostUsd === undefined ? {} : { max_cost_usd: options.maxCostUsd }),
  };
  const agents = list(options.agents);
  const tools = list(options.tools);
  return {
    name,
    run: options.run,
    ...(options.description === undefined ? {} : { description: options.description }),
    ...(options.schedule === undefined ? {} : { schedule: options.schedule }),
    ...(options.event === undefined ? {} : { event: options.event }),
    ...(options.timezone === undefined ? {} : { timezone: options.timezone }),
    ...(options.missed === undefined ? {} : { missed: options.missed }),
    ...(options.overlap === undefined ? {} : { overlap: options.overlap }),
    ...(options.input === undefined ? {} : { input: options.input }),
    ...(options.role === undefined && agents === undefined
      ? {}
      : {
          identity: {
            ...(options.role === undefined ? {} : { role: options.role }),
            ...(agents === undefined ? {} : { agents }),
          },
        }),
    ...(tools === undefined ? {} : { tools }),
    ...(Object.keys(limits).length === 0 ? {} : { limits }),
  };
}

function trigger(view: RoutineView): string {
  return view.schedule === null ? `on ${view.event ?? "?"}` : `${view.schedule} (${view.timezone ?? "UTC"})`;
}

function drawList(tenant: string, routines: readonly RoutineView[]): string {
  if (routines.length === 0)
    return `tenant ${tenant} has no routine (a plugin's routines:, or oz0 routine add)`;
  return table([
    ["NAME", "TRIGGER", "RUN", "AS", "OVERLAP", "STATE", "NEXT", "LAST"],
    ...routines.map((one) => [
      one.name,
      trigger(one),
      one.run,
      `${one.identity.role}`,
      one.overlap,
      one.paused ? "paused" : one.secret === false ? "no secret" : "active",
      one.next ?? "",
      one.last === null ? "" : `${one.last.outcome} ${one.last.at}`,
    ]),
  ]);
}

function drawFire(fire: FireView): string {
  if (fire.outcome === "started") return `routine ${fire.routine} fired: job ${fire.job}`;
  return `routine ${fire.routine} did not start a job (${fire.outcome}): ${fire.detail ?? ""}`;
}

function drawHistory(name: string, fires: readonly FireView[]): string {
  if (fires.length === 0) return `routine ${name} has not fired yet`;
  return table([
    ["AT", "CAUSE", "OUTCOME", "TICK", "JOB", "DETAIL"],
    ...fires.map((fire) => [
      fire.at,
      fire.cause,
      fire.outcome,
      fire.tick ?? "",
      fire.job ?? "",
      fire.detail ?? "",
    ]),
  ]);
}
