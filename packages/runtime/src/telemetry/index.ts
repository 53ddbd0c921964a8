// Telemetry: job runs, model calls and tool calls exported as OpenTelemetry spans (GenAI
// semantic conventions) when an OTLP endpoint is configured; nothing is loaded otherwise.
export { type CallInfo, type McpRequestInfo, tracedCall, tracedMcpCall } from "./calls.js";
export { optionsFromEnv, type TelemetryOptions, tracesUrl } from "./config.js";
export { Telemetry, TRACER_NAME } from "./exporter.js";
export {
  checkedTraceparent,
  formatTraceparent,
  GEN_AI,
  parseTraceparent,
  type RunInfo,
  type RunSpans,
  startRunSpans,
  tracedRun,
} from "./spans.js";
