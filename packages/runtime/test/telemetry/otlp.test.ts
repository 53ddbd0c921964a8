// OpenTelemetry export: with an OTLP endpoint configured, a job's run, its model calls and its
// tool calls reach a collector as spans with the GenAI semantic conventions. The collector here
// is a node:http server on 127.0.0.1 that decodes the OTLP/HTTP JSON export.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Telemetry, tracesUrl } from "../../src/telemetry/index.js";
import { type Harness, harness } from "../jobs/helpers.js";

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  arrayValue?: { values: OtlpValue[] };
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes: { key: string; value: OtlpValue }[];
  events?: { name: string; attributes: { key: string; value: OtlpValue }[] }[];
  status?: { code?: number; message?: string };
}

let h: Harness;
let server: Server;
let endpoint: string;
const received: { path: string; contentType: string; spans: OtlpSpan[]; service: string }[] = [];

beforeAll(async () => {
  h = await harness();
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
        resourceSpans: {
          resource: { attributes: { key: string; value: OtlpValue }[] };
          scopeSpans: { spans: OtlpSpan[] }[];
        }[];
      };
      for (const resource of body.resourceSpans) {
        received.push({
          path: request.url ?? "",
          contentType: String(request.headers["content-type"]),
          service: String(value(resource.resource.attributes, "service.name")),
          spans: resource.scopeSpans.flatMap((scope) => scope.spans),
        });
      }
      response.writeHead(200, { "content-type": "application/json" });
      response.end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await h.close();
  await new Promise((resolve) => server.close(resolve));
});

function value(attributes: readonly { key: string; value: OtlpValue }[], key: string): unknown {
  const found = attributes.find((attribute) => attribute.key === key)?.value;
  if (found === undefined) return undefined;
  if (found.intValue !== undefined) return Number(found.intValue);
  if (found.arrayValue !== undefined) return found.arrayValue.values.map((entry) => entry.stringValue);
  return found.stringValue ?? found.boolValue;
}

describe("the OTLP export", () => {
  test("sends a job's run, model calls and tool calls as spans with the GenAI semantic conventions", async () => {
    const telemetry = new Telemetry(tracesUrl({ endpoint }, {})!, { batchDelayMs: 10 });
    const { job } = await h.run("helpdesk/triage", "ticket 7", { telemetry });
    await telemetry.shutdown();
    expect(job.status).toBe("succeeded");
    expect(received.every((batch) => batch.path === "/v1/traces")).toBe(true);
    expect(received[0]?.service).toBe("oz0");
    const spans = received.flatMap((batch) => batch.spans);
    const run = spans.find((span) => span.name === "invoke_agent helpdesk/triage");
    expect(run).toBeDefined();
    expect(value(run!.attributes, "gen_ai.operation.name")).toBe("invoke_agent");
    expect(value(run!.attributes, "gen_ai.agent.name")).toBe("helpdesk/triage");
    expect(value(run!.attributes, "oz0.job.id")).toBe(job.id);

    const chats = spans.filter((span) => value(span.attributes, "gen_ai.operation.name") === "chat");
    expect(chats).toHaveLength(3);
    for (const chat of chats) {
      expect(chat.parentSpanId).toBe(run!.spanId);
      expect(chat.traceId).toBe(run!.traceId);
      expect(value(chat.attributes, "gen_ai.provider.name")).toBe("test");
      expect(value(chat.attributes, "gen_ai.request.model")).toBe("scripts/triage.yaml");
      expect(value(chat.attributes, "gen_ai.usage.input_tokens")).toBeGreaterThan(0);
      expect(value(chat.attributes, "gen_ai.usage.output_tokens")).toBeGreaterThan(0);
    }
    const tools = spans.filter((span) => value(span.attributes, "gen_ai.operation.name") === "execute_tool");
    expect(tools.map((span) => value(span.attributes, "gen_ai.tool.name"))).toEqual([
      "tickets__lookup",
      "tickets__assign",
    ]);
    expect(tools.map((span) => value(span.attributes, "gen_ai.tool.call.id"))).toEqual(["1.1", "2.1"]);
    expect(tools.every((span) => span.parentSpanId === run!.spanId)).toBe(true);
  });

  test("marks a failed run's span as an error with its failure kind", async () => {
    received.length = 0;
    const telemetry = new Telemetry(tracesUrl({ endpoint }, {})!, { batchDelayMs: 10 });
    await h.run("helpdesk/quitter", "ticket 7", { telemetry });
    await telemetry.shutdown();
    const run = received.flatMap((batch) => batch.spans).find((span) => span.name.startsWith("invoke_agent"));
    expect(run?.status?.code).toBe(2);
    expect(value(run!.attributes, "error.type")).toBe("no_such_ticket");
  });
});

describe("the OTLP endpoint", () => {
  test("comes from OTEL_EXPORTER_OTLP_ENDPOINT, with /v1/traces after it", () => {
    expect(tracesUrl({}, { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318/" })).toBe(
      "http://127.0.0.1:4318/v1/traces",
    );
  });

  test("comes as it is from OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, and the runtime's option wins over both", () => {
    const env = {
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://a:4318",
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://b:4318/traces",
    };
    expect(tracesUrl({}, env)).toBe("http://b:4318/traces");
    expect(tracesUrl({ endpoint: "http://c:4318" }, env)).toBe("http://c:4318/v1/traces");
  });

  test("is none without configuration, or with OTEL_SDK_DISABLED, so nothing is loaded", () => {
    expect(Telemetry.configured({}, {})).toBeUndefined();
    expect(
      Telemetry.configured({}, { OTEL_EXPORTER_OTLP_ENDPOINT: "http://a", OTEL_SDK_DISABLED: "true" }),
    ).toBeUndefined();
    expect(Telemetry.configured({}, { OTEL_EXPORTER_OTLP_ENDPOINT: "http://a" })?.url).toBe(
      "http://a/v1/traces",
    );
  });
});
