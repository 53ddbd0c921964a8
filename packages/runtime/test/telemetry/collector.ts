// A collector for the telemetry tests: a node:http server on 127.0.0.1 that takes OTLP/HTTP
// exports. JSON ones (what @opentelemetry/exporter-trace-otlp-http sends) are read as the OTLP
// JSON mapping defines them: hex IDs, integers as strings or numbers; the pinned
// @opentelemetry/otlp-transformer has no request decoder. Protobuf ones are kept as bytes.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values: OtlpValue[] };
}
export interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  /** 1 internal, 2 server, 3 client. */
  kind: number;
  attributes: OtlpAttribute[];
  events?: { name: string; attributes: OtlpAttribute[] }[];
  status?: { code?: number; message?: string };
}
export interface Batch {
  readonly path: string;
  readonly contentType: string;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly resource: OtlpAttribute[];
  readonly spans: OtlpSpan[];
  /** The request body, for a protobuf export (decoded only when JSON). */
  readonly body?: Buffer;
}

export interface Collector {
  /** `http://127.0.0.1:<port>`, as OTEL_EXPORTER_OTLP_ENDPOINT takes it. */
  readonly endpoint: string;
  readonly batches: Batch[];
  spans(): OtlpSpan[];
  close(): Promise<void>;
}

export async function collector(): Promise<Collector> {
  const batches: Batch[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const raw = Buffer.concat(chunks);
      const contentType = String(request.headers["content-type"]);
      if (contentType.includes("protobuf")) {
        batches.push({
          path: request.url ?? "",
          contentType,
          headers: request.headers,
          resource: [],
          spans: [],
          body: raw,
        });
        response.writeHead(200, { "content-type": "application/x-protobuf" });
        response.end();
        return;
      }
      const body = JSON.parse(raw.toString("utf8")) as {
        resourceSpans: { resource: { attributes: OtlpAttribute[] }; scopeSpans: { spans: OtlpSpan[] }[] }[];
      };
      for (const resource of body.resourceSpans) {
        batches.push({
          path: request.url ?? "",
          contentType,
          headers: request.headers,
          resource: resource.resource.attributes,
          spans: resource.scopeSpans.flatMap((scope) => scope.spans),
        });
      }
      response.writeHead(200, { "content-type": "application/json" });
      response.end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    batches,
    spans: () => batches.flatMap((batch) => batch.spans),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** An attribute's value: numbers as numbers, arrays of strings as arrays. */
export function value(attributes: readonly OtlpAttribute[], key: string): unknown {
  const found = attributes.find((attribute) => attribute.key === key)?.value;
  if (found === undefined) return undefined;
  if (found.intValue !== undefined) return Number(found.intValue);
  if (found.doubleValue !== undefined) return found.doubleValue;
  if (found.arrayValue !== undefined) return found.arrayValue.values.map((entry) => entry.stringValue);
  return found.stringValue ?? found.boolValue;
}

export function attr(span: OtlpSpan | undefined, key: string): unknown {
  return span === undefined ? undefined : value(span.attributes, key);
}

export const KIND = { internal: 1, server: 2, client: 3 } as const;
