// A flow defined in code (`host.addFlow`): a deterministic workflow that calls functions and
// starts agents through the job engine, so each step passes policy and hooks and is recorded
// in the flow's job history. A flow with branches or loops is written here; a straight line of
// steps can be YAML under `flows:` in plugin.yaml instead.
import type { FunctionInput, JsonSchemaObject } from "./input-schema.js";
import type { SpecBase } from "./specs.js";

/**
 * What a code flow's `run` gets. Each `call` and `agent` is a step of the flow's job: recorded
 * before its result is used. A flow whose process died runs `run` again from the start, and
 * steps already recorded give their recorded result at once without running again, so `run`
 * must take the same steps in the same order each time: decide only on `input` and on what
 * the steps return, never on the clock or chance. Steps run one at a time; await each.
 */
export interface FlowContext {
  /** The flow's input: text, or the value its input schema describes. */
  readonly input: unknown;
  readonly tenant: string;
  /** The job running the flow; a child job's ID starts with it. */
  readonly jobId: string;
  /** Aborted when the job is cancelled, runs out of time, or its worker loses the lease. */
  readonly signal: AbortSignal;
  /**
   * Calls a function by address (`repo.merge` of this plugin, `<plugin>/<tool>.<function>` of
   * another) on the dispatch path every call takes: its arguments are checked, then policy and
   * hooks, and the call is traced as `tool_call` and `tool_result`. Resolves to the result;
   * rejects with an `Oz0Error` of code `STEP_FAILED` when the call is refused or fails.
   */
  call(address: string, args?: Readonly<Record<string, unknown>>): Promise<unknown>;
  /**
   * Starts a job of an agent (`<agent>` of this plugin, or `<plugin>/<agent>`) as a child job
   * with `input`, and resolves to its answer once it ends. The flow's job waits meanwhile, as
   * a state in the store. Rejects with `STEP_FAILED` (the child's failure kind in `data.kind`)
   * when the child fails or is cancelled.
   */
  agent(address: string, input: unknown): Promise<unknown>;
}

/** A flow registered with `host.addFlow`. Its name shares one set with the plugin's agents and YAML flows. */
export interface FlowSpec extends SpecBase {
  /** The flow's name: lowercase letters, digits and single dashes, like an agent's. */
  readonly name: string;
  readonly description?: string;
  /** The input's JSON Schema or zod schema; left out, the flow takes text. */
  readonly input?: FunctionInput;
  /** The result's JSON Schema: a result that does not match fails the job with `invalid_output`, a matching one is drawn as a card. */
  readonly output?: JsonSchemaObject;
  /** Runs the flow; what it returns is the job's output. */
  run(ctx: FlowContext): Promise<unknown>;
}
