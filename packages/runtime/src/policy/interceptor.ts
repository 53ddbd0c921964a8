// Tool policy and kill switches on the dispatch path. A job's calls were decided by its loop at
// their step (jobs/gate.ts, where an ask rule can make the job wait), which each such call's
// request says (its origin), and pass here; every other call is decided here: a killed tool and a deny rule refuse it, and so does an ask rule unless
// a person approved this very call (a call by hand, or a flow's, has no step to wait in).
import type { Store } from "../store/index.js";
import { type CallableFunction, type CallInterceptor, type CallRequest, callJob } from "../tools/index.js";
import { approvalMismatch, approvalOfCall } from "./approval-rows.js";
import { type ApprovalSubject, definitionHash } from "./canonical.js";
import {
  approvalMismatchError,
  approvalRequiredError,
  killedToolError,
  policyDeniedError,
} from "./errors.js";
import { governanceOf, type KillRecord, type TenantGovernance } from "./governance.js";
import { callAddress } from "./rules.js";

/**
 * The interceptor that puts the tenant's tool policy and kill switches on the dispatch path.
 * Put it first, so the checks see the arguments the call was asked with.
 */
export function governanceInterceptor(store: Store): CallInterceptor {
  const reader = governanceOf(store);
  return {
    name: "tool-policy",
    async before(request) {
      const { fn, call, context } = request;
      // Decided by the job's loop at its step, as the call itself says.
      if (context.origin.kind === "step") return undefined;
      const governance = await reader.current(call.tenant);
      const killed = killSwitchOf(governance, fn);
      if (killed !== undefined) throw killedToolError(fn.address, killed);
      const decision = governance.policy.decide(callAddress(fn));
      if (decision?.action === "deny") throw policyDeniedError(fn.address, decision.rule);
      if (decision?.action !== "ask") return undefined;
      const job = callJob(context);
      const approval =
        job === undefined ? undefined : await approvalOfCall(store.db, call.tenant, job, call.callId);
      const approved =
        approval?.status === "approved" && approvalMismatch(approval, subjectOf(request)) === undefined;
      if (!approved) throw approvalRequiredError(fn.address, decision.rule);
      return undefined;
    },
    async unavailable(fn, who) {
      const governance = await reader.current(who.tenant);
      const killed = killSwitchOf(governance, fn);
      if (killed !== undefined) return killedToolError(fn.address, killed).message;
      const decision = governance.policy.decide(callAddress(fn));
      return decision?.action === "deny" ? policyDeniedError(fn.address, decision.rule).message : undefined;
    },
  };
}

/**
 * Keeps an approval bound to what runs: a person approved a call with the arguments they saw,
 * so when a pre_tool_call hook rewrote them, the approved call is refused instead of running
 * with arguments nobody approved. An approval binds its call whatever the policy became since,
 * so this reads it whatever the rules say now.
 */
export function approvalBindingInterceptor(store: Store): CallInterceptor {
  return {
    name: "approval-binding",
    afterHooks: true,
    async before(request) {
      const { fn, call, context } = request;
      const job = callJob(context);
      if (job === undefined) return undefined;
      // A job's loop asks for a call's approval in the write that records the question, and
      // read it at this step when the history holds one: a call it let through without one has
      // none to read.
      if (context.origin.kind === "step" && context.origin.decision.approval === undefined) return undefined;
      const approval = await approvalOfCall(store.db, call.tenant, job, call.callId);
      if (approval?.status !== "approved") return undefined;
      const mismatch = approvalMismatch(approval, subjectOf(request));
      if (mismatch !== undefined) {
        throw approvalMismatchError(
          approval.id,
          fn.address,
          `a pre_tool_call hook changed it after approval (${mismatch})`,
        );
      }
      return undefined;
    },
  };
}

/** The kill switch on `fn`'s tool, if one is pulled; built-ins have none. */
function killSwitchOf(governance: TenantGovernance, fn: CallableFunction): KillRecord | undefined {
  return fn.plugin === undefined ? undefined : governance.tools.get(`${fn.plugin}/${fn.tool}`);
}

/** What an approval of this call must match: who calls what, with which arguments and definition. */
function subjectOf({ fn, args, call, context }: CallRequest): ApprovalSubject {
  return {
    tenant: call.tenant,
    job: callJob(context) ?? "",
    callId: call.callId,
    agent: call.agent ?? "",
    address: fn.address,
    args,
    definition: definitionHash(fn),
  };
}
