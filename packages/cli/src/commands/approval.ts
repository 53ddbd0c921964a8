// `oz0 approval list` and `oz0 approval approve|deny <id> [--reason TEXT]`: the calls an ask
// rule holds, each with its job, agent, function by address and arguments. A decision then runs
// the job on here, as `oz0 job answer` does (unless --no-wait).
import type { ApprovalView, DecisionReport } from "@oz0/runtime";
import type { Command } from "commander";
import { withRuntime } from "../context.js";
import type { Output } from "../output.js";
import { finishRun, withProgress } from "./job.js";
import { table } from "./plugin.js";

export function registerApproval(program: Command, out: Output): Command {
  const approval = program
    .command("approval")
    .description("the calls waiting for a person's approval (tool policy ask rules)");

  approval
    .command("list")
    .description("list the pending calls: job, agent, function and arguments, oldest first")
    .option("--all", "every approval, decided ones too")
    .action(async (options: { all?: boolean }) => {
      const list = await withRuntime(out, ({ services, caller }) =>
        services.approvals.list(caller, options.all === true ? { status: "all" } : {}),
      );
      out.result(list, (approvals) => drawList(approvals, options.all === true));
    });

  for (const decision of ["approve", "deny"] as const) {
    approval
      .command(decision)
      .description(
        decision === "approve"
          ? "approve the call: it runs once, then the job goes on"
          : "deny the call: it never runs, and the model is told it was denied",
      )
      .argument("<id>", "the approval's ID (apr-…), as oz0 approval list shows it")
      .option("--reason <text>", "why, for the record (the model reads it for a denied call)")
      .option("--no-wait", "decide and return; the job is queued for a worker")
      .action(async (id: string, options: { reason?: string; wait: boolean }) => {
        let report: DecisionReport | undefined;
        const view = await withRuntime(out, async ({ services, caller }) => {
          report = await services.approvals.decide(caller, id, decision, options.reason);
          const job = report.approval.job;
          if (!options.wait || !report.queued) return undefined;
          return (await withProgress(out, (listeners) => services.jobs.runOn(caller, job, listeners))).view;
        });
        if (view !== undefined) {
          await finishRun(out, view);
          return;
        }
        if (report !== undefined) out.result(report, drawDecision);
      });
  }

  return approval;
}

function drawDecision(report: DecisionReport): string {
  const { approval } = report;
  const what = `approval ${approval.id} (${approval.address} in job ${approval.job})`;
  if (!report.changed)
    return `${what} was already ${approval.status} by ${approval.decidedBy}; nothing changed`;
  const then = report.queued
    ? "; the job is queued to go on"
    : "; the job takes it up when it reaches the call";
  return `${what} ${approval.status} by ${approval.decidedBy}${then}`;
}

function drawList(approvals: readonly ApprovalView[], all: boolean): string {
  if (approvals.length === 0) return all ? "no approvals" : "no calls are waiting for approval";
  return table([
    all
      ? ["ID", "STATUS", "JOB", "AGENT", "FUNCTION", "ARGUMENTS"]
      : ["ID", "JOB", "AGENT", "FUNCTION", "ARGUMENTS"],
    ...approvals.map((one) => {
      const row = [one.id, one.job, one.agent, one.address, short(JSON.stringify(one.args) ?? "null", 100)];
      return all ? [row[0]!, one.status, ...row.slice(1)] : row;
    }),
  ]);
}

function short(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
