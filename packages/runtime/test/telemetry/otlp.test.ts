// OpenTelemetry export: with an OTLP endpoint configured, a job's run, its model calls and its
// tool calls reach a collector as spans named and attributed as the GenAI semantic conventions
// say; a delegated child job and a resumed run continue the parent's trace from what the job
// stores; message content goes out only when the operator opts in.

import * as semconv from "@opentelemetry/semantic-conventions/incubating";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { redactorOf } from "../../src/models/index.js";
import { GEN_AI, Telemetry, type TelemetryOptions, tracesUrl } from "../../src/telemetry/index.js";
import { type Harness, harness, scripted } from "../jobs/helpers.js";
import { FakeModelServer } from "../models/fake-servers/server.js";
import { context, FORMATS, KEY, pointedAt, resolverFor } from "../models/helpers.js";
import { attr, type Collector, collector, KIND, type OtlpSpan, value } from "./collector.js";

let h: Harness;
let c: Collector;

beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());
afterEach(async () => {
  await c?.close();
});

/** Telemetry to a fresh collector, as `Telemetry.configured` builds it from `env`. */
async function traced(env: NodeJS.ProcessEnv = {}, options: TelemetryOptions = {}): Promise<Telemetry> {
  c = await collector();
  return Telemetry.configured(
    { batchDelayMs: 10, ...options },
    { OTEL_EXPORTER_OTLP_ENDPOINT: c.endpoint, ...env },
  )!;
}

function named(prefix: string): OtlpSpan[] {
  return c.spans().filter((span) => span.name.startsWith(prefix));
}

describe("the OTLP export", () => {
  test("sends a job's run, model calls and tool calls as spans with the GenAI semantic conventions", async () => {
    const telemetry = await traced();
    const { job } = await h.run("helpdesk/triage", "ticket 7", { telemetry });
    await telemetry.shutdown();
    expect(job.status).toBe("succeeded");
    expect(c.batches.every((batch) => batch.path === "/v1/traces")).toBe(true);
    expect(value(c.batches[0]!.resource, "service.name")).toBe("oz0");
    const [run, ...others] = named("invoke_agent helpdesk/triage");
    expect(others).toEqual([]);
    expect(run!.kind).toBe(KIND.internal);
    expect(run!.parentSpanId ?? "").toBe("");
    expect(attr(run, "gen_ai.operation.name")).toBe("invoke_agent");
    expect(attr(run, "gen_ai.agent.name")).toBe("helpdesk/triage");
    expect(attr(run, "gen_ai.provider.name")).toBe("test");
    expect(attr(run, "gen_ai.request.model")).toBe("scripts/triage.yaml");
    expect(attr(run, "oz0.job.id")).toBe(job.id);

    const chats = c.spans().filter((span) => attr(span, "gen_ai.operation.name") === "chat");
    expect(chats).toHaveLength(3);
    for (const chat of chats) {
      expect(chat.name).toBe("chat scripts/triage.yaml");
      expect(chat.kind).toBe(KIND.client);
      expect(chat.parentSpanId).toBe(run!.spanId);
      expect(chat.traceId).toBe(run!.traceId);
      expect(attr(chat, "gen_ai.provider.name")).toBe("test");
      expect(attr(chat, "gen_ai.request.model")).toBe("scripts/triage.yaml");
      expect(attr(chat, "gen_ai.usage.input_tokens")).toBeGreaterThan(0);
      expect(attr(chat, "gen_ai.usage.output_tokens")).toBeGreaterThan(0);
      // Content is the operator's to opt in to.
      expect(attr(chat, "gen_ai.input.messages")).toBeUndefined();
      expect(attr(chat, "gen_ai.output.messages")).toBeUndefined();
    }
    const tools = c.spans().filter((span) => attr(span, "gen_ai.operation.name") === "execute_tool");
    expect(tools.map((span) => attr(span, "gen_ai.tool.name"))).toEqual([
      "tickets__lookup",
      "tickets__assign",
    ]);
    expect(tools.map((span) => attr(span, "gen_ai.tool.call.id"))).toEqual(["1.1", "2.1"]);
    expect(tools.every((span) => span.kind === KIND.internal && span.parentSpanId === run!.spanId)).toBe(
      true,
    );
    expect(tools.map((span) => attr(span, "gen_ai.tool.call.arguments"))).toEqual([undefined, undefined]);
  });

  test("marks a failed run's span as an error with its failure kind", async () => {
    const telemetry = await traced();
    await h.run("helpdesk/quitter", "ticket 7", { telemetry });
    await telemetry.shutdown();
    const [run] = named("invoke_agent");
    expect(run?.status?.code).toBe(2);
    expect(attr(run, "error.type")).toBe("no_such_ticket");
  });

  test("exports message content only when OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT is true", async () => {
    const telemetry = await traced({ OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: "true" });
    await h.run("helpdesk/triage", "ticket 7", { telemetry });
    await telemetry.shutdown();
    const [first] = c.spans().filter((span) => attr(span, "gen_ai.operation.name") === "chat");
    expect(JSON.parse(String(attr(first, "gen_ai.input.messages")))).toEqual([
      { role: "user", parts: [{ type: "text", content: "ticket 7" }] },
    ]);
    expect(JSON.parse(String(attr(first, "gen_ai.system_instructions")))[0]).toMatchObject({ type: "text" });
    expect(JSON.parse(String(attr(first, "gen_ai.output.messages")))).toEqual([
      {
        role: "assistant",
        parts: [{ type: "tool_call", id: "1.1", name: "tickets__lookup", arguments: { id: 7 } }],
        finish_reason: "tool_calls",
      },
    ]);
    const [lookup] = c.spans().filter((span) => attr(span, "gen_ai.tool.name") === "tickets__lookup");
    expect(JSON.parse(String(attr(lookup, "gen_ai.tool.call.arguments")))).toEqual({ id: 7 });
    expect(attr(lookup, "gen_ai.tool.call.result")).toEqual(
      expect.stringContaining('"subject":"Charged twice'),
    );
  });

  test("keeps the tenant's secrets out of the message content it exports", async () => {
    const secret = "sk-live-0123456789abcdefghij";
    const telemetry = await traced({ OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: "true" });
    const { job } = await h.run("helpdesk/triage", `ticket 7, key ${secret}`, {
      telemetry,
      redactor: async () => redactorOf([secret]),
      models: scripted([
        { call: { function: "tickets__assign", args: { id: 7, queue: secret } } },
        { text: `the key is ${secret}` },
      ]),
    });
    await telemetry.shutdown();
    expect(job.status).toBe("succeeded");
    const [chat, last] = named("chat");
    expect(String(attr(chat, "gen_ai.input.messages"))).toContain("ticket 7, key");
    expect(String(attr(last, "gen_ai.output.messages"))).toContain("the key is");
    expect(String(attr(chat, "gen_ai.output.messages"))).toContain("tickets__assign");
    const [assign] = named("execute_tool tickets__assign");
    expect(String(attr(assign, "gen_ai.tool.call.arguments"))).toContain('"id":7');
    expect(JSON.stringify(c.spans())).not.toContain(secret);
  });

  test("gives a failed model call its own chat span, with an error status and error.type", async () => {
    const server = await FakeModelServer.start("openai-responses", { apiKey: KEY });
    try {
      server.reply({ fail: 400, message: "this model does not take tools" });
      const resolve = resolverFor();
      const telemetry = await traced();
      const { job } = await h.run("helpdesk/triage", "ticket 7", {
        telemetry,
        models: () => resolve({ use: "openai:gpt-4.1" }, context(pointedAt(server, "openai"))),
      });
      await telemetry.shutdown();
      expect(job.status).toBe("failed");
      const [chat, ...more] = named("chat");
      expect(more).toEqual([]);
      expect(chat!.kind).toBe(KIND.client);
      expect(chat!.status?.code).toBe(2);
      expect(attr(chat, "error.type")).toBe("MODEL_CALL_FAILED");
      expect(chat!.parentSpanId).toBe(named("invoke_agent")[0]!.spanId);
    } finally {
      await server.close();
    }
  });
});

describe.each(FORMATS)("a model call to $provider ($format)", ({ format, provider, model }) => {
  let server: FakeModelServer;
  beforeAll(async () => {
    server = await FakeModelServer.start(format, { apiKey: KEY });
  });
  afterAll(() => server.close());

  test("names the provider as OpenTelemetry's registry does, the server, the response's model and id, cached tokens, and each call by the model's own id", async () => {
    server.reply(
      {
        calls: [{ name: "tickets__lookup", args: { id: 7 } }],
        // Only Anthropic's format reports tokens written to the cache.
        usage: { input: 120, output: 7, cached: 100, ...(format === "anthropic" ? { written: 15 } : {}) },
      },
      { text: "billing", usage: { input: 140, output: 2 } },
    );
    const resolve = resolverFor();
    const telemetry = await traced({ OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: "true" });
    const { job } = await h.run("helpdesk/triage", "ticket 7", {
      telemetry,
      models: () => resolve({ use: `${provider}:${model}` }, context(pointedAt(server, provider))),
    });
    await telemetry.shutdown();
    expect(job.status).toBe("succeeded");
    const [first, second] = named("chat");
    expect(first!.name).toBe(`chat ${model}`);
    const registry: Record<string, string> = {
      openai: "openai",
      "openai-chat": "openai",
      anthropic: "anthropic",
      // Not in the registry: the name the tenant gave the server.
      "openai-compatible": "openai-compatible",
    };
    const port = Number(new URL(server.url).port);
    for (const chat of [first, second]) {
      expect(attr(chat, "gen_ai.provider.name")).toBe(registry[provider]);
      expect(attr(chat, "gen_ai.request.model")).toBe(model);
      expect(attr(chat, "gen_ai.response.model")).toBe(model);
      expect(attr(chat, "gen_ai.response.id")).toMatch(/^(resp_|chatcmpl-|msg_)\S+$/);
      expect(attr(chat, "server.address")).toBe("127.0.0.1");
      expect(attr(chat, "server.port")).toBe(port);
    }
    expect(attr(first, "gen_ai.usage.input_tokens")).toBe(120);
    expect(attr(first, "gen_ai.usage.cache_read.input_tokens")).toBe(100);
    expect(attr(first, "gen_ai.usage.cache_creation.input_tokens")).toBe(
      format === "anthropic" ? 15 : undefined,
    );
    expect(attr(first, "gen_ai.response.finish_reasons")).toEqual(["tool_calls"]);
    expect(attr(second, "gen_ai.response.finish_reasons")).toEqual(["stop"]);
    // The tool span carries the id the model gave the call, not oz0's own.
    const [tool] = named("execute_tool");
    expect(attr(tool, "gen_ai.tool.call.id")).toMatch(/^(call_|toolu_)\S+$/);
    expect(attr(tool, "oz0.tool_call.id")).toBe("1.1");
    // The exported conversation names the call by the same id, asked and answered.
    const wireId = attr(tool, "gen_ai.tool.call.id");
    const [asked] = JSON.parse(String(attr(first, "gen_ai.output.messages"))) as {
      parts: { id?: string }[];
    }[];
    expect(asked!.parts.find((part) => part.id !== undefined)?.id).toBe(wireId);
    const conversation = JSON.parse(String(attr(second, "gen_ai.input.messages"))) as {
      role: string;
      parts: { type: string; id?: string }[];
    }[];
    expect(conversation.flatMap((message) => message.parts.filter((part) => part.id !== undefined))).toEqual([
      expect.objectContaining({ type: "tool_call", id: wireId }),
      expect.objectContaining({ type: "tool_call_response", id: wireId }),
    ]);
  });
});

describe("one trace per job tree", () => {
  test("a delegated child job's run is a child of its parent's run, and the parent's resumed run is too", async () => {
    // Each step in its own engine with its own exporter, as separate processes would: what ties
    // them is the trace context stored with the jobs.
    c = await collector();
    const exporters: Telemetry[] = [];
    const step = async (id: string) => {
      const telemetry = new Telemetry(tracesUrl({ endpoint: c.endpoint }, {})!, { batchDelayMs: 10 });
      exporters.push(telemetry);
      const job = await h.engine({ telemetry }).run(id, { tenant: "default" });
      await telemetry.shutdown();
      return job;
    };
    const parent = await h.engine().start({ tenant: "default", agent: "helpdesk/boss", input: "ticket 7" });
    expect((await step(parent.id)).status).toBe("waiting");
    expect((await step(`${parent.id}.triage-1-1`)).status).toBe("succeeded");
    expect((await step(parent.id)).status).toBe("succeeded");

    const [first, resumed] = named("invoke_agent helpdesk/boss");
    const [child] = named("invoke_agent helpdesk/triage");
    expect(first!.parentSpanId ?? "").toBe("");
    expect(child!.traceId).toBe(first!.traceId);
    expect(resumed!.traceId).toBe(first!.traceId);
    expect(child!.parentSpanId).toBe(first!.spanId);
    expect(resumed!.parentSpanId).toBe(first!.spanId);
    expect(attr(child, "oz0.job.parent_id")).toBe(parent.id);
    expect(new Set(c.spans().map((span) => span.traceId))).toEqual(new Set([first!.traceId]));
  });

  test("a job started with a traceparent joins that trace", async () => {
    const telemetry = await traced();
    const traceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
    const engine = h.engine({ telemetry });
    const job = await engine.start({
      tenant: "default",
      agent: "helpdesk/triage",
      input: "ticket 7",
      traceparent,
    });
    await engine.run(job.id, { tenant: "default" });
    await telemetry.shutdown();
    const [run] = named("invoke_agent");
    expect(run!.traceId).toBe("0af7651916cd43dd8448eb211c80319c");
    expect(run!.parentSpanId).toBe("b7ad6b7169203331");
  });
});

test("a job started with a traceparent that is not one is refused, saying what one looks like", async () => {
  const engine = h.engine();
  await expect(
    engine.start({
      tenant: "default",
      agent: "helpdesk/triage",
      input: "ticket 7",
      traceparent: "00-abc-def-01",
    }),
  ).rejects.toMatchObject({
    code: "INVALID_TELEMETRY",
    message: expect.stringContaining(
      "traceparent '00-abc-def-01' is not a W3C traceparent: it is 00-<32 hex trace ID>",
    ),
  });
});

describe("the standard OTEL_* variables", () => {
  test("name the service and its resource, and add the export's headers", async () => {
    const telemetry = await traced({
      OTEL_SERVICE_NAME: "helpdesk-workers",
      OTEL_RESOURCE_ATTRIBUTES: "deployment.environment.name=staging,team=support%20desk",
      OTEL_EXPORTER_OTLP_HEADERS: "x-api-key=secret%3Dkey,x-tenant=acme",
    });
    await h.run("helpdesk/triage", "ticket 7", { telemetry });
    await telemetry.shutdown();
    const [batch] = c.batches;
    expect(value(batch!.resource, "service.name")).toBe("helpdesk-workers");
    expect(value(batch!.resource, "deployment.environment.name")).toBe("staging");
    expect(value(batch!.resource, "team")).toBe("support desk");
    expect(batch!.headers["x-api-key"]).toBe("secret=key");
    expect(batch!.headers["x-tenant"]).toBe("acme");
  });

  test("OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf sends protobuf, and grpc is refused with what to set", async () => {
    const telemetry = await traced({ OTEL_EXPORTER_OTLP_PROTOCOL: "http/protobuf" });
    await h.run("helpdesk/triage", "ticket 7", { telemetry });
    await telemetry.shutdown();
    expect(c.batches.length).toBeGreaterThan(0);
    const [batch] = c.batches;
    expect(batch!.path).toBe("/v1/traces");
    expect(batch!.contentType).toBe("application/x-protobuf");
    // Protobuf carries strings as their UTF-8 bytes: the spans' names are in the body as they are.
    const body = Buffer.concat(c.batches.map((entry) => entry.body ?? Buffer.alloc(0)));
    expect(body.includes("invoke_agent helpdesk/triage")).toBe(true);
    expect(body.includes("gen_ai.operation.name")).toBe(true);
    expect(() => JSON.parse(body.toString("utf8"))).toThrow();
    expect(() =>
      Telemetry.configured(
        {},
        { OTEL_EXPORTER_OTLP_ENDPOINT: "http://a", OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "grpc" },
      ),
    ).toThrow(
      "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: oz0 exports OTLP over HTTP only, not gRPC; set http/protobuf or http/json",
    );
  });

  test("OTEL_TRACES_SAMPLER=always_off keeps every span back", async () => {
    const telemetry = await traced({ OTEL_TRACES_SAMPLER: "always_off" });
    const { job } = await h.run("helpdesk/triage", "ticket 7", { telemetry });
    await telemetry.shutdown();
    expect(job.status).toBe("succeeded");
    expect(c.spans()).toEqual([]);
  });

  test("a sampler oz0 does not have, or a ratio outside 0..1, is refused with what to set", () => {
    expect(() =>
      Telemetry.configured(
        {},
        { OTEL_EXPORTER_OTLP_ENDPOINT: "http://a", OTEL_TRACES_SAMPLER: "jaeger_remote" },
      ),
    ).toThrow(
      /OTEL_TRACES_SAMPLER: 'jaeger_remote' is not a sampler oz0 has \(it has: always_on, always_off/,
    );
    expect(() =>
      Telemetry.configured(
        {},
        {
          OTEL_EXPORTER_OTLP_ENDPOINT: "http://a",
          OTEL_TRACES_SAMPLER: "traceidratio",
          OTEL_TRACES_SAMPLER_ARG: "2",
        },
      ),
    ).toThrow("OTEL_TRACES_SAMPLER_ARG: '2' is not a ratio from 0 to 1");
  });
});

describe("the attribute names", () => {
  test("are the ones the installed @opentelemetry/semantic-conventions exports", () => {
    expect(GEN_AI).toEqual({
      operation: semconv.ATTR_GEN_AI_OPERATION_NAME,
      provider: semconv.ATTR_GEN_AI_PROVIDER_NAME,
      requestModel: semconv.ATTR_GEN_AI_REQUEST_MODEL,
      responseModel: semconv.ATTR_GEN_AI_RESPONSE_MODEL,
      responseId: semconv.ATTR_GEN_AI_RESPONSE_ID,
      inputTokens: semconv.ATTR_GEN_AI_USAGE_INPUT_TOKENS,
      outputTokens: semconv.ATTR_GEN_AI_USAGE_OUTPUT_TOKENS,
      cacheReadTokens: semconv.ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS,
      cacheWriteTokens: semconv.ATTR_GEN_AI_USAGE_CACHE_CREATION_INPUT_TOKENS,
      finishReasons: semconv.ATTR_GEN_AI_RESPONSE_FINISH_REASONS,
      agentName: semconv.ATTR_GEN_AI_AGENT_NAME,
      agentId: semconv.ATTR_GEN_AI_AGENT_ID,
      workflowName: semconv.ATTR_GEN_AI_WORKFLOW_NAME,
      conversationId: semconv.ATTR_GEN_AI_CONVERSATION_ID,
      toolName: semconv.ATTR_GEN_AI_TOOL_NAME,
      toolCallId: semconv.ATTR_GEN_AI_TOOL_CALL_ID,
      toolType: semconv.ATTR_GEN_AI_TOOL_TYPE,
      toolArguments: semconv.ATTR_GEN_AI_TOOL_CALL_ARGUMENTS,
      toolResult: semconv.ATTR_GEN_AI_TOOL_CALL_RESULT,
      systemInstructions: semconv.ATTR_GEN_AI_SYSTEM_INSTRUCTIONS,
      inputMessages: semconv.ATTR_GEN_AI_INPUT_MESSAGES,
      outputMessages: semconv.ATTR_GEN_AI_OUTPUT_MESSAGES,
      serverAddress: semconv.ATTR_SERVER_ADDRESS,
      serverPort: semconv.ATTR_SERVER_PORT,
      errorType: semconv.ATTR_ERROR_TYPE,
    });
    expect([
      semconv.GEN_AI_OPERATION_NAME_VALUE_CHAT,
      semconv.GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
      semconv.GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT,
      semconv.GEN_AI_OPERATION_NAME_VALUE_INVOKE_WORKFLOW,
      semconv.GEN_AI_PROVIDER_NAME_VALUE_OPENAI,
      semconv.GEN_AI_PROVIDER_NAME_VALUE_ANTHROPIC,
      semconv.ATTR_MCP_METHOD_NAME,
      semconv.MCP_METHOD_NAME_VALUE_TOOLS_CALL,
      semconv.ATTR_JSONRPC_REQUEST_ID,
      semconv.ATTR_MCP_SESSION_ID,
    ]).toEqual([
      "chat",
      "execute_tool",
      "invoke_agent",
      "invoke_workflow",
      "openai",
      "anthropic",
      "mcp.method.name",
      "tools/call",
      "jsonrpc.request.id",
      "mcp.session.id",
    ]);
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
