// Where spans go and what they carry: an OTLP/HTTP endpoint from the runtime's options, else
// from the standard OpenTelemetry environment variables (endpoint, headers, timeout, service
// name, resource attributes, sampler, and the GenAI conventions' opt-in to message content).
// Nothing configured, nothing is loaded or exported.
import { Oz0Error } from "@oz0/sdk";

/** The samplers OTEL_TRACES_SAMPLER names that oz0 builds. */
export const SAMPLERS = [
  "always_on",
  "always_off",
  "traceidratio",
  "parentbased_always_on",
  "parentbased_always_off",
  "parentbased_traceidratio",
] as const;
export type SamplerName = (typeof SAMPLERS)[number];

/** The OTLP encodings OTEL_EXPORTER_OTLP_PROTOCOL names that oz0 sends over HTTP. */
export const PROTOCOLS = ["http/json", "http/protobuf"] as const;
export type Protocol = (typeof PROTOCOLS)[number];

export interface TelemetryOptions {
  /**
   * The OTLP/HTTP endpoint, as OTEL_EXPORTER_OTLP_ENDPOINT takes it (`http://127.0.0.1:4318`):
   * traces go to `<endpoint>/v1/traces`.
   */
  readonly endpoint?: string | undefined;
  /** The full traces URL, as OTEL_EXPORTER_OTLP_TRACES_ENDPOINT takes it; wins over `endpoint`. */
  readonly tracesUrl?: string | undefined;
  /** `service.name` of the exported spans; OTEL_SERVICE_NAME, else `oz0`, when left out. */
  readonly serviceName?: string | undefined;
  /** More resource attributes, as OTEL_RESOURCE_ATTRIBUTES gives them. */
  readonly resource?: Readonly<Record<string, string>> | undefined;
  /** How spans are encoded, as OTEL_EXPORTER_OTLP_PROTOCOL says; `http/json` when left out. */
  readonly protocol?: Protocol | undefined;
  /** Headers every export sends, as OTEL_EXPORTER_OTLP_HEADERS gives them (an API key). */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** Which spans are kept, as OTEL_TRACES_SAMPLER and its argument say; parent-based always-on when left out. */
  readonly sampler?: { readonly name: SamplerName; readonly ratio: number } | undefined;
  /**
   * Whether spans carry message content (prompts, answers, tool arguments and results), as
   * OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true asks; off when left out.
   */
  readonly captureContent?: boolean | undefined;
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

/**
 * The options the standard variables set, under those given (which win). An unknown
 * sampler or a ratio out of [0, 1] is refused: the operator asked for something oz0 would
 * not do.
 */
export function optionsFromEnv(
  options: TelemetryOptions,
  env: NodeJS.ProcessEnv = process.env,
): TelemetryOptions {
  const timeout = Number(env.OTEL_EXPORTER_OTLP_TRACES_TIMEOUT ?? env.OTEL_EXPORTER_OTLP_TIMEOUT);
  const service = env.OTEL_SERVICE_NAME?.trim();
  const headers = {
    ...keyValues(env.OTEL_EXPORTER_OTLP_HEADERS, "OTEL_EXPORTER_OTLP_HEADERS"),
    ...keyValues(env.OTEL_EXPORTER_OTLP_TRACES_HEADERS, "OTEL_EXPORTER_OTLP_TRACES_HEADERS"),
  };
  const resource = keyValues(env.OTEL_RESOURCE_ATTRIBUTES, "OTEL_RESOURCE_ATTRIBUTES");
  const sampler = samplerOf(env.OTEL_TRACES_SAMPLER, env.OTEL_TRACES_SAMPLER_ARG);
  const protocol = protocolOf(env);
  const capture = env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT?.trim().toLowerCase();
  return {
    ...(Number.isFinite(timeout) && timeout > 0 ? { exportTimeoutMs: timeout } : {}),
    ...(service === undefined || service === "" ? {} : { serviceName: service }),
    ...(Object.keys(headers).length === 0 ? {} : { headers }),
    ...(Object.keys(resource).length === 0 ? {} : { resource }),
    ...(sampler === undefined ? {} : { sampler }),
    ...(protocol === undefined ? {} : { protocol }),
    ...(capture === undefined ? {} : { captureContent: capture === "true" }),
    ...definedOf(options),
  };
}

function definedOf(options: TelemetryOptions): TelemetryOptions {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
}

/** `key=value,key=value` with percent-encoded values, as the OpenTelemetry variables write them. */
function keyValues(text: string | undefined, variable: string): Record<string, string> {
  const pairs: Record<string, string> = {};
  for (const item of (text ?? "").split(",")) {
    if (item.trim() === "") continue;
    const equals = item.indexOf("=");
    const key = equals < 0 ? "" : item.slice(0, equals).trim();
    if (key === "") throw invalid(variable, `'${item.trim()}' is not key=value`);
    try {
      pairs[decodeURIComponent(key)] = decodeURIComponent(item.slice(equals + 1).trim());
    } catch {
      throw invalid(variable, `'${item.trim()}' has a malformed %-escape`);
    }
  }
  return pairs;
}

function samplerOf(
  name: string | undefined,
  arg: string | undefined,
): TelemetryOptions["sampler"] | undefined {
  const chosen = name?.trim().toLowerCase();
  if (chosen === undefined || chosen === "") return undefined;
  if (!(SAMPLERS as readonly string[]).includes(chosen)) {
    throw invalid(
      "OTEL_TRACES_SAMPLER",
      `'${name}' is not a sampler oz0 has (it has: ${SAMPLERS.join(", ")})`,
    );
  }
  const ratio = arg === undefined || arg.trim() === "" ? 1 : Number(arg);
  if (chosen.endsWith("traceidratio") && !(ratio >= 0 && ratio <= 1)) {
    throw invalid("OTEL_TRACES_SAMPLER_ARG", `'${arg}' is not a ratio from 0 to 1`);
  }
  return { name: chosen as SamplerName, ratio };
}

function protocolOf(env: NodeJS.ProcessEnv): Protocol | undefined {
  const variable = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL?.trim()
    ? "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"
    : "OTEL_EXPORTER_OTLP_PROTOCOL";
  const chosen = env[variable]?.trim().toLowerCase();
  if (chosen === undefined || chosen === "") return undefined;
  if ((PROTOCOLS as readonly string[]).includes(chosen)) return chosen as Protocol;
  throw invalid(
    variable,
    chosen === "grpc"
      ? "oz0 exports OTLP over HTTP only, not gRPC; set http/protobuf or http/json and point the endpoint at the collector's HTTP port (4318)"
      : `'${env[variable]}' is not a protocol oz0 has (it has: ${PROTOCOLS.join(", ")})`,
  );
}

function invalid(variable: string, problem: string): Oz0Error {
  return new Oz0Error(
    "INVALID_TELEMETRY",
    `${variable}: ${problem}. Fix the variable, or unset it to use OpenTelemetry's default.`,
    { data: { variable } },
  );
}
