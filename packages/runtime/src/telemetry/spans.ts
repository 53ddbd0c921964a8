// A job run as OpenTelemetry spans, read off the events the run writes (the trace and the
// spans are two views of one history): an `invoke_agent` span per claim of the job, a `chat`
// span per model call and an `execute_tool` span per function call inside it, with the GenAI
// semantic conventions' attributes. Governance events become events of the run's span.
import type { Attributes, Context, Span } from "@opentelemetry/api";
import type { NewEvent } from "../jobs/events.js";
import type { Telemetry } from "./exporter.js";

/** The GenAI semantic conventions' attribute names and values oz0 sets (OpenTelemetry semconv 1.3x). */
export const GEN_AI = {
  operation: "gen_ai.operation.name",
  provider: "gen_ai.provider.name",
  requestModel: "gen_ai.request.model",
  inputTokens: "gen_ai.usage.input_tokens",
  outputTokens: "gen_ai.usage.output_tokens",
  finishReasons: "gen_ai.response.finish_reasons",
  agentName: "gen_ai.agent.name",
  agentId: "gen_ai.agent.id",
  conversationId: "gen_ai.conversation.id",
  toolName: "gen_ai.tool.name",
  toolCallId: "gen_ai.tool.call.id",
  toolType: "gen_ai.tool.type",
  errorType: "error.type",
} as const;

/** What a run's spans need to know of its job. */
export interface RunInfo {
  readonly jobId: string;
  readonly tenant: string;
  /** `<plugin>/<agent>`. */
  readonly agent: string;
  readonly attempt: number;
  readonly parentJobId?: string | null | undefined;
}

/** The spans of one run; `event` sees each event the run writes, `end` closes the run's span. */
export interface RunSpans {
  event(entry: NewEvent): void;
  end(): void;
}

const STATUS_ERROR = 2;

/** Starts the run's span, loading OpenTelemetry at the first run. */
export async function startRunSpans(telemetry: Telemetry, info: RunInfo): Promise<RunSpans> {
  const { api, tracer } = await telemetry.load();
  const run = tracer.startSpan(`invoke_agent ${info.agent}`, {
    kind: api.SpanKind.INTERNAL,
    attributes: {
      [GEN_AI.operation]: "invoke_agent",
      [GEN_AI.agentName]: info.agent,
      [GEN_AI.agentId]: info.agent,
      [GEN_AI.conversationId]: info.jobId,
      "oz0.job.id": info.jobId,
      "oz0.tenant": info.tenant,
      "oz0.job.attempt": info.attempt,
      ...(info.parentJobId ? { "oz0.job.parent_id": info.parentJobId } : {}),
    },
  });
  const parent: Context = api.trace.setSpan(api.context.active(), run);
  const tools = new Map<string, Span>();
  let input = 0;
  let output = 0;
  let ended = false;

  const child = (name: string, attributes: Attributes, startTime?: number): Span =>
    tracer.startSpan(
      name,
      { kind: api.SpanKind.CLIENT, attributes, ...(startTime === undefined ? {} : { startTime }) },
      parent,
    );

  return {
    event(entry) {
      if (ended) return;
      const now = Date.now();
      switch (entry.kind) {
        case "model_call": {
          const { model, usage, ms, calls } = entry.data;
          const colon = model.indexOf(":");
          const span = child(
            `chat ${colon < 0 ? model : model.slice(colon + 1)}`,
            {
              [GEN_AI.operation]: "chat",
              [GEN_AI.provider]: colon < 0 ? model : model.slice(0, colon),
              [GEN_AI.requestModel]: colon < 0 ? model : model.slice(colon + 1),
              [GEN_AI.inputTokens]: usage.input,
              [GEN_AI.outputTokens]: usage.output,
              [GEN_AI.finishReasons]: [calls.length > 0 ? "tool_calls" : "stop"],
              "oz0.step": entry.data.step,
            },
            now - ms,
          );
          span.end(now);
          input += usage.input;
          output += usage.output;
          return;
        }
        case "tool_call": {
          const { callId, name, address } = entry.data;
          tools.get(callId)?.end(now);
          tools.set(
            callId,
            child(`execute_tool ${name}`, {
              [GEN_AI.operation]: "execute_tool",
              [GEN_AI.toolName]: name,
              [GEN_AI.toolCallId]: callId,
              [GEN_AI.toolType]: "function",
              "oz0.function.address": address,
              "oz0.tool_call.attempt": entry.data.attempt,
            }),
          );
          return;
        }
        case "tool_result": {
          const span = tools.get(entry.data.callId);
          if (span === undefined) return;
          tools.delete(entry.data.callId);
          if (!entry.data.ok) {
            span.setAttribute(GEN_AI.errorType, entry.data.error?.code ?? "error");
            span.setStatus({ code: STATUS_ERROR, message: entry.data.error?.message ?? "" });
          }
          span.end(now);
          return;
        }
        case "governance_checked":
        case "governance_denied":
        case "hook_error":
          run.addEvent(entry.kind, flatten(entry.data), now);
          return;
        case "job_failed":
        case "job_dead":
          run.setAttribute(GEN_AI.errorType, entry.data.kind);
          run.setStatus({ code: STATUS_ERROR, message: entry.data.message });
          run.setAttribute("oz0.job.status", entry.kind === "job_failed" ? "failed" : "dead");
          return;
        case "job_succeeded":
          run.setAttribute("oz0.job.status", "succeeded");
          return;
        case "job_cancelled":
          run.setAttribute("oz0.job.status", "cancelled");
          return;
        case "job_waiting":
          run.setAttribute("oz0.job.status", "waiting");
          return;
        default:
          return;
      }
    },
    end() {
      if (ended) return;
      ended = true;
      const now = Date.now();
      for (const span of tools.values()) span.end(now);
      run.setAttribute(GEN_AI.inputTokens, input);
      run.setAttribute(GEN_AI.outputTokens, output);
      run.end(now);
    },
  };
}

/** Event data as span-event attributes: scalars as they are, anything else as JSON. */
function flatten(data: object): Attributes {
  const attributes: Attributes = {};
  for (const [key, value] of Object.entries(data)) {
    attributes[key] =
      typeof value === "string" || typeof value === "number" || typeof value === "boolean"
        ? value
        : JSON.stringify(value);
  }
  return attributes;
}

/**
 * The listeners of a run with its spans watching the same events, or the listeners as they
 * are when no telemetry is configured. A telemetry failure never fails a job: the run goes on
 * without spans.
 */
export async function tracedRun<L extends { readonly onEvent?: ((entry: NewEvent) => void) | undefined }>(
  telemetry: Telemetry | undefined,
  info: RunInfo,
  listeners: L,
): Promise<{ readonly listeners: L; readonly spans: RunSpans | undefined }> {
  if (telemetry === undefined) return { listeners, spans: undefined };
  let spans: RunSpans;
  try {
    spans = await startRunSpans(telemetry, info);
  } catch {
    return { listeners, spans: undefined };
  }
  const onEvent = listeners.onEvent;
  return {
    spans,
    listeners: {
      ...listeners,
      onEvent: (entry: NewEvent) => {
        spans.event(entry);
        onEvent?.(entry);
      },
    },
  };
}
