// What a job gives the MCP server behind one of its calls: the job's roots, its model for a
// server's sampling request (through the job's limits, its pre_llm_call and post_llm_call hooks
// and its price, recorded as `mcp_sampling` and counted in the job's and the tenant's usage),
// and its history for the server's progress and log notifications (`mcp_progress`, `mcp_log`).
// A server's elicitation becomes a person's question: a job waits for a person only between
// steps, as a state in the store, never with a call held open, so the server is told the form
// was dismissed, the call's result is set aside, and the job waits (`mcp_elicitation`). Once
// the person answers (`elicitation_answered`), the call runs again with the same key, and the
// server's same request gets the recorded answer.
import { event, type NewEvent } from "../events/index.js";
import { estimateTokens, type ModelMessage, type ModelRequest } from "../models/index.js";
import {
  argumentIssues,
  formatIssues,
  type McpCallHost,
  type McpElicitation,
  type McpSamplingReply,
  type McpSamplingRequest,
  toolContext,
} from "../tools/index.js";
import type { JobRun } from "./job-run.js";
import type { AgentSetup } from "./setup.js";
import { sideModelCall } from "./side-call.js";

/** The most progress and log notifications one call records each; the rest are counted, not kept. */
export const MCP_NOTICES_PER_CALL = 100;

/** A form a server asked a person to fill during a call, which the recorded answers do not answer yet. */
export interface ParkedElicitation extends McpElicitation {
  readonly tool: string;
}

/** A job's host of one call; `parked` is set once a server asked for a form no one has answered. */
export interface JobMcpHost extends McpCallHost {
  readonly parked: ParkedElicitation | undefined;
}

/** The host of call `callId` of the job `run` runs. */
export function jobMcpHost(run: JobRun, setup: AgentSetup, callId: string): JobMcpHost {
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
  let parked: ParkedElicitation | undefined;
  // Answers are taken in order, so a call that asks twice gets each its own.
  let answeredUpTo = 0;
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
    elicit: async (tool, request) => {
      const answered = run.history.pending.get(callId)?.elicited ?? [];
      const index = answered.findIndex(
        (answer, at) => at >= answeredUpTo && answer.message === request.message,
      );
      const answer = answered[index];
      if (answer !== undefined && parked === undefined) {
        answeredUpTo = index + 1;
        return { action: "accept", content: answer.content };
      }
      parked ??= { tool, ...request };
      // "cancel" is the dismissed form: the server ends the call, whose result is set aside.
      return { action: "cancel" };
    },
    get parked() {
      return parked;
    },
    settle: () => chain,
  };
}

/**
 * The form content a person's answer gives a server that asked with `schema`: a JSON object,
 * or, for a form of one text field, the text itself; fields left out take the form's defaults.
 * @example elicitationContent({ type: "object", properties: { name: { type: "string" } } }, "Ada")
 * // { content: { name: "Ada" } }
 */
export function elicitationContent(
  schema: Readonly<Record<string, unknown>>,
  answer: string,
): { readonly content: Record<string, unknown> } | { readonly problem: string } {
  const properties = (schema.properties ?? {}) as Record<string, { type?: unknown; default?: unknown }>;
  const fields = Object.keys(properties);
  const text = answer.trim();
  let given: unknown;
  if (text.startsWith("{")) {
    try {
      given = JSON.parse(text);
    } catch (error) {
      return { problem: `the answer is not valid JSON (${(error as Error).message})` };
    }
  } else if (fields.length === 1 && properties[fields[0] as string]?.type === "string") {
    given = { [fields[0] as string]: answer };
  } else {
    return {
      problem: `the form asks for ${fields.join(", ") || "no fields"}: answer with a JSON object of them`,
    };
  }
  const content: Record<string, unknown> = { ...(given as Record<string, unknown>) };
  for (const [field, property] of Object.entries(properties)) {
    if (!(field in content) && property.default !== undefined) content[field] = property.default;
  }
  const issues = argumentIssues(schema as Parameters<typeof argumentIssues>[0], content);
  return issues.length === 0
    ? { content }
    : { problem: `the answer does not fill the form: ${formatIssues(issues)}` };
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
  const request: ModelRequest = {
    step: history.steps,
    messages,
    functions: [],
    estimatedInputTokens: tokens,
    signal: AbortSignal.any([run.signal, signal]),
    sampling: true,
    maxOutputTokens: asked.maxTokens,
  };
  const called = await sideModelCall(run, setup, setup.model, request, (fields) =>
    event("mcp_sampling", { callId, tool, ...fields }),
  );
  if ("failure" in called) throw new Error(`oz0 refuses sampling/createMessage: ${called.failure.message}`);
  return {
    model: called.model,
    text: run.lease.redactor.text(called.text),
    stopReason: called.reply.cutShort === true ? "maxTokens" : "endTurn",
  };
}

/** A form's fields as a person reads them: name, type, and whether it is required. */
export function formFields(schema: Readonly<Record<string, unknown>>): string {
  const properties = (schema.properties ?? {}) as Record<string, { type?: unknown }>;
  const required = new Set((schema.required ?? []) as string[]);
  const fields = Object.entries(properties).map(
    ([field, property]) =>
      `${field} (${String(property.type ?? "any")}${required.has(field) ? ", required" : ""})`,
  );
  return fields.join(", ") || "none";
}
