// Tenant governance as callers see it: tool policy rules, the calls held for approval, kill
// switches and the inventory. Reads are a viewer's; deciding an approval an approver's; setting
// rules, switches and inventory an operator's. Approvals, switches and inventory entries of
// agents outside the caller's scope are answered as missing, and left out of lists.
import { Oz0Error } from "@oz0/sdk";
import type { Caller } from "../callers/index.js";
import type { ApprovalDecision, ApprovalFilter, DecisionReport } from "../jobs/index.js";
import type {
  ApprovalView,
  InventoryEntry,
  KillReport,
  KillSwitchView,
  PolicyChange,
  PolicyRuleView,
} from "../policy/index.js";
import { type ServiceCore, scoped, visibleAgents } from "./core.js";

export type PolicyAction = "allow" | "ask" | "deny";
export type SwitchKind = "agent" | "tool";

export class PolicyService {
  readonly #core: ServiceCore;

  constructor(core: ServiceCore) {
    this.#core = core;
  }

  async list(caller: Caller): Promise<PolicyRuleView[]> {
    return this.#core.deps.policy.list(this.#core.check(caller, "policy.list"));
  }

  async set(caller: Caller, action: PolicyAction, pattern: string): Promise<PolicyChange> {
    return this.#core.change(caller, "policy.set", pattern, (tenant) =>
      this.#core.deps.policy.set(tenant, action, pattern),
    );
  }

  async remove(caller: Caller, pattern: string): Promise<PolicyRuleView> {
    return this.#core.change(caller, "policy.remove", pattern, (tenant) =>
      this.#core.deps.policy.remove(tenant, pattern),
    );
  }
}

export class ApprovalsService {
  readonly #core: ServiceCore;

  constructor(core: ServiceCore) {
    this.#core = core;
  }

  /** The tenant's approvals (pending by default), leaving out those of jobs outside the caller's scope. */
  async list(caller: Caller, filter: ApprovalFilter = {}): Promise<ApprovalView[]> {
    const tenant = this.#core.check(caller, "approvals.list");
    const list = await this.#core.deps.approvals.list(tenant, filter);
    if (!scoped(caller)) return list;
    const seen = new Map<string, boolean>();
    const shown: ApprovalView[] = [];
    for (const approval of list) {
      if (!seen.has(approval.job)) seen.set(approval.job, await this.#jobInScope(caller, approval.job));
      if (seen.get(approval.job) === true) shown.push(approval);
    }
    return shown;
  }

  /** One approval; one of a job outside the caller's scope is answered as missing. */
  async get(caller: Caller, id: string): Promise<ApprovalView> {
    const tenant = this.#core.check(caller, "approvals.get");
    const found = await this.#core.deps.approvals.get(tenant, id);
    if (scoped(caller) && !(await this.#jobInScope(caller, found.job))) throw approvalNotFound(tenant, id);
    return found;
  }

  async approve(caller: Caller, id: string, reason?: string): Promise<DecisionReport> {
    return this.decide(caller, id, "approve", reason);
  }

  async deny(caller: Caller, id: string, reason?: string): Promise<DecisionReport> {
    return this.decide(caller, id, "deny", reason);
  }

  /** Records the caller's decision on approval `id`; see `Approvals.decide`. */
  async decide(
    caller: Caller,
    id: string,
    decision: ApprovalDecision,
    reason?: string,
  ): Promise<DecisionReport> {
    const action = decision === "approve" ? "approvals.approve" : "approvals.deny";
    return this.#core.change(caller, action, id, async (tenant) => {
      const { approvals } = this.#core.deps;
      if (scoped(caller)) {
        const found = await approvals.get(tenant, id);
        if (!(await this.#jobInScope(caller, found.job))) throw approvalNotFound(tenant, id);
      }
      return approvals.decide(tenant, id, decision, caller.actor, reason);
    });
  }

  async #jobInScope(caller: Caller, job: string): Promise<boolean> {
    try {
      await this.#core.job(caller, job);
      return true;
    } catch {
      return false;
    }
  }
}

/** Approvals' own answer for an ID the tenant has no approval of. */
function approvalNotFound(tenant: string, id: string): Oz0Error {
  return new Oz0Error(
    "NOT_FOUND",
    `there is no approval ${id} in tenant ${tenant}; oz0 approval list shows the calls waiting for one.`,
    { data: { kind: "approval", name: id, tenant } },
  );
}

export class KillSwitchesService {
  readonly #core: ServiceCore;

  constructor(core: ServiceCore) {
    this.#core = core;
  }

  async list(caller: Caller): Promise<KillSwitchView[]> {
    const tenant = this.#core.check(caller, "killSwitches.list");
    return visibleAgents(this.#core, caller, await this.#core.deps.killSwitches.list(tenant));
  }

  async kill(caller: Caller, kind: SwitchKind, address: string): Promise<KillReport> {
    return this.#core.change(caller, "killSwitches.kill", `${kind} ${address}`, async (tenant) => {
      if (kind === "agent" && scoped(caller)) await this.#core.agent(caller, address, "agent");
      return this.#core.deps.killSwitches.kill(tenant, kind, address, caller.actor);
    });
  }

  async revive(caller: Caller, kind: SwitchKind, address: string): Promise<KillSwitchView> {
    return this.#core.change(caller, "killSwitches.revive", `${kind} ${address}`, async (tenant) => {
      if (kind === "agent" && scoped(caller)) await this.#core.agent(caller, address, "agent");
      return this.#core.deps.killSwitches.revive(tenant, kind, address);
    });
  }
}

export class InventoryService {
  readonly #core: ServiceCore;

  constructor(core: ServiceCore) {
    this.#core = core;
  }

  async list(caller: Caller): Promise<InventoryEntry[]> {
    const tenant = this.#core.check(caller, "inventory.list");
    return visibleAgents(this.#core, caller, await this.#core.deps.inventory.list(tenant));
  }

  async set(
    caller: Caller,
    kind: SwitchKind,
    address: string,
    change: { readonly purpose: string; readonly owner?: string | undefined },
  ): Promise<InventoryEntry> {
    return this.#core.change(caller, "inventory.set", `${kind} ${address}`, async (tenant) => {
      if (kind === "agent" && scoped(caller)) await this.#core.agent(caller, address, "agent");
      return this.#core.deps.inventory.set(tenant, kind, address, change);
    });
  }
}
