// The OpenAI Agents SDK's side of `runtime: openai-agents` (index.ts says what it is): the
// SDK's Runner over a job's session, loaded on a job's first run on this runtime only, so a
// process that runs no such job never loads the SDK.
import { Agent, type AgentInputItem, Runner, tool } from "@openai/agents-core";
import type { RuntimeSession } from "../types.js";
import { JobModel } from "./model.js";
import { RunState, UNOFFERED } from "./state.js";

/**
 * How many model calls the SDK's own turn limit allows: more than any agent's
 * `limits.max_turns`, so the agent's limits are the ones that stop it, with oz0's failure.
 */
const SDK_TURNS = 1_000_000;

/** A function's JSON Schema as the SDK types a schema it does not hold to strict mode. */
type LooseSchema = Extract<Parameters<typeof tool>[0], { strict: false }>["parameters"];

/** The agent's functions as the SDK's function tools, each call run as the job's. */
function jobTools(state: RunState) {
  const tools = state.session.functions.map((fn) => jobTool(state, fn.name, fn.description, fn.inputSchema));
  tools.push(
    jobTool(state, UNOFFERED, "A call of a function the agent was not offered.", { type: "object" }),
  );
  return tools;
}

function jobTool(state: RunState, name: string, description: string, schema: object) {
  const made = tool<LooseSchema>({
    name,
    description,
    // oz0 checks the arguments against the function's schema on the dispatch path.
    parameters: schema as LooseSchema,
    strict: false,
    // An error (a stop above all) goes out of the SDK's run, never to the model as text.
    errorFunction: null,
    execute: async (_args, _context, details) => {
      const callId = details?.toolCall?.callId;
      if (callId === undefined || !state.calls.has(callId)) {
        throw new Error(
          `the OpenAI Agents SDK ran tool ${name} for call ${String(callId)}, which no reply of job ${state.session.job} made`,
        );
      }
      const result = await state.callFunction(callId);
      state.results.set(callId, result);
      return JSON.stringify(result.ok ? result.result : { error: result.error });
    },
  });
  // The SDK turns a dash into `_`; the model and the job know the function by its own name.
  made.name = name;
  return made;
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

/** Runs the job's loop in the SDK, from its opening to its next stop. */
export async function runOnSdk(session: RuntimeSession): Promise<void> {
  const state = new RunState(session);
  const model = new JobModel(state);
  const runner = new Runner({
    modelProvider: { getModel: () => model },
    tracingDisabled: true,
    traceIncludeSensitiveData: false,
  });
  const { instructions, input } = openingOf(session);
  const agent = new Agent({ name: session.agent, instructions, model, tools: jobTools(state) });
  let next: string | AgentInputItem[] = input;
  for (;;) {
    let history: AgentInputItem[];
    try {
      const result = await runner.run(agent, next, {
        maxTurns: SDK_TURNS,
        signal: session.signal,
      });
      history = result.history;
    } catch (error) {
      if (state.stop !== undefined) throw state.stop;
      // A stop from outside (cancel, the wall time, a lost lease) ends the job as the core says.
      if (session.signal.aborted) throw error;
      // Anything else the SDK threw ends the job here, rather than the run over and over.
      const message = error instanceof Error ? error.message : String(error);
      await session.fail({ kind: "internal", message: `the OpenAI Agents SDK stopped: ${message}` });
      return;
    }
    const answer = state.last;
    if (answer === undefined) throw new Error("the OpenAI Agents SDK ended its run without a model reply");
    const followUp = await state.guard(() => session.finish({ text: answer.text, output: answer.output }));
    if (followUp === undefined) return;
    // The job goes on (an answer sent back, a chat's next message): so does the SDK's conversation.
    next = [...history, { role: "user", content: followUp }];
  }
}
