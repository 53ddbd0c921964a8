// Telemetry: job runs, model calls and tool calls exported as OpenTelemetry spans (GenAI
// semantic conventions) when an OTLP endpoint is configured; nothing is loaded otherwise.
export { type TelemetryOptions, tracesUrl } from "./config.js";
export { Telemetry, TRACER_NAME } from "./exporter.js";
export { GEN_AI, type RunInfo, type RunSpans, startRunSpans, tracedRun } from "./spans.js";
