// One tool step: the next call of the last model reply that has no result. A plugin function
// (or oz.skill) goes through the one dispatch path, its `tool_call` recorded before it runs and
// its `tool_result` after; a call that was in flight when a worker died runs again, once per
// crash, with the same idempotency key. `oz.fail`, `oz.ask_user` and `oz.delegate` pass the
// same checks and then end the job or make it wait, in one write with their `tool_call`.
import type { FunctionCall } from "@oz0/sdk";
import { type GrantTarget, reachRefusal } from "../catalog/index.js";
import { type CallDecider, event, type NewEvent } from "../events/index.js";
import {
  type CallableFunction,
  type CallContext,
  dispatchCall,
  prepareCall,
  withMcpHost,
} from "../tools/index.js";
import { JOB_CONTROL_BUILTINS } from "./builtins.js";
import { childIdOf, waitForChild } from "./children.js";
import { governCall, refuse as refuseHeld } from "./gate.js";
import type { PendingCall } from "./history.js";
import type { JobRun } from "./job-run.js";
import { callTarget } from "./lazy-tools.js";
import { type JobMcpHost, jobMcpHost } from "./mcp-host.js";
import type { AgentSetup } from "./setup.js";
import { isTerminal } from "./store.js";
import { jobSummarizer } from "./summarize.js";
import { addedSince } from "./toolset.js";

/** How deep child jobs go, and how many one job starts, when `delegation:` does not say. */
export const DELEGATION_DEFAULTS = { max_depth: 3, max_children: 16 } as const;

/** Runs the pending call; true when the job stopped (it ended or waits). */
export async function toolStep(run: JobRun, setup: AgentSetup, pending: PendingCall): Promise<boolean> {
  const { call } = pending;
  const key = `${run.row.id}:${call.id}`;
  // A function of a tool granted whole that its MCP server added since the job began is found now.
  const called =
    setup.toolset.functions.get(call.name) ??
    (setup.toolset.wholeTools.length === 0
      ? undefined
      : await addedSince(
          setup.toolset,
          {
            plugin: run.row.plugin,
            manifest: setup.plugin.manifest,
            tenantGrant: setup.tenantGrant,
            resolver: setup.resolver,
          },
          call.name,
        ));
  if (called === undefined) {
    const names = [...setup.toolset.functions.keys()].join(", ") || "none";
    const missing = setup.toolset.missing.get(call.name);
    // A function the agent lists but uses: does not grant is refused as such, not as unknown.
    const ungranted = setup.toolset.ungranted.get(call.name);
    await run.write([
      event("tool_call", { callId: call.id, name: call.name, address: "", key, attempt: 1, args: call.args }),
      event("tool_result", {
        callId: call.id,
        ok: false,
        error:
          ungranted !== undefined
            ? { code: "NOT_GRANTED", message: ungranted }
            : missing !== undefined
              ? { code: "NOT_FOUND", message: `${call.name}: ${missing}` }
              : {
                  code: "NOT_FOUND",
                  message: setup.toolset.lazy.has(call.name)
                    ? `call ${call.name} through oz__call_tool: { "name": "${call.name}", "args": { … } }`
                    : `there is no function ${call.name}; the functions you may call: ${names}`,
                },
        ms: 0,
      }),
    ]);
    return false;
  }
  // oz.call_tool runs the function it names, recorded and checked as that function.
  const target = callTarget(called, call.args, setup.toolset.lazy);
  if ("error" in target) {
    const named = (call.args as { name?: unknown } | null)?.name;
    const ungranted = typeof named === "string" ? setup.toolset.ungranted.get(named) : undefined;
    await run.write([
      event("tool_call", {
        callId: call.id,
        name: call.name,
        address: called.address,
        key,
        attempt: 1,
        args: call.args,
      }),
      event("tool_result", {
        callId: call.id,
        ok: false,
        error: ungranted === undefined ? target.error : { code: "NOT_GRANTED", message: ungranted },
        ms: 0,
      }),
    ]);
    return false;
  }
  const { fn, args } = target;
  // Another plugin's function or skill: its grant is read now, so a revoke stops the next call.
  const reached = reachedPart(fn, args, setup);
  const ungranted =
    reached === undefined
      ? undefined
      : await reachRefusal(run.deps.source, run.row.tenant, setup.plugin.manifest, reached);
  // A call already recorded (in flight when a worker died) gets its refusal as its result.
  if (ungranted !== undefined) return refuseHeld(run, { pending, fn, args }, ungranted);
  // Tool policy, approvals and kill switches (policy/): the call is refused, or waits for a person.
  const governed = await governCall(run, setup.toolset.functions, pending, fn, args);
  if (typeof governed === "boolean") return governed;
  const decided = governed.decided === undefined ? {} : { decided: governed.decided };
  const recorded = run.settleRecorded(call.id);
  const attempt = pending.started === undefined || recorded ? 1 : pending.started.attempt + 1;
  // An MCP server behind the function reaches the job through its host (roots, sampling,
  // elicitation, notifications), made when the server first asks for it: most calls reach none.
  let host: JobMcpHost | undefined;
  const functionCall: FunctionCall = withMcpHost(
    {
      tenant: run.row.tenant,
      jobId: run.row.id,
      callId: call.id,
      idempotencyKey: key,
      agent: run.address,
      address: fn.address,
      attempt,
      signal: run.signal,
    },
    () => {
      host ??= jobMcpHost(run, setup, call.id);
      return host;
    },
  );
  // The loop's decision goes with the call, for the dispatch path's policy check to read.
  const context: CallContext = {
    origin: { kind: "step", job: run.row.id, decision: governed.decision },
    hooks: run.hooks,
    scope: {
      tenant: run.row.tenant,
      jobId: run.row.id,
      callId: call.id,
      bus: run.hooks?.bus,
      summarize: jobSummarizer(run, setup, call.id),
    },
  };
  if (fn.plugin === undefined && JOB_CONTROL_BUILTINS.has(fn.function)) {
    return controlStep(run, setup, pending, fn, functionCall, context, decided);
  }
  await dispatchCall(fn, args, functionCall, {
    context,
    interceptors: setup.interceptors,
    recorder: {
      // Recorded with the model's reply only when no hook could change the arguments: nothing
      // to record as it starts.
      started: recorded
        ? undefined
        : async (_fn, ran, _call, changedBy) => {
            const what = { args: ran, ...(changedBy.length === 0 ? {} : { changedBy }) };
            await run.write([
              pending.started === undefined
                ? event("tool_call", {
                    callId: call.id,
                    name: fn.modelName,
                    address: fn.address,
                    key,
                    attempt,
                    ...decided,
                    ...what,
                  })
                : event("tool_call_retried", { callId: call.id, attempt, ...what }),
            ]);
          },
      finished: async (_fn, outcome) => {
        // The server was told its form was dismissed: what it answered then is not the call's result.
        if (host?.parked !== undefined) return;
        await run.write([
          event(
            "tool_result",
            outcome.ok
              ? { callId: call.id, ok: true, result: outcome.result, ms: outcome.ms }
              : { callId: call.id, ok: false, error: outcome.error, ms: outcome.ms },
          ),
        ]);
      },
    },
  });
  const parked = host?.parked;
  if (parked === undefined) return false;
  const { tool, message, requestedSchema } = parked;
  return run.wait(
    { kind: "answer", callId: call.id, question: message, elicitation: { tool, schema: requestedSchema } },
    [event("mcp_elicitation", { callId: call.id, tool, message, requestedSchema })],
  );
}

/**
 * The other plugin's part a call reaches: a function of another plugin, or the skill of another
 * plugin that an oz.skill call reads; undefined for the agent's own parts and the built-ins.
 */
function reachedPart(fn: CallableFunction, args: unknown, setup: AgentSetup): GrantTarget | undefined {
  const own = setup.plugin.manifest.name;
  if (fn.plugin !== undefined) {
    if (fn.plugin === own) return undefined;
    return { kind: "function", plugin: fn.plugin, tool: fn.tool, function: fn.function };
  }
  if (fn.function !== "skill") return undefined;
  const named = (args as { name?: unknown } | null)?.name;
  const skill = [...setup.builtins.skills, ...(setup.builtins.ungrantedSkills ?? [])].find(
    (entry) => ("label" in entry && entry.label === named) || `${entry.plugin}/${entry.name}` === named,
  );
  if (skill === undefined || skill.plugin === own) return undefined;
  return { kind: "skill", plugin: skill.plugin, name: skill.name };
}

async function controlStep(
  run: JobRun,
  setup: AgentSetup,
  pending: PendingCall,
  fn: CallableFunction,
  functionCall: FunctionCall,
  context: CallContext,
  decided: { readonly decided?: CallDecider },
): Promise<boolean> {
  const { call } = pending;
  if (pending.started !== undefined) return waitAgain(run, pending);
  const prepared = await prepareCall(fn, call.args, functionCall, context, setup.interceptors);
  const changedBy = prepared.ok ? prepared.changedBy : [];
  const toolCall = event("tool_call", {
    callId: call.id,
    name: call.name,
    address: fn.address,
    key: functionCall.idempotencyKey,
    attempt: 1,
    ...decided,
    args: prepared.ok ? prepared.request.args : call.args,
    ...(changedBy.length === 0 ? {} : { changedBy }),
  });
  const refuse = async (code: string, message: string) => {
    await run.write([
      toolCall,
      event("tool_result", { callId: call.id, ok: false, error: { code, message }, ms: 0 }),
    ]);
    return false;
  };
  if (!prepared.ok) return refuse(prepared.error.code, prepared.error.message);
  const args = prepared.request.args;
  switch (fn.function) {
    case "fail": {
      const kind = String(args.kind);
      const message = String(args.message);
      const declared = setup.definition.failures?.find((failure) => failure.kind === kind);
      if (declared !== undefined) {
        const { retryable, partial, person } = declared;
        return run.fail({ kind, message, retryable, partial, person }, [toolCall]);
      }
      return run.fail(
        {
          kind: "undeclared",
          message: `${message} (the agent failed with kind ${kind}, which it does not declare)`,
          retryable: false,
          partial: false,
          person: false,
        },
        [toolCall],
      );
    }
    case "ask_user":
      return run.wait({ kind: "answer", callId: call.id, question: String(args.question) }, [toolCall]);
    default:
      return delegate(run, setup, pending, args, toolCall, refuse);
  }
}

/** A job woken while its control call still has no result waits again (or takes a child's end it missed). */
async function waitAgain(run: JobRun, pending: PendingCall): Promise<boolean> {
  const { call } = pending;
  if (pending.child !== undefined) {
    const child = await run.deps.jobs.get(pending.child);
    if (child !== undefined && isTerminal(child.status)) {
      await run.write([
        event("child_job_finished", {
          callId: call.id,
          job: child.id,
          status: child.status,
          ...(child.output === null ? {} : { output: JSON.parse(child.output) }),
          failure: child.failure === null ? null : JSON.parse(child.failure),
        }),
      ]);
      await takeUpChildEnds(run);
      return false;
    }
    return run.wait({ kind: "child", callId: call.id, job: pending.child }, []);
  }
  const question = (call.args as { question?: unknown } | null)?.question;
  return run.wait({ kind: "answer", callId: call.id, question: String(question ?? "") }, []);
}

async function delegate(
  run: JobRun,
  setup: AgentSetup,
  pending: PendingCall,
  args: Readonly<Record<string, unknown>>,
  toolCall: NewEvent,
  refuse: (code: string, message: string) => Promise<boolean>,
): Promise<boolean> {
  const { row, deps, history } = run;
  const { call } = pending;
  const delegation = setup.definition.delegation;
  let child: { plugin: string; name: string };
  try {
    child = await deps.source.resolvePart(row.tenant, "agent", String(args.agent), {
      fromPlugin: row.plugin,
    });
  } catch (error) {
    return refuse("NOT_FOUND", error instanceof Error ? error.message : String(error));
  }
  const address = `${child.plugin}/${child.name}`;
  const allowed = (delegation?.allow ?? []).map((entry) =>
    entry.includes("/") ? entry : `${row.plugin}/${entry}`,
  );
  if (!allowed.includes(address)) {
    return refuse(
      "POLICY_VIOLATION",
      `${run.address} may not delegate to ${address}; delegation.allow lists ${allowed.join(", ") || "no agent"}`,
    );
  }
  const ungranted = await reachRefusal(run.deps.source, row.tenant, setup.plugin.manifest, {
    kind: "agent",
    ...child,
  });
  if (ungranted !== undefined) return refuse(ungranted.code, ungranted.message);
  const maxDepth = delegation?.max_depth ?? DELEGATION_DEFAULTS.max_depth;
  if (row.depth + 1 > maxDepth) {
    return refuse(
      "POLICY_VIOLATION",
      `a child job here would be ${row.depth + 1} deep; delegation.max_depth is ${maxDepth}`,
    );
  }
  const maxChildren = delegation?.max_children ?? DELEGATION_DEFAULTS.max_children;
  if (history.children >= maxChildren) {
    return refuse(
      "POLICY_VIOLATION",
      `this job started ${history.children} child jobs; delegation.max_children is ${maxChildren}`,
    );
  }
  // pre_agent_handoff and pre_child_job may rewrite the child's input or refuse the handoff.
  const handoff = (await run.hooks?.beforeHandoff(address, args.input)) ?? { ok: true, input: args.input };
  if (!handoff.ok) return refuse(handoff.error.code, handoff.error.message);
  // The child's input is a message to the other agent: pre_agent_communication may rewrite or refuse it.
  const sent = (await run.hooks?.beforeMessage(address, handoff.input, "request")) ?? {
    ok: true,
    message: handoff.input,
  };
  if (!sent.ok) return refuse(sent.error.code, sent.error.message);
  const input = sent.message ?? "";
  const start = { callId: call.id, child, input, before: [toolCall] };
  await run.hooks?.afterHandoff(address, childIdOf(run, start));
  await run.hooks?.afterMessage(address, input, "request");
  return waitForChild(run, start);
}

/**
 * The job takes up the results of its oz.delegate calls whose child ended since its last model
 * call: the child wrote its end into this job's history in its own transaction, where this job's
 * hooks do not run, so post_tool_call runs here, in the job's own run, and what it makes of the
 * result (the child's job, status, output and failure) is recorded as the call's `tool_result`,
 * which the model is told instead. Nothing is written when no handler listens.
 */
export async function takeUpChildEnds(run: JobRun): Promise<void> {
  const bus = run.hooks?.bus;
  if (bus === undefined || !bus.has("post_tool_call")) return;
  for (const [callId, end] of [...run.history.childEnds]) {
    const fired = await bus.fire("post_tool_call", {
      callId,
      address: "oz.delegate",
      tool: "oz",
      function: "delegate",
      args: (end.call.args ?? {}) as Record<string, unknown>,
      result: end.content,
      durationMs: 0,
    });
    const result =
      fired.ok && fired.changed ? JSON.parse(JSON.stringify(fired.payload.result ?? null)) : end.content;
    await run.write([event("tool_result", { callId, ok: true, result, ms: 0 })]);
  }
}
