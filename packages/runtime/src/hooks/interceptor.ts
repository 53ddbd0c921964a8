// The bus on the dispatch path: pre_tool_call (refuse, or rewrite the arguments, which are
// checked against the schema again), execute_tool as the call goes to its tool, post_tool_call
// (rewrite the result before the model sees it), on_error for a failed call, and skills_check
// when oz.skill reads a skill. A refused call goes back to the model as an error it is told.
import type { ArgumentChange, CallInterceptor, CallOutcome, CallRequest } from "../tools/index.js";
import type { RunHooks } from "./run-hooks.js";

/** The interceptor of a run's hooks; undefined when no handler listens on a tool call's points. */
export function hookInterceptor(hooks: RunHooks): CallInterceptor | undefined {
  const { bus } = hooks;
  const before = bus.has("pre_tool_call") || bus.has("execute_tool");
  const after = bus.has("post_tool_call") || bus.has("on_error") || bus.has("skills_check");
  if (!before && !after) return undefined;
  return {
    name: "hooks",
    ...(before ? { before: (request: CallRequest) => beforeCall(hooks, request) } : {}),
    ...(after
      ? { after: (request: CallRequest, outcome: CallOutcome) => afterCall(hooks, request, outcome) }
      : {}),
  };
}

function fieldsOf(request: CallRequest) {
  const { fn, call, args } = request;
  return { callId: call.callId, address: fn.address, tool: fn.tool, function: fn.function, args };
}

async function beforeCall(hooks: RunHooks, request: CallRequest): Promise<ArgumentChange | undefined> {
  const { bus } = hooks;
  let change: ArgumentChange | undefined;
  if (bus.has("pre_tool_call")) {
    const outcome = await bus.fire("pre_tool_call", {
      ...fieldsOf(request),
      idempotencyKey: request.call.idempotencyKey,
    });
    if (!outcome.ok) throw outcome.error;
    // A handler that hands the same arguments back changed nothing, and the trace says so.
    const { args } = outcome.payload;
    if (outcome.changed && JSON.stringify(args) !== JSON.stringify(request.args)) {
      change = { args, by: outcome.changedBy };
    }
  }
  if (bus.has("execute_tool"))
    await bus.fire("execute_tool", { ...fieldsOf(request), args: change?.args ?? request.args });
  return change;
}

async function afterCall(
  hooks: RunHooks,
  request: CallRequest,
  outcome: CallOutcome,
): Promise<CallOutcome | undefined> {
  const { bus } = hooks;
  let next = outcome;
  if (bus.has("post_tool_call")) {
    const fired = await bus.fire("post_tool_call", {
      ...fieldsOf(request),
      result: outcome.ok ? outcome.result : undefined,
      ...(outcome.ok ? {} : { error: { code: outcome.error.code, message: outcome.error.message } }),
      durationMs: outcome.ms,
    });
    // A failed call stays failed: its result is what the handlers may rewrite, not its error.
    if (fired.ok && fired.changed && outcome.ok) {
      next = { ok: true, result: JSON.parse(JSON.stringify(fired.payload.result ?? null)), ms: outcome.ms };
    }
  }
  if (!next.ok && bus.has("on_error")) {
    await bus.fire("on_error", {
      error: { code: next.error.code, message: next.error.message },
      where: "tool_call",
      ...(request.fn.plugin === undefined ? {} : { plugin: request.fn.plugin }),
    });
  }
  if (next.ok && request.fn.address === "oz.skill") {
    await hooks.skillsChecked("read", [String(request.args.name)]);
  }
  return next === outcome ? undefined : next;
}
