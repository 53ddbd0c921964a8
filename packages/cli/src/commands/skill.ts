// `oz0 skill proposals|proposal|approve|reject`: the skills agents proposed with
// oz.propose_skill (skills.propose). A person reads a proposal and its patch, then approves it,
// which opens the pull request through the agent's apply function, or rejects it.
import type { ProposalStatus, ProposalView, ShownProposal } from "@oz0/runtime";
import { type Command, Option } from "commander";
import { withRuntime } from "../context.js";
import { allOf } from "../options.js";
import type { Output } from "../output.js";
import { table } from "./plugin.js";

/** The runtime's PROPOSAL_STATUSES. */
const PROPOSAL_STATUSES = allOf<ProposalStatus>()(["pending", "approved", "rejected"]);

export function registerSkill(program: Command, out: Output): Command {
  const skill = program.command("skill").description("review the skills agents propose (skills.propose)");

  skill
    .command("proposals")
    .description("list the skill proposals of the tenant, newest first")
    .addOption(new Option("--status <status>", "only proposals in this status").choices(PROPOSAL_STATUSES))
    .action(async (options: { status?: ProposalStatus }) => {
      const list = await withRuntime(out, ({ services, caller }) =>
        services.skills.proposals(caller, { status: options.status }),
      );
      out.result(list, drawList);
    });

  skill
    .command("proposal")
    .description("show one proposal: the skill, why, and the patch approving it would send")
    .argument("<id>", "the proposal's ID (sp-…)")
    .action(async (id: string) => {
      const shown = await withRuntime(out, ({ services, caller }) => services.skills.proposal(caller, id));
      out.result(shown, drawProposal);
    });

  skill
    .command("approve")
    .description("approve a proposal: open its pull request through the agent's apply function")
    .argument("<id>", "the proposal's ID (sp-…)")
    .option("--base <branch>", "the branch the pull request goes to", "main")
    .option("--draft", "open the pull request as a draft")
    .action(async (id: string, options: { base: string; draft?: boolean }) => {
      const approved = await withRuntime(out, ({ services, caller }) =>
        services.skills.approve(caller, id, {
          base: options.base,
          draft: options.draft === true,
        }),
      );
      out.result(
        approved,
        ({ proposal, address, result }) =>
          `proposal ${proposal.id} approved by ${proposal.decidedBy}; ${address} opened the pull request on ${proposal.repository}:\n${JSON.stringify(result, null, 2)}`,
      );
    });

  skill
    .command("reject")
    .description("reject a proposal; nothing is sent anywhere")
    .argument("<id>", "the proposal's ID (sp-…)")
    .option("--reason <text>", "why, for the record")
    .action(async (id: string, options: { reason?: string }) => {
      const rejected = await withRuntime(out, ({ services, caller }) =>
        services.skills.reject(caller, id, options.reason),
      );
      out.result(rejected, (proposal) => `proposal ${proposal.id} rejected by ${proposal.decidedBy}`);
    });

  return skill;
}

function drawList(list: readonly ProposalView[]): string {
  if (list.length === 0) return "no skill proposals";
  return table([
    ["ID", "STATUS", "SKILL", "AGENT", "TITLE"],
    ...list.map((proposal) => [
      proposal.id,
      proposal.status,
      `${proposal.into}/${proposal.skill}`,
      proposal.agent,
      proposal.title,
    ]),
  ]);
}

function drawProposal(proposal: ShownProposal): string {
  const lines = [
    `proposal ${proposal.id} · ${proposal.status}${proposal.decidedBy === null ? "" : ` by ${proposal.decidedBy}`}`,
    `  skill    ${proposal.into}/${proposal.skill}: ${proposal.description}`,
    `  title    ${proposal.title}`,
    `  from     ${proposal.agent} in job ${proposal.job}`,
    `  opens    a pull request on ${proposal.repository} through ${proposal.apply}`,
  ];
  if (proposal.why !== null) lines.push(`  why      ${proposal.why}`);
  if (proposal.reason !== null) lines.push(`  reason   ${proposal.reason}`);
  lines.push("", proposal.patch === "" ? `(no change to ${proposal.path})` : proposal.patch.trimEnd());
  return lines.join("\n");
}
