// Skill proposals agents made (skills.propose): read by a viewer, approved (which opens the
// pull request through the agent's apply function) or rejected by an approver. A proposal of an
// agent outside the caller's scope is answered as missing, and left out of lists.
import { Oz0Error } from "@oz0/sdk";
import type { Caller } from "../callers/index.js";
import type { ProposalView } from "../skills/index.js";
import type { ProposalStatus } from "../store/index.js";
import { inScope, type ServiceCore } from "./core.js";

export interface ShownProposal extends ProposalView {
  readonly path: string;
  readonly patch: string;
}

export class SkillsService {
  readonly #core: ServiceCore;

  constructor(core: ServiceCore) {
    this.#core = core;
  }

  async proposals(
    caller: Caller,
    options: { readonly status?: ProposalStatus | undefined } = {},
  ): Promise<ProposalView[]> {
    const tenant = this.#core.check(caller, "skills.proposals");
    const list = await this.#core.deps.proposals.list(
      tenant,
      options.status === undefined ? {} : { status: options.status },
    );
    return list.filter((proposal) => inScope(caller, { address: proposal.agent }));
  }

  /** One proposal with the patch approving it would send. */
  async proposal(caller: Caller, id: string): Promise<ShownProposal> {
    const tenant = this.#core.check(caller, "skills.proposal");
    const found = await this.#visible(caller, id);
    return { ...found, ...(await this.#core.deps.proposals.patch(tenant, id)) };
  }

  async approve(
    caller: Caller,
    id: string,
    options: { readonly base: string; readonly draft: boolean },
  ): ReturnType<ServiceCore["deps"]["proposals"]["approve"]> {
    return this.#core.change(caller, "skills.approve", id, async (tenant) => {
      await this.#visible(caller, id);
      return this.#core.deps.proposals.approve(tenant, id, caller.actor, options);
    });
  }

  async reject(caller: Caller, id: string, reason?: string): Promise<ProposalView> {
    return this.#core.change(caller, "skills.reject", id, async (tenant) => {
      await this.#visible(caller, id);
      return this.#core.deps.proposals.reject(tenant, id, caller.actor, reason);
    });
  }

  async #visible(caller: Caller, id: string): Promise<ProposalView> {
    const found = await this.#core.deps.proposals.get(caller.tenant, id);
    if (inScope(caller, { address: found.agent })) return found;
    throw new Oz0Error(
      "NOT_FOUND",
      `there is no skill proposal ${id} in tenant ${caller.tenant}; oz0 skill proposals lists them.`,
      { data: { kind: "skill proposal", name: id, tenant: caller.tenant } },
    );
  }
}
