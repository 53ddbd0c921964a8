// The OpenTelemetry side of oz0's traces: a tracer provider exporting over OTLP/HTTP (JSON, or
// protobuf when asked), loaded on first use only, so a runtime without an endpoint never
// imports the OpenTelemetry packages.
import type { Tracer } from "@opentelemetry/api";
import { optionsFromEnv, type TelemetryOptions, tracesUrl } from "./config.js";

/** The tracer oz0 names its spans with. */
export const TRACER_NAME = "oz0";

interface Loaded {
  readonly tracer: Tracer;
  readonly api: typeof import("@opentelemetry/api");
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

/** One OTLP export target for the process's job runs. */
export class Telemetry {
  readonly url: string;
  /** Whether spans carry message content: the operator opted in. */
  readonly captureContent: boolean;
  readonly #options: TelemetryOptions;
  #loaded: Promise<Loaded> | undefined;

  constructor(url: string, options: TelemetryOptions = {}) {
    this.url = url;
    this.captureContent = options.captureContent === true;
    this.#options = options;
  }

  /**
   * Telemetry to the endpoint the options or the environment configure (the OTEL_* variables
   * config.ts reads); undefined when none is.
   */
  static configured(
    options: TelemetryOptions = {},
    env: NodeJS.ProcessEnv = process.env,
  ): Telemetry | undefined {
    const url = tracesUrl(options, env);
    if (url === undefined) return undefined;
    return new Telemetry(url, optionsFromEnv(options, env));
  }

  /** The OpenTelemetry API and tracer, loaded at the first call. */
  load(): Promise<Loaded> {
    this.#loaded ??= this.#load();
    return this.#loaded;
  }

  /** Sends the spans that wait in the batch. */
  async flush(): Promise<void> {
    if (this.#loaded !== undefined) await (await this.#loaded).flush();
  }

  /** Sends what waits and stops exporting. */
  async shutdown(): Promise<void> {
    if (this.#loaded !== undefined) await (await this.#loaded).shutdown();
  }

  async #load(): Promise<Loaded> {
    const [api, sdk, otlp, resources] = await Promise.all([
      import("@opentelemetry/api"),
      import("@opentelemetry/sdk-trace"),
      this.#options.protocol === "http/protobuf"
        ? import("@opentelemetry/exporter-trace-otlp-proto")
        : import("@opentelemetry/exporter-trace-otlp-http"),
      import("@opentelemetry/resources"),
    ]);
    const timeout = this.#options.exportTimeoutMs ?? 3000;
    const exporter = new otlp.OTLPTraceExporter({
      url: this.url,
      timeoutMillis: timeout,
      ...(this.#options.headers === undefined ? {} : { headers: { ...this.#options.headers } }),
    });
    const processor = new sdk.BatchSpanProcessor({
      exporter,
      scheduledDelayMillis: this.#options.batchDelayMs ?? 1000,
      exportTimeoutMillis: timeout,
    });
    const provider = new sdk.TracerProvider({
      resource: resources.resourceFromAttributes({
        ...this.#options.resource,
        "service.name": this.#options.serviceName ?? this.#options.resource?.["service.name"] ?? "oz0",
      }),
      sampler: samplerOf(sdk, this.#options.sampler),
      spanProcessors: [processor],
    });
    return {
      api,
      tracer: provider.getTracer(TRACER_NAME),
      flush: () => provider.forceFlush(),
      shutdown: () => provider.shutdown(),
    };
  }
}

/** The sampler the options name; parent-based always-on, OpenTelemetry's default, when none. */
function samplerOf(
  sdk: typeof import("@opentelemetry/sdk-trace"),
  chosen: TelemetryOptions["sampler"],
): import("@opentelemetry/sdk-trace").Sampler {
  const name = chosen?.name ?? "parentbased_always_on";
  const root = name.endsWith("always_off")
    ? new sdk.AlwaysOffSampler()
    : name.endsWith("traceidratio")
      ? new sdk.TraceIdRatioBasedSampler(chosen?.ratio ?? 1)
      : new sdk.AlwaysOnSampler();
  return name.startsWith("parentbased_") ? new sdk.ParentBasedSampler({ root }) : root;
}
