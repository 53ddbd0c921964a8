// Tenant governance as callers see it: tool policy rules, the calls held for approval, kill
// switches and the inventory. Reads are a viewer's; deciding an approval an approver's; setting
// rules, switches and inventory an operator's. Approvals, switches and inventory entries of
// agents outside the caller's scope are answered as missing, and left out of lists.
import { Oz0Error, parseFunctionAddress } from "@oz0/sdk";
import type { Caller } from "../callers/index.js";
import type { ApprovalDecision, ApprovalFilter, DecisionReport } from "../jobs/index.js";
import type {
  ApprovalView,
  InventoryEntry,
  KillReport,
  KillSwitchView,
  PolicyChange,
  PolicyDecision,
  PolicyRuleView,
} from "../policy/index.js";
import { type ServiceCore, scoped, visibleAgents } from "./core.js";
import { searchInScope } from "./jobs.js";

export type PolicyAction = "allow" | "ask" | "deny";
export type SwitchKind = "agent" | "tool";

/** How many of the newest jobs, and of their calls, a pattern's preview looks through. */
export const CALL_PREVIEW_LIMITS = { jobs: 200, calls: 2_000, shown: 50, args: 160 } as const;

/** A recorded call a pattern covers, and what the rules decide of it now and with the rule set. */
export interface DecidedCall {
  readonly job: string;
  /** The call's ID in its job's history. */
  readonly callId: string;
  readonly agent: string;
  /** The function's address (`vault/vault.write`, `oz.delegate`). */
  readonly function: string;
  /** The arguments it ran with, as JSON cut to CALL_PREVIEW_LIMITS.args characters. */
  readonly args: string;
  /** When it was called, or asked for (epoch milliseconds). */
  readonly at: number;
  /** Held for a person's approval: asked for, and not run yet. */
  readonly held: boolean;
  /** The rule that decides such a call now; null when none does (the agent's grant decides). */
  readonly now: PolicyDecision | null;
  /** The rule that would decide it with the pattern's rule set. */
  readonly withRule: PolicyDecision | null;
}

/** Which recorded calls a pattern covers, and what a rule on it would decide. */
export interface PatternCalls {
  /** The pattern as it would be stored. */
  readonly pattern: string;
  readonly action: PolicyAction;
  /** What was looked through: the caller's newest jobs, and their newest calls. */
  readonly looked: { readonly jobs: number; readonly calls: number };
  /** The covered calls, newest first, at most CALL_PREVIEW_LIMITS.shown. */
  readonly calls: readonly DecidedCall[];
}

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

  /**
   * The recorded calls `pattern` covers among the newest jobs the caller may see, each with what
   * the rules decide of it now and what they would with `action` set on the pattern. The
   * pattern is checked as `set` checks it; nothing is stored.
   * @example await services.policy.calls(caller, "deny", "vault/vault.*")
   */
  async calls(caller: Caller, action: PolicyAction, pattern: string): Promise<PatternCalls> {
    const tenant = this.#core.check(caller, "policy.calls");
    const whatIf = await this.#core.deps.policy.whatIf(tenant, action, pattern);
    const jobs = await searchInScope(this.#core, caller, { tenant }, CALL_PREVIEW_LIMITS.jobs);
    const agents = new Map(jobs.map((job) => [job.id, job.agent]));
    const events = await this.#core.deps.jobs.jobs.recentEvents(
      jobs.map((job) => job.id),
      ["tool_call", "approval_requested"],
      CALL_PREVIEW_LIMITS.calls,
    );
    // A held call is written as a call once it is decided, after its request: newer, so read too.
    const run = new Set(
      events.flatMap((entry) => (entry.kind === "tool_call" ? [`${entry.job} ${entry.data.callId}`] : [])),
    );
    const calls: DecidedCall[] = [];
    for (const entry of events) {
      if (calls.length >= CALL_PREVIEW_LIMITS.shown) break;
      if (entry.kind !== "tool_call" && entry.kind !== "approval_requested") continue;
      const held = entry.kind === "approval_requested";
      if (held && run.has(`${entry.job} ${entry.data.callId}`)) continue;
      let address: ReturnType<typeof parseFunctionAddress>;
      try {
        address = parseFunctionAddress(entry.data.address);
      } catch {
        // No rule can cover what is not a function's address, so no pattern decides it.
        continue;
      }
      if (!whatIf.covers(address)) continue;
      calls.push({
        job: entry.job,
        callId: entry.data.callId,
        agent: agents.get(entry.job) ?? "",
        function: entry.data.address,
        args: argsSummary(entry.data.args),
        at: entry.at,
        held,
        now: whatIf.now(address) ?? null,
        withRule: whatIf.withRule(address) ?? null,
      });
    }
    const askedThenRun = events.filter(
      (entry) => entry.kind === "approval_requested" && run.has(`${entry.job} ${entry.data.callId}`),
    ).length;
    const looked = { jobs: jobs.length, calls: events.length - askedThenRun };
    return { pattern: whatIf.pattern, action, looked, calls };
  }
}

/** A call's arguments as one line of JSON, cut short with an ellipsis. */
function argsSummary(args: unknown): string {
  const text = args === undefined ? "" : JSON.stringify(args);
  return text.length <= CALL_PREVIEW_LIMITS.args ? text : `${text.slice(0, CALL_PREVIEW_LIMITS.args - 1)}…`;
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
