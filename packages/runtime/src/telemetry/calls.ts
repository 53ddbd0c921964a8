// A function call made outside an agent's run (`oz0 tool call`, a call of an `oz0 mcp serve`
// client) as an `execute_tool` span of its own, so those calls are traced like a job's.
import type { Telemetry } from "./exporter.js";
import { GEN_AI } from "./spans.js";

/** What the span says of the call. */
export interface CallInfo {
  readonly tenant: string;
  /** The name a model sees the function by. */
  readonly name: string;
  readonly address: string;
  readonly callId: string;
  /** The job that records the call (an MCP call's), or "" for none. */
  readonly jobId: string;
  readonly args: unknown;
  /** Takes the tenant's secrets out of content before the span carries it. */
  readonly redact: <T>(value: T) => Promise<T>;
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
        ...(info.jobId === "" ? {} : { "oz0.job.id": info.jobId }),
        ...(capture ? { [GEN_AI.toolArguments]: JSON.stringify(await info.redact(info.args)) } : {}),
      },
    },
    api.ROOT_CONTEXT,
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
