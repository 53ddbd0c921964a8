// Calls made outside an agent's run, traced like a job's: a function call (`oz0 tool call`, the
// dispatch of an `oz0 mcp serve` call) as an `execute_tool` span, and an MCP client's request
// to `oz0 mcp serve` as the MCP conventions' server span, under the trace context the client
// sent in `params._meta` (W3C traceparent).
import type { Context } from "@opentelemetry/api";
import type { Telemetry } from "./exporter.js";
import { formatTraceparent, GEN_AI, parseTraceparent } from "./spans.js";

/** What the span says of the call. */
export interface CallInfo {
  readonly tenant: string;
  /** The name a model sees the function by. */
  readonly name: string;
  readonly address: string;
  readonly callId: string;
  /** The job that records the call (an MCP call's); undefined for a call outside any job. */
  readonly job: string | undefined;
  readonly args: unknown;
  /** Takes the tenant's secrets out of content before the span carries it. */
  readonly redact: <T>(value: T) => Promise<T>;
  /** The traceparent of the span the call is made under (an MCP request's). */
  readonly parent?: string | undefined;
}

type Outcome =
  | { readonly ok: true; readonly result: unknown }
  | { readonly ok: false; readonly error: { readonly code: string; readonly message: string } };

const STATUS_ERROR = 2;

/** Runs `call` inside an `execute_tool` span; as it is when no telemetry is configured or it fails to load. */
export async function tracedCall<T extends Outcome>(
  telemetry: Telemetry | undefined,
  info: CallInfo,
  call: () => Promise<T>,
): Promise<T> {
  if (telemetry === undefined) return call();
  let loaded: Awaited<ReturnType<Telemetry["load"]>>;
  try {
    loaded = await telemetry.load();
  } catch {
    return call();
  }
  const { api, tracer } = loaded;
  const capture = telemetry.captureContent;
  const span = tracer.startSpan(
    `execute_tool ${info.name}`,
    {
      kind: api.SpanKind.INTERNAL,
      attributes: {
        [GEN_AI.operation]: "execute_tool",
        [GEN_AI.toolName]: info.name,
        [GEN_AI.toolCallId]: info.callId,
        [GEN_AI.toolType]: "function",
        "oz0.tenant": info.tenant,
        "oz0.function.address": info.address,
        ...(info.job === undefined ? {} : { "oz0.job.id": info.job }),
        ...(capture ? { [GEN_AI.toolArguments]: JSON.stringify(await info.redact(info.args)) } : {}),
      },
    },
    above(api, info.parent),
  );
  try {
    const outcome = await call();
    if (!outcome.ok) {
      span.setAttribute(GEN_AI.errorType, outcome.error.code);
      span.setStatus({ code: STATUS_ERROR, message: outcome.error.message });
    }
    if (capture) {
      const shown = outcome.ok ? outcome.result : { error: outcome.error };
      span.setAttribute(GEN_AI.toolResult, JSON.stringify((await info.redact(shown)) ?? null));
    }
    return outcome;
  } catch (error) {
    span.setAttribute(GEN_AI.errorType, error instanceof Error ? error.name : "_OTHER");
    span.setStatus({ code: STATUS_ERROR, message: error instanceof Error ? error.message : String(error) });
    throw error;
  } finally {
    span.end();
  }
}

/** What the MCP server span says of a client's `tools/call` request. */
export interface McpRequestInfo {
  /** The tool's name as the client called it. */
  readonly tool: string;
  readonly requestId: string | number;
  readonly sessionId?: string | undefined;
  /** The request's `params._meta`, where a client puts its trace context. */
  readonly meta?: Readonly<Record<string, unknown>> | undefined;
}

/**
 * Serves one `tools/call` request inside a `tools/call <tool>` SERVER span, a child of the
 * client's span when `_meta.traceparent` names one (a malformed one is ignored, as W3C Trace
 * Context says a receiver does). `serve` gets the span's traceparent for what it calls.
 */
export async function tracedMcpCall<T extends { readonly isError?: boolean | undefined }>(
  telemetry: Telemetry | undefined,
  info: McpRequestInfo,
  serve: (traceparent: string | undefined) => Promise<T>,
): Promise<T> {
  if (telemetry === undefined) return serve(undefined);
  let loaded: Awaited<ReturnType<Telemetry["load"]>>;
  try {
    loaded = await telemetry.load();
  } catch {
    return serve(undefined);
  }
  const { api, tracer } = loaded;
  const sent = info.meta?.traceparent;
  const span = tracer.startSpan(
    `tools/call ${info.tool}`,
    {
      kind: api.SpanKind.SERVER,
      attributes: {
        "mcp.method.name": "tools/call",
        [GEN_AI.operation]: "execute_tool",
        [GEN_AI.toolName]: info.tool,
        "jsonrpc.request.id": String(info.requestId),
        ...(info.sessionId === undefined ? {} : { "mcp.session.id": info.sessionId }),
      },
    },
    above(api, typeof sent === "string" ? sent : undefined),
  );
  try {
    const result = await serve(formatTraceparent(span.spanContext()));
    if (result.isError === true) {
      span.setAttribute(GEN_AI.errorType, "tool_error");
      span.setStatus({ code: STATUS_ERROR });
    }
    return result;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    span.setAttribute(GEN_AI.errorType, code === undefined ? "_OTHER" : String(code));
    span.setStatus({ code: STATUS_ERROR, message: error instanceof Error ? error.message : String(error) });
    throw error;
  } finally {
    span.end();
  }
}

/** The context a span starts under: the one `traceparent` names, else a new trace. */
function above(api: typeof import("@opentelemetry/api"), traceparent: string | undefined): Context {
  const parent = traceparent === undefined ? undefined : parseTraceparent(traceparent);
  return parent === undefined ? api.ROOT_CONTEXT : api.trace.setSpanContext(api.ROOT_CONTEXT, parent);
}
