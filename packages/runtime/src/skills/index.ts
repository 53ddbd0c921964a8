// Skills beyond reading them (which jobs/ does with oz.skill): the proposals an agent with
// skills.propose records for a person to review, and approving one as a pull request.
export {
  DEFAULT_PROPOSAL_BASE,
  type ProposalSource,
  type ProposalView,
  type ProposeSettings,
  proposalRecorder,
  SkillProposals,
  type SkillProposalsOptions,
  skillFile,
} from "./proposals.js";
