// `runtime: openai-agents`: the agent's loop is the OpenAI Agents SDK's (`@openai/agents-core`)
// Runner, and oz0 supplies what the loop reaches out to. The SDK's model is `JobModel`, whose
// every call is the job's model step (`session.callModel`: governed, limited, recorded before
// the SDK sees it, and on a resumed run answered from the history without asking the model);
// its tools are the agent's functions, each call run by `session.callFunction` under the id of
// the recorded reply that made it, so policy, approvals, kill switches and budgets decide it.
//
// The SDK holds nothing oz0 cannot rebuild: a resumed run starts the SDK afresh from the job's
// opening, and the replayed steps take it back to where the history ends. Approvals are oz0's
// only (no tool needs the SDK's approval), a wait or stop inside a call is carried out of the
// SDK's run as the session's `RuntimeStop`, the SDK's tracing is off (oz0's own spans and
// events cover the run), and an agent gets no SDK handoffs: it delegates with `oz.delegate`,
// one of its functions, which starts a child job.
import { Agent, type FunctionTool, Runner, tool } from "@openai/agents-core";
import type { ModelCall, ModelMessage } from "../../models/index.js";
import {
  type AgentRuntime,
  type RuntimeCallResult,
  type RuntimeModelReply,
  type RuntimeSession,
  RuntimeStop,
} from "../types.js";
import { JobModel } from "./model.js";

/** The name traces show, and the value of `runtime:` that selects it. */
export const OPENAI_AGENTS = "openai-agents";

/**
 * How many model calls the SDK's own turn limit allows: more than any job's `max_steps`, so the
 * agent's limits are the ones that stop it, with oz0's failure.
 */
const SDK_TURNS = 1_000_000;

/** What one run keeps between the SDK's model calls and its tool calls. */
export class RunState {
  readonly session: RuntimeSession;
  /** The calls of each reply, by oz0's call id, which is the id the SDK carries them under. */
  readonly calls = new Map<string, ModelCall>();
  /** Each call's result as oz0 recorded it, to tell the model exactly that. */
  readonly results = new Map<string, RuntimeCallResult>();
  /** The last reply, whose text or structured output is the answer when the SDK ends. */
  last: RuntimeModelReply | undefined;
  /** The stop a session call threw inside the SDK, carried out of its run whatever it made of it. */
  stop: RuntimeStop | undefined;
  /** Calls run one at a time, in the order the SDK asks, as oz0's own loop runs them. */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(session: RuntimeSession) {
    this.session = session;
  }

  /** Runs `action` on the session, noting a stop it throws. */
  async guard<T>(action: () => Promise<T>): Promise<T> {
    if (this.stop !== undefined) throw this.stop;
    try {
      return await action();
    } catch (error) {
      if (error instanceof RuntimeStop) this.stop = error;
      throw error;
    }
  }

  /** Runs call `callId` after the calls asked for before it. */
  callFunction(callId: string): Promise<RuntimeCallResult> {
    const next = this.#queue.then(() => this.guard(() => this.session.callFunction(callId)));
    this.#queue = next.catch(() => undefined);
    return next;
  }
}

/** A function's JSON Schema as the SDK types a schema it does not hold to strict mode. */
type LooseSchema = Extract<Parameters<typeof tool>[0], { strict: false }>["parameters"];

/** The agent's functions as the SDK's function tools, each call run as the job's. */
function jobTools(state: RunState): FunctionTool[] {
  return state.session.functions.map((fn) =>
    tool<LooseSchema>({
      name: fn.name,
      description: fn.description,
      // oz0 checks the arguments against the function's schema on the dispatch path.
      parameters: fn.inputSchema as unknown as LooseSchema,
      strict: false,
      // An error (a stop above all) goes out of the SDK's run, never to the model as text.
      errorFunction: null,
      execute: async (_args, _context, details) => {
        const callId = details?.toolCall?.callId;
        if (callId === undefined || !state.calls.has(callId)) {
          throw new Error(
            `the OpenAI Agents SDK ran tool ${fn.name} for call ${String(callId)}, which no reply of job ${state.session.job} made`,
          );
        }
        const result = await state.callFunction(callId);
        state.results.set(callId, result);
        return JSON.stringify(result.ok ? result.result : { error: result.error });
      },
    }),
  );
}

/** The instructions and the first input of the SDK's run: the job's recorded opening. */
function openingOf(session: RuntimeSession): { instructions: string; input: string } {
  let instructions = "";
  let input = "";
  for (const message of session.opening) {
    if (message.role === "system") instructions = message.content;
    else if (message.role === "user") input = message.content;
  }
  return { instructions, input };
}

export const OPENAI_AGENTS_RUNTIME: AgentRuntime = {
  name: OPENAI_AGENTS,
  selects: [OPENAI_AGENTS],
  models: {
    types: ["openai", "openai-chat"],
    why: "the OpenAI Agents SDK, which speaks only the OpenAI Responses and Chat formats",
  },
  async run(session) {
    const state = new RunState(session);
    const model = new JobModel(state);
    const runner = new Runner({
      modelProvider: { getModel: () => model },
      tracingDisabled: true,
      traceIncludeSensitiveData: false,
    });
    const { instructions, input } = openingOf(session);
    const agent = new Agent({ name: session.agent, instructions, model, tools: jobTools(state) });
    let next: string | ModelMessage[] | unknown[] = input;
    for (;;) {
      let history: unknown[];
      try {
        const result = await runner.run(agent, next as string, {
          maxTurns: SDK_TURNS,
          signal: session.signal,
        });
        history = result.history;
      } catch (error) {
        throw state.stop ?? error;
      }
      const answer = state.last;
      if (answer === undefined) throw new Error("the OpenAI Agents SDK ended its run without a model reply");
      const sentBack = await state.guard(() => session.finish({ text: answer.text, output: answer.output }));
      if (sentBack === undefined) return;
      // The answer did not match the output schema: the SDK's run goes on with the job's reason.
      next = [...history, { role: "user", content: sentBack }];
    }
  },
};
