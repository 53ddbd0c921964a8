// What a job gives the MCP server behind one of its calls: the job's roots, its model for a
// server's sampling request (through the job's limits, its pre_llm_call and post_llm_call hooks
// and its price, recorded as `mcp_sampling` and counted in the job's and the tenant's usage),
// and its history for the server's progress and log notifications (`mcp_progress`, `mcp_log`).
// Elicitation is refused: it asks a person in the middle of a call, and a job waits for a
// person only between steps, as a state in the store, never with a call held open.
import { sql } from "kysely";
import { event, type NewEvent } from "../events/index.js";
import { estimateTokens, type ModelMessage, type ModelRequest } from "../models/index.js";
import {
  type McpCallHost,
  type McpSamplingReply,
  type McpSamplingRequest,
  toolContext,
} from "../tools/index.js";
import { hourOf } from "../usage/index.js";
import type { JobRun } from "./job-run.js";
import type { AgentSetup } from "./setup.js";

/** The most progress and log notifications one call records each; the rest are counted, not kept. */
export const MCP_NOTICES_PER_CALL = 100;

export const ELICITATION_IN_JOB =
  "a job cannot hold an MCP call open while a person answers (a job waits for a person only between steps); " +
  "have the agent ask with oz.ask_user before the call, or call this tool through oz0 mcp serve from a client that answers elicitation";

/** The host of call `callId` of the job `run` runs. */
export function jobMcpHost(run: JobRun, setup: AgentSetup, callId: string): McpCallHost {
  const { row } = run;
  // Worked out only when a server asks: most calls are not to an MCP server.
  let roots: { path: string; name: string }[] | undefined;
  const rootsOf = () => {
    if (roots !== undefined) return roots;
    const { home } = run.deps;
    const paths = toolContext({ home, tenant: row.tenant, pluginId: row.plugin, agent: row.name }).paths;
    roots = [{ path: paths.agentRoot, name: `${row.plugin}/${row.name}` }];
    if (paths.projectRoot !== undefined) roots.push({ path: paths.projectRoot, name: "project" });
    return roots;
  };
  let chain: Promise<void> = Promise.resolve();
  const counts = { progress: 0, log: 0 };
  const record = (kind: "progress" | "log", entry: NewEvent) => {
    counts[kind] += 1;
    if (counts[kind] > MCP_NOTICES_PER_CALL) return;
    // One write at a time, in the order the server sent them; a failed write (the lease lost)
    // shows in the call's own result, not here.
    chain = chain.then(() => run.write([entry])).catch(() => undefined);
  };
  return {
    job: row.id,
    get roots() {
      return rootsOf();
    },
    progress: (tool, progress) => record("progress", event("mcp_progress", { callId, tool, ...progress })),
    log: (tool, message) => record("log", event("mcp_log", { callId, tool, ...message })),
    sample: (tool, request, signal) => {
      // In the chain, so the history keeps the server's order and no two writes overlap.
      const reply = chain.then(() => sample(run, setup, callId, tool, request, signal));
      chain = reply.then(
        () => undefined,
        () => undefined,
      );
      return reply;
    },
    refusal: { elicitation: ELICITATION_IN_JOB },
    settle: () => chain,
  };
}

async function sample(
  run: JobRun,
  setup: AgentSetup,
  callId: string,
  tool: string,
  asked: McpSamplingRequest,
  signal: AbortSignal,
): Promise<McpSamplingReply> {
  const { history } = run;
  const { limits } = setup;
  if (history.tokensUsed >= limits.max_tokens) {
    throw new Error(
      `oz0 refuses sampling/createMessage: job ${run.row.id} used ${history.tokensUsed} tokens, at or over limits.max_tokens (${limits.max_tokens})`,
    );
  }
  const messages: ModelMessage[] = [];
  if (asked.systemPrompt !== undefined) messages.push({ role: "system", content: asked.systemPrompt });
  for (const message of asked.messages) {
    messages.push(
      message.role === "user"
        ? { role: "user", content: message.text }
        : { role: "assistant", text: message.text, calls: [] },
    );
  }
  const tokens = asked.messages.reduce(
    (sum, message) => sum + estimateTokens(message.text),
    estimateTokens(asked.systemPrompt ?? ""),
  );
  let request: ModelRequest = {
    step: history.steps,
    messages,
    functions: [],
    estimatedInputTokens: tokens,
    signal: AbortSignal.any([run.signal, signal]),
    sampling: true,
  };
  if (run.hooks !== undefined) {
    const checked = await run.hooks.beforeModelCall(request, setup.model.id, (name) => name);
    if ("failure" in checked) {
      // What the hooks recorded goes to the history with the refusal.
      await run.write([
        event("mcp_sampling", { callId, tool, model: setup.model.id, refused: checked.failure.message }),
      ]);
      throw new Error(`oz0 refuses sampling/createMessage: ${checked.failure.message}`);
    }
    request = checked.request;
  }
  const started = performance.now();
  let reply = await setup.model.generate(request);
  const ms = Math.round((performance.now() - started) * 1000) / 1000;
  if (run.hooks !== undefined) reply = await run.hooks.afterModelCall(history.steps, setup.model.id, reply);
  const text = reply.text ?? (reply.output === undefined ? "" : JSON.stringify(reply.output));
  const usage = {
    input: reply.usage.inputTokens,
    output: reply.usage.outputTokens,
    ...(reply.usage.cachedInputTokens === undefined ? {} : { cached: reply.usage.cachedInputTokens }),
  };
  const agent = `${run.row.plugin}/${run.row.name}`;
  // Recorded before the server gets it, and counted in the tenant's totals in the same
  // transaction, as the store's trigger counts a model_call.
  await run.write(
    [
      event("mcp_sampling", {
        callId,
        tool,
        model: setup.model.id,
        text,
        usage,
        ...(reply.costUsd === undefined ? {} : { cost_usd: reply.costUsd }),
        ms,
      }),
    ],
    undefined,
    async (trx, now) => {
      await trx
        .insertInto("usage_totals")
        .values({
          tenant: run.row.tenant,
          agent,
          model: setup.model.id,
          hour: hourOf(now),
          input_tokens: usage.input,
          output_tokens: usage.output,
          model_calls: 1,
          cost_usd: reply.costUsd ?? 0,
        })
        .onConflict((conflict) =>
          conflict.columns(["tenant", "agent", "model", "hour"]).doUpdateSet({
            input_tokens: sql`usage_totals.input_tokens + excluded.input_tokens`,
            output_tokens: sql`usage_totals.output_tokens + excluded.output_tokens`,
            model_calls: sql`usage_totals.model_calls + 1`,
            cost_usd: sql`usage_totals.cost_usd + excluded.cost_usd`,
          }),
        )
        .execute();
    },
  );
  return { model: setup.model.id, text: run.lease.redactor.text(text), stopReason: "endTurn" };
}
