// The hook bus: runs the handlers of one hook point over one payload, in order, with the
// point's semantics from the catalogue. A blocking point stops at a PolicyViolation
// (`governance_denied`) and records `governance_checked` when it lets the action through; on a
// modifying point each handler's changes reach the next handler and the caller; any other
// error is a `hook_error`, which stops the action only when the handler is required.
import {
  type HookName,
  type HookPayload,
  hookPoint,
  isOz0Error,
  Oz0Error,
  PolicyViolation,
  toOz0Error,
} from "@oz0/sdk";
import type { GovernanceSink } from "../events/index.js";
import type { HookEntry, HookTable } from "./table.js";

/** Where the hooks fire: every payload carries these. */
export interface HookScope {
  readonly tenant: string;
  readonly jobId?: string;
  readonly agent?: string;
}

/** The payload fields a caller gives; the bus adds `hook` and the scope. */
export type HookFields<H extends HookName> = Omit<HookPayload<H>, "hook" | "tenant" | "jobId" | "agent">;

/** A handler, as traces name it: the plugin that registered it and its registration. */
export interface HandlerRef {
  readonly plugin: string;
  readonly handler: string;
}

export type HookOutcome<H extends HookName> =
  | {
      readonly ok: true;
      readonly payload: HookPayload<H>;
      readonly changed: boolean;
      /** The handlers whose changes the payload carries, in order. */
      readonly changedBy: readonly HandlerRef[];
    }
  | {
      readonly ok: false;
      /** A PolicyViolation (refused), or HOOK_FAILED (a required handler failed). */
      readonly error: Oz0Error;
      readonly denied: boolean;
    };

/** The fields a handler may change on each modifying hook; anything else it returns is ignored. */
const CHANGEABLE: Partial<Record<HookName, readonly string[]>> = {
  pre_execution: ["input"],
  pre_llm_call: ["model", "messages", "tools", "settings"],
  post_llm_call: ["response"],
  pre_tool_call: ["args"],
  post_tool_call: ["result"],
  pre_prompt_build: ["sections"],
  post_prompt_build: ["prompt"],
  pre_context_assembly: ["parts"],
  pre_agent_handoff: ["input"],
  user_input: ["content", "attachments"],
  user_output: ["content"],
  pre_approval: ["summary", "approvers"],
  pre_child_job: ["input"],
  pre_memory_store: ["entry"],
  pre_agent_communication: ["message"],
  // A chat's write may change what it adds; a channel thread being opened, the agent it opens with.
  pre_session_access: ["entry", "target"],
  pre_sensor_event: ["event"],
};

const SCOPE_FIELDS = new Set(["hook", "tenant", "jobId", "agent"]);

export class HookBus {
  readonly table: HookTable;
  readonly scope: HookScope;
  readonly #sink: GovernanceSink;

  constructor(table: HookTable, scope: HookScope, sink: GovernanceSink) {
    this.table = table;
    this.scope = scope;
    this.#sink = sink;
  }

  /** Whether any handler listens on `hook`: callers skip building a payload nobody reads. */
  has(hook: HookName): boolean {
    return this.table.has(hook);
  }

  /**
   * Runs the handlers of `hook` over a payload made of `fields` and the scope. With no handler
   * it returns at once and records nothing.
   * @example const outcome = await bus.fire("pre_tool_call", { callId, address, tool, function: fn, args, idempotencyKey });
   * if (!outcome.ok) throw outcome.error;
   */
  async fire<H extends HookName>(hook: H, fields: HookFields<H>): Promise<HookOutcome<H>> {
    const entries = this.table.handlers(hook);
    let payload = Object.freeze({ ...fields, ...this.scope, hook }) as unknown as HookPayload<H>;
    if (entries.length === 0) return { ok: true, payload, changed: false, changedBy: [] };
    const point = hookPoint(hook);
    const changedBy: HandlerRef[] = [];
    let passed = 0;
    let raised = false;
    for (const entry of entries) {
      let result: unknown;
      try {
        result = await entry.run(payload as HookPayload<HookName>);
      } catch (thrown) {
        const violation = point.blocking ? asViolation(thrown) : undefined;
        if (violation !== undefined) {
          this.#sink({
            kind: "governance_denied",
            data: {
              hook,
              plugin: entry.plugin,
              contract_id: violation.contractId,
              reason: violation.reason,
              details: violation.details,
              handler: entry.handler,
            },
          });
          return { ok: false, error: violation, denied: true };
        }
        const error = await this.#failed(entry, thrown, point.blocking);
        if (entry.required) return { ok: false, error, denied: false };
        raised = true;
        continue;
      }
      passed += 1;
      if (point.modifying) {
        const next = applyChanges(hook, payload, result);
        if (next !== payload) {
          payload = next;
          changedBy.push({ plugin: entry.plugin, handler: entry.handler });
        }
      }
    }
    // A point one of whose handlers raised was not checked in full, so it does not say it was.
    if (point.blocking && !raised) {
      this.#sink({ kind: "governance_checked", data: { hook, checks_passed: passed, outcome: "allowed" } });
    }
    return { ok: true, payload, changed: changedBy.length > 0, changedBy };
  }

  /** Records a handler's failure as hook_error (and tells on_error); returns the HOOK_FAILED error. */
  async #failed(entry: HookEntry, thrown: unknown, blocking: boolean): Promise<Oz0Error> {
    const message = errorText(thrown, entry.hook, blocking);
    this.#sink({
      kind: "hook_error",
      data: {
        hook: entry.hook,
        plugin: entry.plugin,
        error: message,
        handler: entry.handler,
        required: entry.required,
      },
    });
    if (entry.hook !== "on_error" && this.has("on_error")) {
      await this.fire("on_error", {
        error: { code: toOz0Error(thrown).code, message },
        where: entry.hook,
        plugin: entry.plugin,
      });
    }
    return new Oz0Error(
      "HOOK_FAILED",
      `hook ${entry.hook}: handler ${entry.handler} of plugin ${entry.plugin} failed (${message}); it is required, so the action did not happen. Fix the plugin, or register the handler without required.`,
      { data: { hook: entry.hook, plugin: entry.plugin, handler: entry.handler, error: message } },
    );
  }
}

/**
 * A PolicyViolation, told by its code rather than its class: a plugin may bring its own copy
 * of the SDK, whose class is not this one.
 */
function asViolation(thrown: unknown): PolicyViolation | undefined {
  if (thrown instanceof PolicyViolation) return thrown;
  if (!isOz0Error(thrown, "POLICY_VIOLATION") && !looksLikeViolation(thrown)) return undefined;
  const found = thrown as { contractId?: unknown; reason?: unknown; details?: unknown; message?: unknown };
  return new PolicyViolation({
    contractId: typeof found.contractId === "string" ? found.contractId : "unknown",
    reason: typeof found.reason === "string" ? found.reason : String(found.message ?? ""),
    details:
      typeof found.details === "object" && found.details !== null
        ? (found.details as Record<string, unknown>)
        : {},
  });
}

function looksLikeViolation(thrown: unknown): boolean {
  return (
    typeof thrown === "object" &&
    thrown !== null &&
    (thrown as { code?: unknown }).code === "POLICY_VIOLATION" &&
    typeof (thrown as { contractId?: unknown }).contractId === "string"
  );
}

function errorText(thrown: unknown, hook: HookName, blocking: boolean): string {
  const violation = asViolation(thrown);
  if (violation !== undefined && !blocking) {
    return `PolicyViolation from ${violation.contractId} (${violation.reason}) on ${hook}, which is not a blocking hook and cannot refuse; refuse on a blocking hook instead`;
  }
  return thrown instanceof Error ? thrown.message : String(thrown);
}

/** The payload with the changes a handler returned to a modifying hook, or the same payload. */
function applyChanges<H extends HookName>(hook: H, payload: HookPayload<H>, result: unknown): HookPayload<H> {
  if (typeof result !== "object" || result === null || Array.isArray(result)) return payload;
  const changes = result as Record<string, unknown>;
  const allowed = CHANGEABLE[hook];
  let next: Record<string, unknown> | undefined;
  for (const key of allowed ?? Object.keys(changes)) {
    if (SCOPE_FIELDS.has(key) || changes[key] === undefined || !Object.hasOwn(changes, key)) continue;
    next ??= { ...payload };
    next[key] = changes[key];
  }
  return next === undefined ? payload : (Object.freeze(next) as unknown as HookPayload<H>);
}
