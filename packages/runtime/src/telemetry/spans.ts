// A job run as OpenTelemetry spans, with the GenAI semantic conventions' names: an
// `invoke_agent` (or, for a flow, `invoke_workflow`) span per claim of the job, a `chat` span
// around each model call and an `execute_tool` span per function call inside it. Every run of
// a job continues the trace context stored with the job (its parent job's, or its first run's),
// so runs in other processes, resumes after a crash and child jobs make one trace. Governance
// events become events of the run's span. Message content is exported only on opt-in.
import type { Attributes, Context, Span, SpanContext } from "@opentelemetry/api";
import { Oz0Error } from "@oz0/sdk";
import type { NewEvent } from "../events/index.js";
import type {
  LanguageModel,
  ModelMessage,
  ModelReply,
  ModelRequest,
  ModelResolver,
} from "../models/index.js";
import type { Telemetry } from "./exporter.js";

/** The GenAI semantic conventions' attribute names oz0 sets, as @opentelemetry/semantic-conventions 1.45 names them. */
export const GEN_AI = {
  operation: "gen_ai.operation.name",
  provider: "gen_ai.provider.name",
  requestModel: "gen_ai.request.model",
  responseModel: "gen_ai.response.model",
  responseId: "gen_ai.response.id",
  inputTokens: "gen_ai.usage.input_tokens",
  outputTokens: "gen_ai.usage.output_tokens",
  cacheReadTokens: "gen_ai.usage.cache_read.input_tokens",
  cacheWriteTokens: "gen_ai.usage.cache_creation.input_tokens",
  finishReasons: "gen_ai.response.finish_reasons",
  agentName: "gen_ai.agent.name",
  agentId: "gen_ai.agent.id",
  workflowName: "gen_ai.workflow.name",
  conversationId: "gen_ai.conversation.id",
  toolName: "gen_ai.tool.name",
  toolCallId: "gen_ai.tool.call.id",
  toolType: "gen_ai.tool.type",
  toolArguments: "gen_ai.tool.call.arguments",
  toolResult: "gen_ai.tool.call.result",
  systemInstructions: "gen_ai.system_instructions",
  inputMessages: "gen_ai.input.messages",
  outputMessages: "gen_ai.output.messages",
  serverAddress: "server.address",
  serverPort: "server.port",
  errorType: "error.type",
} as const;

/** What a run's spans need to know of its job. */
export interface RunInfo {
  readonly jobId: string;
  readonly tenant: string;
  /** `<plugin>/<agent>` or `<plugin>/<flow>`. */
  readonly agent: string;
  readonly kind: "agent" | "flow";
  readonly attempt: number;
  readonly parentJobId?: string | null | undefined;
  /** The trace context stored with the job; null when no run of it was traced yet. */
  readonly traceparent: string | null;
  /** Takes the tenant's secrets out of content before a span carries it. */
  readonly redact: <T>(value: T) => T;
}

/** The spans of one run. */
export interface RunSpans {
  /** The run span's W3C traceparent. */
  readonly traceparent: string;
  /** Sees each event the run writes. */
  event(entry: NewEvent): void;
  /** The traceparent a child job started by the call or step `callId` continues. */
  childTraceparent(callId: string): string;
  /** `resolver` with each model it gives calling inside a `chat` span of this run. */
  models(resolver: ModelResolver): ModelResolver;
  /** Closes the run's span. */
  end(): void;
}

const STATUS_ERROR = 2;
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** `context` as a W3C traceparent header value. */
export function formatTraceparent(context: SpanContext): string {
  return `00-${context.traceId}-${context.spanId}-${context.traceFlags.toString(16).padStart(2, "0")}`;
}

/** The span context a W3C traceparent names, or undefined for text that is not one. */
export function parseTraceparent(text: string): SpanContext | undefined {
  const match = TRACEPARENT.exec(text.trim());
  if (match === null || /^0+$/.test(match[1]!) || /^0+$/.test(match[2]!)) return undefined;
  return {
    traceId: match[1]!,
    spanId: match[2]!,
    traceFlags: Number.parseInt(match[3]!, 16),
    isRemote: true,
  };
}

/** `text` as a traceparent to store, or INVALID_TELEMETRY saying what one looks like. */
export function checkedTraceparent(text: string): string {
  if (parseTraceparent(text) !== undefined) return text.trim();
  throw new Oz0Error(
    "INVALID_TELEMETRY",
    `traceparent '${text}' is not a W3C traceparent: it is 00-<32 hex trace ID>-<16 hex span ID>-<2 hex flags>, ` +
      "the IDs not all zeros (00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01).",
    { data: { variable: "traceparent" } },
  );
}

/** Starts the run's span, loading OpenTelemetry at the first run. */
export async function startRunSpans(telemetry: Telemetry, info: RunInfo): Promise<RunSpans> {
  const { api, tracer } = await telemetry.load();
  const stored = info.traceparent === null ? undefined : parseTraceparent(info.traceparent);
  const above = stored === undefined ? api.ROOT_CONTEXT : api.trace.setSpanContext(api.ROOT_CONTEXT, stored);
  const operation = info.kind === "flow" ? "invoke_workflow" : "invoke_agent";
  const run = tracer.startSpan(
    `${operation} ${info.agent}`,
    {
      kind: api.SpanKind.INTERNAL,
      attributes: {
        [GEN_AI.operation]: operation,
        ...(info.kind === "flow"
          ? { [GEN_AI.workflowName]: info.agent }
          : { [GEN_AI.agentName]: info.agent, [GEN_AI.agentId]: info.agent }),
        [GEN_AI.conversationId]: info.jobId,
        "oz0.job.id": info.jobId,
        "oz0.tenant": info.tenant,
        "oz0.job.attempt": info.attempt,
        ...(info.parentJobId ? { "oz0.job.parent_id": info.parentJobId } : {}),
      },
    },
    above,
  );
  const parent: Context = api.trace.setSpan(api.ROOT_CONTEXT, run);
  const capture = telemetry.captureContent;
  const tools = new Map<string, Span>();
  // What the model said of each call: its own id for it, and its arguments.
  const asked = new Map<string, { readonly wireId?: string | undefined; readonly args: unknown }>();
  let input = 0;
  let output = 0;
  let ended = false;

  const child = (name: string, kind: number, attributes: Attributes): Span =>
    tracer.startSpan(name, { kind, attributes }, parent);

  const chat = (model: LanguageModel): LanguageModel => ({
    ...model,
    generate: async (request) => {
      const span = child(`chat ${modelName(model)}`, api.SpanKind.CLIENT, {
        ...modelAttributes(model),
        "oz0.step": request.step,
        ...(capture ? inputContent(info.redact(request.messages)) : {}),
      });
      let reply: ModelReply;
      try {
        reply = await model.generate(request);
      } catch (error) {
        span.setAttribute(GEN_AI.errorType, errorType(error));
        span.setStatus({
          code: STATUS_ERROR,
          message: error instanceof Error ? error.message : String(error),
        });
        span.end();
        throw error;
      }
      const finish = reply.calls.length > 0 ? "tool_calls" : "stop";
      span.setAttributes({
        ...(reply.response?.id === undefined ? {} : { [GEN_AI.responseId]: reply.response.id }),
        ...(reply.response?.model === undefined ? {} : { [GEN_AI.responseModel]: reply.response.model }),
        [GEN_AI.inputTokens]: reply.usage.inputTokens,
        [GEN_AI.outputTokens]: reply.usage.outputTokens,
        ...(reply.usage.cachedInputTokens === undefined
          ? {}
          : { [GEN_AI.cacheReadTokens]: reply.usage.cachedInputTokens }),
        ...(reply.usage.cacheWriteInputTokens === undefined
          ? {}
          : { [GEN_AI.cacheWriteTokens]: reply.usage.cacheWriteInputTokens }),
        [GEN_AI.finishReasons]: [finish],
        ...(capture ? outputContent(info.redact(reply), request, finish) : {}),
      });
      span.end();
      return reply;
    },
  });

  return {
    traceparent: formatTraceparent(run.spanContext()),
    event(entry) {
      if (ended) return;
      const now = Date.now();
      switch (entry.kind) {
        case "model_call":
          for (const call of entry.data.calls) asked.set(call.id, { wireId: call.wireId, args: call.args });
          input += entry.data.usage.input;
          output += entry.data.usage.output;
          return;
        case "tool_call": {
          const { callId, name, address } = entry.data;
          tools.get(callId)?.end(now);
          const said = asked.get(callId);
          tools.set(
            callId,
            child(`execute_tool ${name}`, api.SpanKind.INTERNAL, {
              [GEN_AI.operation]: "execute_tool",
              [GEN_AI.toolName]: name,
              [GEN_AI.toolCallId]: said?.wireId ?? callId,
              [GEN_AI.toolType]: "function",
              "oz0.tool_call.id": callId,
              "oz0.function.address": address,
              "oz0.tool_call.attempt": entry.data.attempt,
              ...(capture && said !== undefined ? { [GEN_AI.toolArguments]: json(said.args) } : {}),
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
          if (capture) {
            span.setAttribute(
              GEN_AI.toolResult,
              json(entry.data.ok ? entry.data.result : { error: entry.data.error }),
            );
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
    childTraceparent(callId) {
      return formatTraceparent((tools.get(callId) ?? run).spanContext());
    },
    models(resolver) {
      return async (choice, context) => {
        const model = await resolver(choice, context);
        // The agent's span names who serves its model, as the conventions require of it.
        const { [GEN_AI.provider]: provider, [GEN_AI.requestModel]: requested } = modelAttributes(model);
        run.setAttributes({ [GEN_AI.provider]: provider, [GEN_AI.requestModel]: requested });
        return chat(model);
      };
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

/** The model's name without its provider: `gpt-5` of `openai:gpt-5`. */
function modelName(model: LanguageModel): string {
  const colon = model.id.indexOf(":");
  return colon < 0 ? model.id : model.id.slice(colon + 1);
}

function modelAttributes(model: LanguageModel): Attributes {
  const colon = model.id.indexOf(":");
  const attributes: Attributes = {
    [GEN_AI.operation]: "chat",
    [GEN_AI.provider]: model.provider?.name ?? (colon < 0 ? model.id : model.id.slice(0, colon)),
    [GEN_AI.requestModel]: modelName(model),
  };
  const url = model.provider?.url;
  if (url === undefined) return attributes;
  try {
    const parsed = new URL(url);
    attributes[GEN_AI.serverAddress] = parsed.hostname.replace(/^\[(.*)\]$/, "$1");
    attributes[GEN_AI.serverPort] =
      parsed.port !== "" ? Number(parsed.port) : parsed.protocol === "http:" ? 80 : 443;
  } catch {
    // A base URL that does not parse was refused when the call was made; the span just lacks the server.
  }
  return attributes;
}

/** The error's code (an Oz0Error's, or a system error's), else its class name. */
function errorType(error: unknown): string {
  if (typeof error === "object" && error !== null) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === "string" && code !== "") return code;
    if (error instanceof Error) return error.name;
  }
  return "_OTHER";
}

/** The request's messages as the conventions' `gen_ai.system_instructions` and `gen_ai.input.messages`. */
function inputContent(messages: readonly ModelMessage[]): Attributes {
  const system = messages.filter((message) => message.role === "system");
  // A call goes by the model's own id for it, as its execute_tool span does.
  const wireIds = new Map<string, string>();
  for (const message of messages) {
    if (message.role !== "assistant") continue;
    for (const call of message.calls) if (call.wireId !== undefined) wireIds.set(call.id, call.wireId);
  }
  const rest = messages
    .filter((message) => message.role !== "system")
    .map((message) => toConventionMessage(message, (id) => wireIds.get(id) ?? id));
  return {
    ...(system.length === 0
      ? {}
      : {
          [GEN_AI.systemInstructions]: json(
            system.map((message) => ({ type: "text", content: message.content })),
          ),
        }),
    [GEN_AI.inputMessages]: json(rest),
  };
}

function outputContent(reply: ModelReply, request: ModelRequest, finish: string): Attributes {
  const parts: unknown[] = [];
  if (reply.text !== undefined && reply.text !== "") parts.push({ type: "text", content: reply.text });
  if (reply.output !== undefined) parts.push({ type: "text", content: json(reply.output) });
  reply.calls.forEach((call, index) => {
    parts.push({
      type: "tool_call",
      id: call.wireId ?? `${request.step}.${index + 1}`,
      name: call.name,
      arguments: call.args,
    });
  });
  return { [GEN_AI.outputMessages]: json([{ role: "assistant", parts, finish_reason: finish }]) };
}

function toConventionMessage(
  message: Exclude<ModelMessage, { role: "system" }>,
  idOf: (callId: string) => string,
): unknown {
  switch (message.role) {
    case "user":
      return { role: "user", parts: [{ type: "text", content: message.content }] };
    case "assistant":
      return {
        role: "assistant",
        parts: [
          ...(message.text === undefined || message.text === ""
            ? []
            : [{ type: "text", content: message.text }]),
          ...(message.output === undefined ? [] : [{ type: "text", content: json(message.output) }]),
          ...message.calls.map((call) => ({
            type: "tool_call",
            id: idOf(call.id),
            name: call.name,
            arguments: call.args,
          })),
        ],
      };
    case "tool":
      return {
        role: "tool",
        parts: [{ type: "tool_call_response", id: idOf(message.callId), response: message.content }],
      };
  }
}

function json(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value ?? null);
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
 * are when no telemetry is configured. A job that had no trace context keeps its first traced
 * run's (`keep`), so its later runs join that trace. A telemetry failure never fails a job:
 * the run goes on without spans.
 */
export async function tracedRun<L extends { readonly onEvent?: ((entry: NewEvent) => void) | undefined }>(
  telemetry: Telemetry | undefined,
  info: RunInfo,
  listeners: L,
  keep: (traceparent: string) => Promise<void>,
): Promise<{ readonly listeners: L; readonly spans: RunSpans | undefined }> {
  if (telemetry === undefined) return { listeners, spans: undefined };
  let spans: RunSpans;
  try {
    spans = await startRunSpans(telemetry, info);
  } catch {
    return { listeners, spans: undefined };
  }
  if (info.traceparent === null) await keep(spans.traceparent).catch(() => {});
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
