// Where spans go: an OTLP/HTTP endpoint from the runtime's options, else from the standard
// OpenTelemetry environment variables. Nothing configured, nothing is loaded or exported.

export interface TelemetryOptions {
  /**
   * The OTLP/HTTP endpoint, as OTEL_EXPORTER_OTLP_ENDPOINT takes it (`http://127.0.0.1:4318`):
   * traces go to `<endpoint>/v1/traces`.
   */
  readonly endpoint?: string | undefined;
  /** The full traces URL, as OTEL_EXPORTER_OTLP_TRACES_ENDPOINT takes it; wins over `endpoint`. */
  readonly tracesUrl?: string | undefined;
  /** `service.name` of the exported spans; `oz0` when left out. */
  readonly serviceName?: string | undefined;
  /** How long spans wait to be sent together; 1 s when left out. `flush()` sends at once. */
  readonly batchDelayMs?: number | undefined;
  /**
   * How long one export may take, retries included, before its spans are dropped; 3 s when
   * left out, so a collector that is down never holds a finished command for long.
   */
  readonly exportTimeoutMs?: number | undefined;
}

/**
 * The traces URL the options or the environment configure, or undefined for none.
 * OTEL_SDK_DISABLED=true and OTEL_TRACES_EXPORTER=none switch the export off.
 */
export function tracesUrl(
  options: TelemetryOptions = {},
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  if (options.tracesUrl !== undefined && options.tracesUrl !== "") return options.tracesUrl;
  if (options.endpoint !== undefined && options.endpoint !== "") return signalUrl(options.endpoint);
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return undefined;
  if (env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() === "none") return undefined;
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  if (traces !== undefined && traces !== "") return traces;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  return base !== undefined && base !== "" ? signalUrl(base) : undefined;
}

function signalUrl(endpoint: string): string {
  return `${endpoint.replace(/\/+$/, "")}/v1/traces`;
}
