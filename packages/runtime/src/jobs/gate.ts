// Tool policy, approvals and kill switches inside a job's loop. The loop calls `governStep`
// before each step (one read of the tenant's governance version; a killed agent's job ends
// there) and `governCall` before each call: a killed tool or a deny rule refuses the call and
// the model is told; an ask rule holds it until a person decides, with the job `waiting` in the
// store; an approved call goes on to the dispatch path, checked again against the policy and
// switches of that very step.
import type { Oz0Error } from "@oz0/sdk";
import type { Transaction } from "kysely";
import { type CallDecider, event, type NewEvent } from "../events/index.js";
import {
  type ApprovalRequest,
  approvalBinding,
  approvalDeniedError,
  approvalMismatch,
  approvalMismatchError,
  approvalOfCall,
  approvalRequiredError,
  callAddress,
  canonicalJson,
  definitionHash,
  governanceOf,
  insertApprovals,
  type KillRecord,
  killedAgentError,
  killedDelegateError,
  killedToolError,
  newApprovalId,
  noteApproval,
  parseRequest,
  policyDeniedError,
  type TenantGovernance,
} from "../policy/index.js";
import type { ApprovalRow, Database } from "../store/index.js";
import { argumentIssues, type CallableFunction, type StepDecision } from "../tools/index.js";
import { JOB_CONTROL_BUILTINS } from "./builtins.js";
import type { PendingCall } from "./history.js";
import type { JobRun } from "./job-run.js";
import { moveJob } from "./status.js";

/** The governance each run read at its current step. */
const stepGovernance = new WeakMap<JobRun, TenantGovernance>();

/**
 * The call goes on, decided: the decision goes with the call's own request (its origin), so the
 * dispatch path's interceptor passes it without deciding again, and decides every other call.
 */
function letThrough(decided?: CallDecider): Proceed {
  const decision: StepDecision =
    decided?.approval === undefined ? { allowed: true } : { allowed: true, approval: decided.approval };
  return decided === undefined ? { decision } : { decision, decided };
}

/**
 * The governance for the run's step. The last write read the version in its own statement,
 * with nothing run since that could change it: the step goes by that, and reads the version
 * itself only otherwise. A version compiled already is taken as it is, with no await: the step
 * is at the same point of the loop either way.
 */
function refresh(run: JobRun): TenantGovernance | Promise<TenantGovernance> {
  const version = run.takeGovernanceVersion();
  const reader = governanceOf(run.deps.jobs.store);
  const known = version === undefined ? undefined : reader.known(run.row.tenant, version);
  if (known === undefined) return read(run, reader, version);
  stepGovernance.set(run, known);
  return known;
}

async function read(
  run: JobRun,
  reader: ReturnType<typeof governanceOf>,
  version: number | undefined,
): Promise<TenantGovernance> {
  const governance =
    version === undefined ? await reader.current(run.row.tenant) : await reader.at(run.row.tenant, version);
  stepGovernance.set(run, governance);
  return governance;
}

/**
 * Reads the tenant's governance for the step about to be taken; ends the job with the platform
 * failure kind `killed` when its agent's kill switch is on. True when the job ended.
 */
export function governStep(run: JobRun): boolean | Promise<boolean> {
  const governance = refresh(run);
  return governance instanceof Promise
    ? governance.then((read) => killedAgent(run, read))
    : killedAgent(run, governance);
}

function killedAgent(run: JobRun, governance: TenantGovernance): false | Promise<true> {
  const killed = governance.agents.get(run.address);
  return killed === undefined ? false : endKilled(run, killed);
}

async function endKilled(run: JobRun, killed: KillRecord): Promise<true> {
  const error = killedAgentError(killed);
  await run.hooks?.bus.fire("on_kill_switch", {
    switch: { kind: "agent", address: killed.address },
    reason: error.message,
  });
  await run.fail({ kind: "killed", message: error.message, code: error.code });
  return true;
}

/**
 * Whether the call waits for a person before it starts (an ask rule covers it), by the
 * governance of the current step: the model step then leaves its `tool_call` to the tool step.
 */
export function waitsForApproval(run: JobRun, fn: CallableFunction): boolean {
  const governance = stepGovernance.get(run);
  return governance !== undefined && askDecision(governance, fn)?.action === "ask";
}

/**
 * The tenant's policy for calling `fn`, where a function that always asks (a harness tool kind
 * the agent's `requires_approval` lists) asks whatever the policy allows; a deny rule still wins.
 */
function askDecision(governance: TenantGovernance, fn: CallableFunction) {
  const decision = governance.policy.decide(callAddress(fn));
  if (fn.requiresApproval === undefined || decision?.action === "deny") return decision;
  return { action: "ask", rule: fn.requiresApproval } as const;
}

/** A call the gate lets through, and the approval that let it, if a person was asked. */
export interface Proceed {
  /** What the call's dispatch carries: it was decided at this step. */
  readonly decision: StepDecision;
  /** Who decided, for the call's `tool_call` (an approval). */
  readonly decided?: CallDecider;
}

/**
 * Decides a pending call before it runs. A `Proceed`: go on to the dispatch path. Otherwise the
 * step's result: false when the call was refused (its result recorded, the model told), true
 * when the job now waits for a person's approval.
 *
 * A call a person was asked about is theirs to decide, whatever the policy became since: a
 * denied call never runs, a pending one waits, an approved one runs, although a deny rule or a
 * kill switch set since (a later decision of a person too) still stops it.
 */
export async function governCall(
  run: JobRun,
  functions: ReadonlyMap<string, CallableFunction>,
  pending: PendingCall,
  fn: CallableFunction,
  args: unknown = pending.call.args,
): Promise<boolean | Proceed> {
  // A job-control call already under way (a child job started, a question asked) was decided
  // when it started; only its outcome is left to take.
  if (pending.started !== undefined && isJobControl(fn)) return letThrough();
  const governance = stepGovernance.get(run) ?? (await refresh(run));
  const { db } = run.deps.jobs.store;
  const approval =
    pending.asked === undefined
      ? undefined
      : await approvalOfCall(db, run.row.tenant, run.row.id, pending.call.id);
  if (approval?.status === "denied") {
    const request = parseRequest(approval);
    const denied = approvalDeniedError({
      approval: approval.id,
      address: request.address,
      by: approval.decided_by ?? "a person",
      reason: approval.reason,
    });
    const decided = { by: "approval", approval: approval.id } as const;
    return refuse(run, { pending, fn, args }, denied, {
      before: decidedEvents(approval),
      also: noteDecision(approval),
      decided,
    });
  }
  const refusal = refusalOf(governance, run, fn, args);
  if (refusal !== undefined) {
    if (approval === undefined) return refuseBy(run, { pending, fn, args }, refusal);
    const decided = { by: refusal.contract, approval: approval.id } as const;
    return refuseBy(run, { pending, fn, args }, refusal, approval, decided);
  }
  if (approval === undefined) {
    const decision = askDecision(governance, fn);
    if (decision?.action !== "ask") return letThrough();
    // A call that cannot run as asked is refused by its schema check; no one is asked about it.
    if (argumentIssues(fn.inputSchema, args).length > 0) return letThrough();
    return requestApprovals(run, governance, functions, { pending, fn, args, rule: decision.rule });
  }
  if (approval.status === "pending") return waitFor(run, approval.id, pending.call.id, []);
  // Nobody decided it and nobody will: the call does not run on it.
  if (approval.status === "withdrawn") {
    const error = approvalRequiredError(fn.address, parseRequest(approval).rule);
    return refuse(run, { pending, fn, args }, error, { also: noteDecision(approval) });
  }
  const decided = { by: "approval", approval: approval.id } as const;
  const mismatch = approvalMismatch(approval, {
    tenant: run.row.tenant,
    job: run.row.id,
    callId: pending.call.id,
    agent: run.address,
    address: fn.address,
    args,
    definition: definitionHash(fn),
  });
  if (mismatch !== undefined) {
    const error = approvalMismatchError(approval.id, fn.address, mismatch);
    return refuse(run, { pending, fn, args }, error, {
      before: decidedEvents(approval),
      also: noteDecision(approval),
      decided,
    });
  }
  if (approval.recorded === 0 || approval.used_at === null) {
    await run.write(decidedEvents(approval), undefined, noteDecision(approval, true));
  }
  return letThrough(decided);
}

/** A refusal by the tenant's governance: the error the model reads, and what refused. */
interface Refusal {
  readonly error: Oz0Error;
  readonly contract: "kill-switch" | "tool-policy";
  readonly details: Readonly<Record<string, unknown>>;
  /** The kill switch that refused, for on_kill_switch. */
  readonly killed?: KillRecord;
}

/** What the governance refuses about calling `fn` with `args`, or undefined. */
function refusalOf(
  governance: TenantGovernance,
  run: JobRun,
  fn: CallableFunction,
  args: unknown,
): Refusal | undefined {
  let killed: KillRecord | undefined;
  if (fn.plugin !== undefined) {
    killed = governance.tools.get(`${fn.plugin}/${fn.tool}`);
    if (killed !== undefined) {
      const error = killedToolError(fn.address, killed);
      return { error, contract: "kill-switch", details: { kind: "tool", address: killed.address }, killed };
    }
  } else if (fn.function === "delegate") {
    const target = delegateTarget(run, args);
    killed = target === undefined ? undefined : governance.agents.get(target);
    if (killed !== undefined) {
      const error = killedDelegateError(killed);
      return { error, contract: "kill-switch", details: { kind: "agent", address: killed.address }, killed };
    }
  }
  const decision = governance.policy.decide(callAddress(fn));
  if (decision?.action !== "deny") return undefined;
  return {
    error: policyDeniedError(fn.address, decision.rule),
    contract: "tool-policy",
    details: { address: fn.address, rule: decision.rule, action: "deny" },
  };
}

/**
 * Refuses a call the governance refuses: a kill switch tells on_kill_switch, and the trace
 * shows the refusal as the hook bus shows a plugin's, `governance_denied` on pre_tool_call.
 */
async function refuseBy(
  run: JobRun,
  held: HeldCall,
  refusal: Refusal,
  approval?: ApprovalRow,
  decided?: CallDecider,
): Promise<false> {
  if (refusal.killed !== undefined) {
    await run.hooks?.bus.fire("on_kill_switch", {
      switch: { kind: refusal.killed.kind, address: refusal.killed.address },
      reason: refusal.error.message,
    });
  }
  const denied = event("governance_denied", {
    hook: "pre_tool_call",
    plugin: "oz0",
    contract_id: refusal.contract,
    reason: refusal.error.message,
    details: refusal.details,
    handler: refusal.contract,
  });
  if (approval === undefined) return refuse(run, held, refusal.error, { before: [denied] });
  // The person's decision is in the history too, so the trace shows what the later rule overrode.
  const before = [...decidedEvents(approval), denied];
  const noted = approval.status === "pending" ? undefined : noteDecision(approval);
  return refuse(run, held, refusal.error, { before, also: noted, decided });
}

/** The agent an oz.delegate call names, by address (a bare name is of the job's own plugin). */
function delegateTarget(run: JobRun, args: unknown): string | undefined {
  const agent = (args as { agent?: unknown } | null)?.agent;
  if (typeof agent !== "string") return undefined;
  return agent.includes("/") ? agent : `${run.row.plugin}/${agent}`;
}

function isJobControl(fn: CallableFunction): boolean {
  return fn.plugin === undefined && JOB_CONTROL_BUILTINS.has(fn.function);
}

/**
 * Asks for a person's approval of every call of the last model reply that an ask rule holds
 * and that has none yet, so the approver sees them together and decides each on its own; the
 * job then waits for the first. The rows and the events are written in one transaction.
 */
async function requestApprovals(
  run: JobRun,
  governance: TenantGovernance,
  functions: ReadonlyMap<string, CallableFunction>,
  first: {
    readonly pending: PendingCall;
    readonly fn: CallableFunction;
    readonly args: unknown;
    readonly rule: string;
  },
): Promise<boolean> {
  const { row } = run;
  const held = [first];
  for (const pending of run.history.pending.values()) {
    const fn = functions.get(pending.call.name);
    if (pending === first.pending || fn === undefined || pending.started !== undefined) continue;
    // oz.call_tool stands for another function: that one is decided when the call's step comes.
    if (fn.plugin === undefined && fn.function === "call_tool") continue;
    const args = pending.call.args;
    if (refusalOf(governance, run, fn, args) !== undefined) continue;
    const decision = askDecision(governance, fn);
    if (decision?.action !== "ask" || argumentIssues(fn.inputSchema, args).length > 0) continue;
    held.push({ pending, fn, args, rule: decision.rule });
  }
  const asked = new Set(
    (
      await run.deps.jobs.store.db
        .selectFrom("approvals")
        .select("call_id")
        .where("job_id", "=", row.id)
        .where(
          "call_id",
          "in",
          held.map((entry) => entry.pending.call.id),
        )
        .execute()
    ).map((found) => found.call_id),
  );
  const rows: { id: string; request: ApprovalRequest; binding: string }[] = [];
  for (const { pending, fn, args, rule } of held) {
    if (asked.has(pending.call.id)) continue;
    const definition = definitionHash(fn);
    let request: ApprovalRequest = {
      callId: pending.call.id,
      agent: run.address,
      address: fn.address,
      name: fn.modelName,
      args,
      rule,
      summary: `${run.address} calls ${fn.address} with ${canonicalJson(args)}`,
      approvers: [],
      definition,
    };
    const bus = run.hooks?.bus;
    if (bus?.has("pre_approval")) {
      const { summary, approvers } = request;
      const outcome = await bus.fire("pre_approval", {
        callId: pending.call.id,
        address: fn.address,
        tool: fn.tool,
        function: fn.function,
        args: args as Readonly<Record<string, unknown>>,
        rule,
        summary,
        approvers,
      });
      if (!outcome.ok) {
        // A refused request refuses its call; another call of the batch asks again at its step.
        if (pending === first.pending) return refuse(run, { pending, fn, args }, outcome.error);
        continue;
      }
      request = { ...request, summary: outcome.payload.summary, approvers: [...outcome.payload.approvers] };
    }
    const binding = approvalBinding({
      tenant: row.tenant,
      job: row.id,
      callId: pending.call.id,
      agent: run.address,
      address: fn.address,
      args,
      definition,
    });
    rows.push({ id: newApprovalId(), request, binding });
  }
  const callId = first.pending.call.id;
  const mine = rows.find((entry) => entry.request.callId === callId);
  if (mine === undefined) {
    // The call was asked about after this step looked: wait for that approval.
    const existing = await approvalOfCall(run.deps.jobs.store.db, row.tenant, row.id, callId);
    if (existing === undefined) throw new Error(`job ${row.id}: the approval of call ${callId} went missing`);
    return waitFor(run, existing.id, callId, []);
  }
  const events = rows.map((entry) =>
    event("approval_requested", {
      approval: entry.id,
      callId: entry.request.callId,
      address: entry.request.address,
      name: entry.request.name,
      args: entry.request.args,
      rule: entry.request.rule,
    }),
  );
  return waitFor(run, mine.id, callId, events, (trx) =>
    insertApprovals(
      trx,
      run.deps.jobs.store.clockSql,
      rows.map((entry) => ({ ...entry, tenant: row.tenant, job: row.id, agent: run.address })),
      run.lease.redactor,
    ),
  );
}

/**
 * Puts the job to waiting for approval `approval`. In the same transaction, an approval
 * decided meanwhile (between this step's read and its write) queues the job again, so a
 * decision is never missed.
 */
async function waitFor(
  run: JobRun,
  approval: string,
  callId: string,
  events: readonly NewEvent[],
  before?: (trx: Transaction<Database>) => Promise<void>,
): Promise<true> {
  return run.wait({ kind: "approval", callId, approval }, events, async (trx) => {
    await before?.(trx);
    const found = await trx
      .selectFrom("approvals")
      .select("status")
      .where("id", "=", approval)
      .executeTakeFirst();
    if (found === undefined || found.status === "pending") return;
    await moveJob(trx, run.row.id, "queued", {
      from: ["waiting"],
      set: { waiting_for: null, updated_at: run.deps.jobs.store.clockSql },
    });
  });
}

/** `approval_decided`, unless the decision is in the job's history already. */
function decidedEvents(approval: ApprovalRow): NewEvent[] {
  // A job's own approvals are decided by a person; only an MCP call's is ever withdrawn.
  if (approval.recorded !== 0 || (approval.status !== "approved" && approval.status !== "denied")) return [];
  return [
    event("approval_decided", {
      approval: approval.id,
      callId: approval.call_id ?? "",
      decision: approval.status,
      by: approval.decided_by ?? "",
      ...(approval.reason === null ? {} : { reason: approval.reason }),
    }),
  ];
}

/** Marks the decision as in the job's history, and the approval as used when the call goes on. */
function noteDecision(
  approval: ApprovalRow,
  used = false,
): (trx: Transaction<Database>, now: number) => Promise<void> {
  return (trx, now) => noteApproval(trx, approval, used ? now : undefined);
}

/** A call the gate decides: the pending call, the function it runs and its arguments. */
export interface HeldCall {
  readonly pending: PendingCall;
  readonly fn: CallableFunction;
  readonly args: unknown;
}

/**
 * Refuses the call: its `tool_call` (unless already recorded) and an error `tool_result` the
 * model reads, with `before` ahead of them, in one write.
 */
export async function refuse(
  run: JobRun,
  { pending, fn, args }: HeldCall,
  error: Oz0Error,
  options: {
    readonly before?: readonly NewEvent[];
    readonly also?: ((trx: Transaction<Database>, now: number) => Promise<void>) | undefined;
    readonly decided?: CallDecider;
  } = {},
): Promise<false> {
  const { before = [], also, decided } = options;
  const { call } = pending;
  const recorded = run.takeRecorded(call.id) || pending.started !== undefined;
  const key = `${run.row.id}:${call.id}`;
  await run.write(
    [
      ...before,
      ...(recorded
        ? []
        : [
            event("tool_call", {
              callId: call.id,
              name: fn.modelName,
              address: fn.address,
              key,
              attempt: 1,
              ...(decided === undefined ? {} : { decided }),
              args,
            }),
          ]),
      event("tool_result", {
        callId: call.id,
        ok: false,
        error: { code: error.code, message: error.message },
        ms: 0,
      }),
    ],
    undefined,
    also,
  );
  return false;
}
