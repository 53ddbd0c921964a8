import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { replay } from "../../src/jobs/history.js";
import type { JobEvent } from "../../src/jobs/index.js";
import { Runtime } from "../../src/runtime.js";
import { ofKind } from "../jobs/helpers.js";
import { FakeModelServer } from "./fake-servers/server.js";
import { KEY } from "./helpers.js";

const SWITCHBOARD = fileURLToPath(new URL("../fixtures/models/switchboard", import.meta.url));
const TENANT = "default";

let home: string;
let runtime: Runtime;
let chat: FakeModelServer;
let anthropic: FakeModelServer;

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), "oz0-models-"));
  runtime = await Runtime.open({ home, memory: true, defaultPlugins: [] });
  await runtime.catalog.install(TENANT, SWITCHBOARD);
  chat = await FakeModelServer.start("openai-chat", { apiKey: KEY });
  anthropic = await FakeModelServer.start("anthropic", { apiKey: KEY });
});
afterAll(async () => {
  await Promise.all([chat.close(), anthropic.close(), runtime.close()]);
  await rm(home, { recursive: true, force: true });
});
afterEach(async () => {
  expect(chat.pending).toBe(0);
  expect(anthropic.pending).toBe(0);
  for (const alias of await runtime.models.aliases(TENANT)) {
    if (!alias.fallback) await runtime.models.removeAlias(TENANT, alias.alias);
  }
});

async function run(agent: string, input = "ticket 7", onText?: (delta: string) => void) {
  const started = await runtime.jobs.start({ tenant: TENANT, agent, input });
  const job = await runtime.jobs.run(started.id, {
    tenant: TENANT,
    ...(onText === undefined ? {} : { onText }),
  });
  return { job, events: await runtime.jobs.events(job.id, { tenant: TENANT }) };
}

/**
 * The compatible server, reached through the default alias with a stored key, and a call timeout
 * that no answer of the fake server comes near on any machine, however loaded.
 */
async function useCompatible(): Promise<void> {
  await runtime.models.setProvider(TENANT, "openai-compatible", {
    baseUrl: chat.url,
    apiKey: KEY,
    timeoutSeconds: 600,
  });
  await runtime.models.setAlias(TENANT, "default", "openai-compatible:qwen2.5:7b");
}

const warnings = (events: readonly JobEvent[]) =>
  ofKind(events, "model_warning").map((entry) => entry.data.message);

describe("jobs on real providers", () => {
  it("runs an agent of the default alias on the offline test model when nothing is set, and says so once", async () => {
    const { job, events } = await run("switchboard/triage");
    expect(job.status).toBe("succeeded");
    expect(ofKind(events, "model_call").map((entry) => entry.data.model)).toEqual(["test:auto", "test:auto"]);
    expect(warnings(events).filter((message) => message.includes("model alias default is not set"))).toEqual([
      "model alias default is not set in tenant default, so this job runs on the offline test model; oz0 model set default <provider>:<model> chooses a real one",
    ]);
  });

  it("runs a tool call round trip on an OpenAI-compatible server through model: { use: default }", async () => {
    await useCompatible();
    chat.reply({ calls: [{ name: "tickets__lookup", args: { id: 7 } }] }, { text: "billing" });
    const { job, events } = await run("switchboard/triage");
    expect(job.status).toBe("succeeded");
    expect(job.output).toBe("billing");
    expect(
      events
        .map((entry) => entry.kind)
        .filter((kind) => kind.startsWith("model_call") || kind.startsWith("tool_")),
    ).toEqual(["model_call", "tool_call", "tool_result", "model_call"]);
    expect(ofKind(events, "tool_result")[0]?.data).toMatchObject({
      ok: true,
      result: { id: 7, queue: "billing" },
    });
    const second = chat.requests.at(-1)!;
    expect(second.path).toBe("/v1/chat/completions");
    expect(second.body.model).toBe("qwen2.5:7b");
    const messages = second.body.messages as { role: string; tool_call_id?: string; content?: unknown }[];
    expect(messages.map((message) => message.role)).toEqual(["system", "user", "assistant", "tool"]);
    expect(messages[3]?.tool_call_id).toBe("call_1_1");
    expect(String(messages[3]?.content)).toContain('"queue":"billing"');
  });

  it("streams the answer's text to the run's listener as it comes", async () => {
    await useCompatible();
    chat.reply({ text: "the billing queue it is" });
    const pieces: string[] = [];
    const { job } = await run("switchboard/triage", "ticket 7", (delta) => pieces.push(delta));
    expect(job.output).toBe("the billing queue it is");
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.join("")).toBe("the billing queue it is");
  });

  it("records usage with cached tokens and the cost per call, and sums them per job", async () => {
    await useCompatible();
    await runtime.models.setPrice(TENANT, "openai-compatible:qwen2.5:7b", {
      input: 2,
      output: 8,
      cached: 0.5,
    });
    chat.reply(
      {
        calls: [{ name: "tickets__lookup", args: { id: 7 } }],
        usage: { input: 1000, output: 100, cached: 800 },
      },
      { text: "billing", usage: { input: 1200, output: 10 } },
    );
    const { events } = await run("switchboard/triage");
    const calls = ofKind(events, "model_call").map((entry) => ({
      usage: entry.data.usage,
      cost: entry.data.cost_usd,
    }));
    expect(calls).toEqual([
      // 200 uncached at $2, 800 cached at $0.50 and 100 out at $8, per million tokens.
      { usage: { input: 1000, output: 100, cached: 800 }, cost: 0.0016 },
      { usage: { input: 1200, output: 10 }, cost: 0.00248 },
    ]);
    const history = replay(events);
    expect(history.tokensUsed).toBe(2310);
    expect(history.costUsd).toBeCloseTo(0.00408, 9);
    expect(warnings(events).some((message) => message.startsWith("no price is set"))).toBe(false);
    await runtime.models.removePrice(TENANT, "openai-compatible:qwen2.5:7b");
  });

  it("says once per job that no price is set, and records no cost", async () => {
    await useCompatible();
    chat.reply({ calls: [{ name: "tickets__lookup", args: { id: 7 } }] }, { text: "billing" });
    const { events } = await run("switchboard/triage");
    expect(warnings(events)).toEqual([
      "no price is set for openai-compatible:qwen2.5:7b, so its calls' cost is not recorded; oz0 model price openai-compatible:qwen2.5:7b --input USD_PER_MTOK --output USD_PER_MTOK sets one",
    ]);
    expect(ofKind(events, "model_call").every((entry) => entry.data.cost_usd === undefined)).toBe(true);
  });

  it("leaves out a function over 64 characters for OpenAI's formats, with function_left_out", async () => {
    await useCompatible();
    chat.reply({ text: "done" });
    const { events } = await run("switchboard/long");
    expect(ofKind(events, "function_left_out").map((entry) => entry.data)).toEqual([
      {
        name: "a_rather_long_tool_identifier_for_tests__a_function_with_a_long_name_too",
        address: "switchboard/a_rather_long_tool_identifier_for_tests.a_function_with_a_long_name_too",
        reason:
          "a model would see it as a_rather_long_tool_identifier_for_tests__a_function_with_a_long_name_too, 72 characters; a node offers no function whose name is over 64, whatever the provider",
        length: 72,
        limit: 64,
      },
    ]);
    const tools = chat.requests.at(-1)!.body.tools as { function: { name: string } }[];
    expect(tools.map((tool) => tool.function.name)).toEqual(["tickets__lookup"]);
  });

  it("leaves out a function over 64 characters whatever the provider, Anthropic's 128-character format too, saying which", async () => {
    await runtime.models.setProvider(TENANT, "anthropic", { baseUrl: anthropic.url, apiKey: KEY });
    await runtime.models.setAlias(TENANT, "default", "anthropic:claude-sonnet-4-5");
    anthropic.reply({ text: "done" });
    const { events } = await run("switchboard/long");
    expect(ofKind(events, "function_left_out").map((entry) => entry.data)).toEqual([
      {
        name: "a_rather_long_tool_identifier_for_tests__a_function_with_a_long_name_too",
        address: "switchboard/a_rather_long_tool_identifier_for_tests.a_function_with_a_long_name_too",
        reason:
          "a model would see it as a_rather_long_tool_identifier_for_tests__a_function_with_a_long_name_too, 72 characters; a node offers no function whose name is over 64, whatever the provider",
        length: 72,
        limit: 64,
      },
    ]);
    const tools = anthropic.requests.at(-1)!.body.tools as { name: string }[];
    expect(tools.map((tool) => tool.name)).toEqual(["tickets__lookup"]);
  });

  it("fails the job with model_error when a call still fails after its retries, keeping its history", async () => {
    await useCompatible();
    const busy = { fail: 503, message: "overloaded", headers: { "retry-after": "0" } } as const;
    chat.reply({ calls: [{ name: "tickets__lookup", args: { id: 7 } }] }, busy, busy, busy, busy);
    const { job, events } = await run("switchboard/triage");
    expect(job.status).toBe("failed");
    expect(job.failure).toMatchObject({ kind: "model_error", code: "MODEL_CALL_FAILED" });
    expect(job.failure?.message).toContain(
      "the model call to openai-compatible:qwen2.5:7b failed after 4 attempts (it was retried 3 times): HTTP 503: overloaded",
    );
    expect(events.map((entry) => entry.kind).filter((kind) => kind !== "context_part_contributed")).toEqual([
      "job_started",
      "job_claimed",
      "context_assembled",
      "model_call",
      "model_warning",
      "tool_call",
      "tool_result",
      "job_failed",
    ]);
  });

  it("runs an agent on a provider a plugin registers with addProvider, configured by the tenant", async () => {
    await runtime.models.setProvider(TENANT, "local", { baseUrl: chat.url, apiKey: KEY });
    chat.reply({ calls: [{ name: "tickets__lookup", args: { id: 7 } }] }, { text: "billing" });
    const { job, events } = await run("switchboard/plugged");
    expect(job.output).toBe("billing");
    expect(ofKind(events, "model_call")[0]?.data.model).toBe("local:fake-model");
    expect(chat.requests.at(-1)?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect((await runtime.models.providers(TENANT)).find((entry) => entry.name === "local")).toMatchObject({
      type: "plugin",
      displayName: "Local test server",
      source: "plugin switchboard",
      baseUrl: chat.url,
      key: { state: "stored", hint: "sk-test-…mnop" },
    });
  });

  it("a plugin's provider gets the request options and makes whole calls when its alias says so", async () => {
    await runtime.models.setProvider(TENANT, "local", { baseUrl: chat.url, apiKey: KEY });
    await runtime.models.setAlias(TENANT, "careful", "local:fake-model", { max_tokens: 64, stream: false });
    chat.reply({ text: "billing" });
    const { job } = await run("switchboard/careful");
    expect(job.status).toBe("succeeded");
    const sent = chat.requests.at(-1)!.body;
    expect(sent).toMatchObject({ temperature: 0.1, stop: ["END"], max_tokens: 64 });
    expect(sent.stream).not.toBe(true);
    await expect(
      runtime.models.setAlias(TENANT, "careful", "local:fake-model", { store: true }),
    ).rejects.toMatchObject({
      code: "MODEL_NOT_CONFIGURED",
      message: expect.stringContaining("model local:fake-model cannot honour store, set by alias careful"),
    });
  });

  it("never lets a key appear in an event or a failure, even when the server echoes it", async () => {
    const leaky = "sk-leaky-0123456789abcdefghijklmnopq";
    await runtime.models.setProvider(TENANT, "openai-compatible", { baseUrl: chat.url, apiKey: leaky });
    await runtime.models.setAlias(TENANT, "default", "openai-compatible:qwen2.5:7b");
    const { job, events } = await run("switchboard/triage");
    expect(job.failure).toMatchObject({ kind: "model_error", code: "MODEL_CALL_FAILED" });
    expect(job.failure?.message).toContain("Incorrect API key provided: [redacted]");
    expect(JSON.stringify(events)).not.toContain(leaky);
    expect(JSON.stringify(await runtime.jobs.get(job.id, TENANT))).not.toContain(leaky);
    expect(JSON.stringify(await runtime.models.providers(TENANT))).not.toContain(leaky);
  });

  it("an agent's request options reach the server over its alias's, and its provider's refusal of one fails the job before any call", async () => {
    await runtime.models.setProvider(TENANT, "openai-compatible", {
      baseUrl: chat.url,
      apiKey: KEY,
      timeoutSeconds: 600,
    });
    await runtime.models.setAlias(TENANT, "careful", "openai-compatible:qwen2.5:7b", {
      temperature: 0.9,
      headers: { "X-Team": "support" },
    });
    chat.reply({ text: "billing" });
    const { job } = await run("switchboard/careful");
    expect(job.status).toBe("succeeded");
    const sent = chat.requests.at(-1)!;
    expect(sent.body).toMatchObject({ temperature: 0.1, stop: ["END"] });
    expect(sent.headers["x-team"]).toBe("support");

    await runtime.models.setProvider(TENANT, "openai", { baseUrl: chat.url, apiKey: KEY });
    await runtime.models.setAlias(TENANT, "careful", "openai:gpt-4.1");
    const before = chat.requests.length;
    const refused = await run("switchboard/careful");
    expect(refused.job.status).toBe("failed");
    expect(refused.job.failure).toMatchObject({
      kind: "model_error",
      message: expect.stringContaining(
        "model openai:gpt-4.1 cannot honour stop, set by the agent's model.options: OpenAI's Responses API has no stop sequences",
      ),
    });
    expect(chat.requests.length).toBe(before);
    await runtime.models.removeProvider(TENANT, "openai");
  });

  it("an OpenAI-compatible server told the schema in the prompt is told it again when its answer is sent back", async () => {
    await useCompatible();
    chat.reply({ text: "billing" }, { text: '{"queue":"billing"}' });
    const { job, events } = await run("switchboard/sorter");
    expect(job.status).toBe("succeeded");
    expect(job.output).toEqual({ queue: "billing" });
    expect(ofKind(events, "output_rejected")).toHaveLength(1);
    const schema = JSON.stringify({
      type: "object",
      properties: { queue: { enum: ["billing", "bugs"] } },
      required: ["queue"],
    });
    const retry = chat.requests.at(-1)!.body as {
      messages: { role: string; content: unknown }[];
      response_format?: unknown;
    };
    expect(retry.response_format).toBeUndefined();
    const last = retry.messages.at(-1)!;
    expect(last.role).toBe("user");
    expect(String(last.content)).toMatch(/^Your answer does not match the output schema: .*JSON Schema: /);
    expect(String(last.content)).toContain(schema);
  });
});
