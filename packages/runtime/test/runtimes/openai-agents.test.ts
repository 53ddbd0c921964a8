// `runtime: openai-agents`: an agent whose loop is the OpenAI Agents SDK's Runner, with oz0's
// model step as the SDK's model and the agent's functions as its tools, against the fake
// OpenAI servers (Responses and Chat Completions) over loopback. Policy, approvals and kill
// switches take effect inside the SDK's loop; a resumed run replays the recorded steps.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { isOz0Error } from "@oz0/sdk";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { localAdmin } from "../../src/callers/index.js";
import { JobEngine, type JobEvent } from "../../src/jobs/index.js";
import type { LanguageModel, ModelRequest } from "../../src/models/index.js";
import { governanceInterceptor } from "../../src/policy/index.js";
import { Runtime } from "../../src/runtime.js";
import { FakeModelServer } from "../models/fake-servers/server.js";
import { KEY } from "../models/helpers.js";
import { ALICE, freshTenant } from "../policy/helpers.js";

const DESK = fileURLToPath(new URL("../fixtures/jobs/agents-desk", import.meta.url));
const GOVERNANCE = fileURLToPath(new URL("../../../../plugins/governance", import.meta.url));
/** A plugin of no tools, to bring a tenant into being. */
const HELPER = fileURLToPath(new URL("../fixtures/lint/oz-s023/passes", import.meta.url));

interface DeskCall {
  readonly fn: string;
  readonly key: string;
  readonly args: unknown;
}

/** Every execution of the desk plugin's functions, in this process. */
function deskCalls(job: string): DeskCall[] {
  const all = (globalThis as { __oz0DeskCalls?: DeskCall[] }).__oz0DeskCalls ?? [];
  return all.filter((call) => call.key.startsWith(`${job}:`));
}

function ofKind<K extends JobEvent["kind"]>(
  events: readonly JobEvent[],
  kind: K,
): Extract<JobEvent, { kind: K }>[] {
  return events.filter((entry): entry is Extract<JobEvent, { kind: K }> => entry.kind === kind);
}

let home: string;
let runtime: Runtime;
let responses: FakeModelServer;
let chat: FakeModelServer;

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), "oz0-openai-agents-"));
  runtime = await Runtime.open({ home, memory: true, defaultPlugins: [] });
  responses = await FakeModelServer.start("openai-responses", { apiKey: KEY });
  chat = await FakeModelServer.start("openai-chat", { apiKey: KEY });
});
afterAll(async () => {
  await Promise.all([responses.close(), chat.close(), runtime.close()]);
  await rm(home, { recursive: true, force: true });
});
afterEach(() => {
  expect(responses.pending).toBe(0);
  expect(chat.pending).toBe(0);
});

/** A tenant with the desk plugin, its OpenAI provider pointed at `server`. */
async function desk(server: FakeModelServer = responses): Promise<string> {
  const tenant = freshTenant();
  await runtime.catalog.install(tenant, DESK);
  await runtime.models.setProvider(tenant, "openai", {
    baseUrl: server.url,
    apiKey: KEY,
    timeoutSeconds: 600,
  });
  return tenant;
}

/**
 * A job engine on the runtime's store whose model is the tenant's real one (the fake server's),
 * with `before` run inside each model call first: an admin acting while the model thinks.
 */
function engineWith(before: (request: ModelRequest) => Promise<void>, leaseMs?: number): JobEngine {
  return new JobEngine({
    ...(leaseMs === undefined ? {} : { leaseMs }),
    store: runtime.store,
    source: runtime.catalog,
    home,
    interceptors: [governanceInterceptor(runtime.store)],
    models: async (choice, context) => {
      const model = await runtime.models.resolver(choice, context);
      const wrapped: LanguageModel = {
        id: model.id,
        async generate(request) {
          await before(request);
          return model.generate(request);
        },
      };
      return wrapped;
    },
  });
}

async function start(tenant: string, agent = "desk/clerk", input = "file it") {
  return runtime.jobs.start({ tenant, agent, input });
}

describe("runtime openai-agents", () => {
  it("runs an agent end to end on the OpenAI Responses API through the SDK's loop, each step naming the runtime", async () => {
    const tenant = await desk();
    responses.reply(
      { text: "noting", calls: [{ name: "ledger__add", args: { entry: "one" } }] },
      { calls: [{ name: "vault__write", args: { key: "door", value: "open" } }] },
      { text: "filed" },
    );
    const started = await start(tenant);
    const job = await runtime.jobs.run(started.id, { tenant });
    expect(job).toMatchObject({ status: "succeeded", output: "filed" });
    expect(deskCalls(started.id).map((call) => [call.fn, call.args])).toEqual([
      ["ledger.add", { entry: "one" }],
      ["vault.write", { key: "door", value: "open" }],
    ]);
    // The model saw each call's result as oz0 recorded it, in the SDK's conversation.
    const last = responses.requests.at(-1)!;
    expect(last.path).toBe("/v1/responses");
    const input = last.body.input as { type?: string; role?: string; output?: string }[];
    expect(input.filter((item) => item.type === "function_call_output").map((item) => item.output)).toEqual([
      JSON.stringify({ added: "one" }),
      JSON.stringify({ written: "door" }),
    ]);
    const events = await runtime.jobs.events(started.id, { tenant });
    expect(ofKind(events, "job_started")[0]?.data.runtime).toBe("openai-agents");
    expect(ofKind(events, "model_call").map((entry) => [entry.data.step, entry.data.runtime])).toEqual([
      [1, "openai-agents"],
      [2, "openai-agents"],
      [3, "openai-agents"],
    ]);
    expect(ofKind(events, "tool_result").map((entry) => entry.data.callId)).toEqual(["1.1", "2.1"]);
  });

  it("takes a deny rule and an approval inside the SDK's loop: the denied call never runs, the held one waits for a person, and the resumed run repeats no step", async () => {
    const tenant = await desk();
    await runtime.policy.set(tenant, "deny", "desk/ledger.add");
    await runtime.policy.set(tenant, "ask", "desk/vault.write");
    responses.reply(
      {
        calls: [
          { name: "ledger__add", args: { entry: "one" } },
          { name: "vault__write", args: { key: "door", value: "open" } },
        ],
      },
      { text: "filed" },
    );
    const asked = responses.requests.length;
    const started = await start(tenant);
    const held = await runtime.jobs.run(started.id, { tenant });
    expect(held).toMatchObject({ status: "waiting", waitingFor: { kind: "approval", callId: "1.2" } });
    expect(deskCalls(started.id)).toEqual([]);
    expect(responses.requests).toHaveLength(asked + 1);
    const [approval] = await runtime.approvals.list(tenant);
    if (approval === undefined) throw new Error("no approval was asked for");
    await runtime.approvals.approve(tenant, approval.id, ALICE);
    const job = await runtime.jobs.run(started.id, { tenant });
    expect(job).toMatchObject({ status: "succeeded", output: "filed" });
    expect(deskCalls(started.id).map((call) => call.fn)).toEqual(["vault.write"]);
    // Step 1 came back from the history: the model was asked once for each step.
    expect(responses.requests).toHaveLength(asked + 2);
    const outputs = (responses.requests.at(-1)!.body.input as { type?: string; output?: string }[])
      .filter((item) => item.type === "function_call_output")
      .map((item) => JSON.parse(item.output ?? "null") as unknown);
    expect(outputs[0]).toMatchObject({ error: { code: "POLICY_VIOLATION" } });
    expect(outputs[1]).toEqual({ written: "door" });
    const events = await runtime.jobs.events(started.id, { tenant });
    expect(ofKind(events, "model_call").map((entry) => entry.data.step)).toEqual([1, 2]);
    expect(ofKind(events, "job_claimed")).toHaveLength(2);
  });

  it("takes a tool's kill switch inside the SDK's loop: the call is refused and the model is told so", async () => {
    const tenant = await desk();
    await runtime.killSwitches.kill(tenant, "tool", "desk/vault", ALICE);
    responses.reply(
      {
        calls: [
          { name: "ledger__add", args: { entry: "one" } },
          { name: "vault__write", args: { key: "door", value: "open" } },
        ],
      },
      { text: "could not write" },
    );
    const started = await start(tenant);
    const job = await runtime.jobs.run(started.id, { tenant });
    expect(job).toMatchObject({ status: "succeeded", output: "could not write" });
    expect(deskCalls(started.id).map((call) => call.fn)).toEqual(["ledger.add"]);
    const outputs = (responses.requests.at(-1)!.body.input as { type?: string; output?: string }[])
      .filter((item) => item.type === "function_call_output")
      .map((item) => JSON.parse(item.output ?? "null") as unknown);
    expect(outputs[1]).toMatchObject({ error: { code: "KILLED" } });
  });

  it("ends the job at the SDK's next call when the agent's kill switch is pulled while the model thinks", async () => {
    const tenant = await desk();
    responses.reply({ calls: [{ name: "ledger__add", args: { entry: "one" } }] });
    const jobs = engineWith(async (request) => {
      if (request.step === 1) await runtime.killSwitches.kill(tenant, "agent", "desk/clerk", ALICE);
    });
    const started = await jobs.start({ tenant, agent: "desk/clerk", input: "file it" });
    const job = await jobs.run(started.id, { tenant });
    expect(job).toMatchObject({ status: "failed", failure: { kind: "killed", code: "KILLED" } });
    // The reply came back, but the call it asked for never ran.
    expect(deskCalls(started.id)).toEqual([]);
  });

  it("runs on OpenAI's Chat Completions API too", async () => {
    const tenant = await desk(chat);
    chat.reply({ calls: [{ name: "ledger__add", args: { entry: "one" } }] }, { text: "filed" });
    const started = await start(tenant, "desk/chatty");
    const job = await runtime.jobs.run(started.id, { tenant });
    expect(job).toMatchObject({ status: "succeeded", output: "filed" });
    expect(deskCalls(started.id).map((call) => call.fn)).toEqual(["ledger.add"]);
    const last = chat.requests.at(-1)!;
    expect(last.path).toBe("/v1/chat/completions");
    const messages = last.body.messages as { role: string; content?: unknown }[];
    expect(messages.map((message) => message.role)).toEqual(["system", "user", "assistant", "tool"]);
    expect(String(messages[3]?.content)).toContain('"added":"one"');
  });

  it("tool_loading: lazy offers the SDK oz.find_tools and oz.call_tool, and a call through them runs governed as the real function's", async () => {
    const tenant = await desk();
    await runtime.policy.set(tenant, "deny", "desk/vault.write");
    responses.reply(
      { calls: [{ name: "oz__find_tools", args: { query: "ledger" } }] },
      {
        calls: [
          { name: "oz__call_tool", args: { name: "ledger__add", args: { entry: "one" } } },
          { name: "oz__call_tool", args: { name: "vault__write", args: { key: "k", value: "v" } } },
        ],
      },
      { text: "filed" },
    );
    const started = await start(tenant, "desk/lazy");
    const job = await runtime.jobs.run(started.id, { tenant });
    expect(job).toMatchObject({ status: "succeeded", output: "filed" });
    const first = responses.requests.at(-3)!;
    expect((first.body.tools as { name: string }[]).map((offered) => offered.name).sort()).toEqual([
      "oz__call_tool",
      "oz__find_tools",
    ]);
    expect(deskCalls(started.id).map((call) => call.fn)).toEqual(["ledger.add"]);
    const events = await runtime.jobs.events(started.id, { tenant });
    expect(ofKind(events, "tool_result").map((entry) => [entry.data.callId, entry.data.ok])).toEqual([
      ["1.1", true],
      ["2.1", true],
      ["2.2", false],
    ]);
  });

  it("sends an answer that does not match the output schema back through the SDK's loop, and replays it after a crash without checking it again", async () => {
    const tenant = await desk();
    responses.reply({ text: '{"wrong": 1}' }, { stall: "forever" }, { text: '{"filed": "yes"}' });
    const asked = responses.requests.length;
    const started = await start(tenant, "desk/filer");
    const crash = new AbortController();
    const running = runtime.jobs.run(started.id, { tenant, signal: crash.signal });
    await until(() => responses.requests.length === asked + 2);
    crash.abort();
    expect((await running).status).toBe("queued");
    const job = await runtime.jobs.run(started.id, { tenant });
    expect(job).toMatchObject({ status: "succeeded", output: { filed: "yes" } });
    const events = await runtime.jobs.events(started.id, { tenant });
    expect(ofKind(events, "output_rejected").map((entry) => entry.data.step)).toEqual([1]);
    expect(ofKind(events, "model_call").map((entry) => entry.data.step)).toEqual([1, 2]);
    // The model was asked for step 1 once; step 2, in flight at the crash, once more.
    expect(responses.requests).toHaveLength(asked + 3);
    const retold = responses.requests.at(-1)!.body.input as { role?: string; content?: unknown }[];
    expect(JSON.stringify(retold.at(-1))).toContain("does not match the output schema");
  });

  it("is taken up after its worker stopped in the middle of a model call, repeating no recorded step", async () => {
    const tenant = await desk();
    responses.reply(
      { calls: [{ name: "ledger__add", args: { entry: "one" } }] },
      { stall: "forever" },
      { calls: [{ name: "vault__write", args: { key: "door", value: "open" } }] },
      { text: "filed" },
    );
    const asked = responses.requests.length;
    const started = await start(tenant);
    const crash = new AbortController();
    const running = runtime.jobs.run(started.id, { tenant, signal: crash.signal });
    await until(() => responses.requests.length === asked + 2);
    crash.abort();
    expect((await running).status).toBe("queued");
    expect(deskCalls(started.id).map((call) => call.fn)).toEqual(["ledger.add"]);
    const job = await runtime.jobs.run(started.id, { tenant });
    expect(job).toMatchObject({ status: "succeeded", output: "filed" });
    expect(deskCalls(started.id).map((call) => call.fn)).toEqual(["ledger.add", "vault.write"]);
    expect(responses.requests).toHaveLength(asked + 4);
    const events = await runtime.jobs.events(started.id, { tenant });
    expect(ofKind(events, "model_call").map((entry) => entry.data.step)).toEqual([1, 2, 3]);
    expect(ofKind(events, "tool_result").map((entry) => entry.data.callId)).toEqual(["1.1", "2.1"]);
  });

  it("refuses at install an agent whose alias the tenant maps to another provider than OpenAI's, and fails a job of it at claim when the alias is changed after install", async () => {
    const refusal =
      "agent 'aliased' runs on runtime openai-agents, the OpenAI Agents SDK, which speaks only the OpenAI Responses and Chat formats, but its model fast (anthropic:claude-sonnet-4-5) is served by provider anthropic of type anthropic. Choose a model of a provider of type openai or openai-chat (openai:<model>, openai-chat:<model>, or an alias of one), or leave runtime: out to run the agent on oz0's own loop, which takes any provider.";
    const refused = freshTenant();
    await runtime.catalog.install(refused, HELPER);
    await runtime.models.setAlias(refused, "fast", "anthropic:claude-sonnet-4-5");
    const install = await runtime.catalog.install(refused, DESK).catch((error: unknown) => error);
    expect(isOz0Error(install, "INVALID_PLUGIN"), String(install)).toBe(true);
    expect((install as Error).message).toContain(`OZ-S031 ${refusal}`);
    // Lint against the tenant (oz0 plugin lint --tenant) decides the same.
    const linted = await runtime.services.plugins.lint(localAdmin(refused), DESK);
    expect(linted.findings.filter((f) => f.code === "OZ-S031").map((f) => f.message)).toEqual([refusal]);

    const tenant = await desk();
    await runtime.models.setAlias(tenant, "fast", "openai:gpt-4.1");
    responses.reply({ text: "filed" });
    const first = await start(tenant, "desk/aliased");
    expect(await runtime.jobs.run(first.id, { tenant })).toMatchObject({ status: "succeeded" });
    await runtime.models.setAlias(tenant, "fast", "anthropic:claude-sonnet-4-5");
    const asked = responses.requests.length;
    const second = await start(tenant, "desk/aliased");
    const job = await runtime.jobs.run(second.id, { tenant });
    expect(job).toMatchObject({
      status: "failed",
      failure: { kind: "model_error", code: "MODEL_NOT_CONFIGURED", message: `desk/aliased: ${refusal}` },
    });
    // The default alias, not set, would be the offline test model: refused too, before any call.
    const plain = await start(tenant, "desk/plain");
    expect((await runtime.jobs.run(plain.id, { tenant })).failure?.message).toBe(
      "desk/plain: agent 'plain' runs on runtime openai-agents, the OpenAI Agents SDK, which speaks only the OpenAI Responses and Chat formats, but its model alias default is not set, so the offline test model would serve it. Choose a model of a provider of type openai or openai-chat (openai:<model>, openai-chat:<model>, or an alias of one), or leave runtime: out to run the agent on oz0's own loop, which takes any provider.",
    );
    expect(responses.requests).toHaveLength(asked);
  });

  it("delegates through oz.delegate, one of its function tools: the child job runs, the SDK's run waits for it and takes its answer up on the next run", async () => {
    const tenant = await desk();
    responses.reply(
      { calls: [{ name: "oz__delegate", args: { agent: "clerk", input: "file ticket 7" } }] },
      { text: "filed" },
      { text: "the clerk filed it" },
    );
    const started = await start(tenant, "desk/boss");
    const parent = await runtime.jobs.run(started.id, { tenant });
    const childId = `${started.id}.clerk-1-1`;
    expect(parent).toMatchObject({
      status: "waiting",
      waitingFor: { kind: "child", callId: "1.1", job: childId },
    });
    expect(await runtime.jobs.run(childId, { tenant })).toMatchObject({
      status: "succeeded",
      output: "filed",
    });
    const job = await runtime.jobs.run(started.id, { tenant });
    expect(job).toMatchObject({ status: "succeeded", output: "the clerk filed it" });
    const told = (responses.requests.at(-1)!.body.input as { type?: string; output?: string }[]).find(
      (item) => item.type === "function_call_output",
    );
    expect(told?.output).toContain("filed");
    const events = await runtime.jobs.events(started.id, { tenant });
    expect(ofKind(events, "child_job_finished")[0]?.data).toMatchObject({
      job: childId,
      status: "succeeded",
    });
    expect(ofKind(events, "model_call").map((entry) => entry.data.step)).toEqual([1, 2]);
  });

  it("stops the SDK's loop at the agent's limits, with oz0's failure: the SDK's own turn limit never decides", async () => {
    const tenant = await desk();
    responses.reply({ calls: [{ name: "ledger__add", args: { entry: "one" } }] });
    const started = await start(tenant, "desk/brief");
    const job = await runtime.jobs.run(started.id, { tenant });
    expect(job).toMatchObject({ status: "failed", failure: { kind: "max_turns" } });
    expect(deskCalls(started.id).map((call) => call.fn)).toEqual(["ledger.add"]);
  });

  it("answers each message of a chat as steps of one job: a resumed run replays the answers and goes on with the person's next message", async () => {
    const tenant = await desk();
    responses.reply(
      { text: "hello, what shall I file?" },
      { calls: [{ name: "ledger__add", args: { entry: "ticket 7" } }] },
      { text: "filed ticket 7" },
    );
    const asked = responses.requests.length;
    const started = await runtime.jobs.start({ tenant, agent: "desk/clerk", input: "hi", mode: "chat" });
    const first = await runtime.jobs.run(started.id, { tenant });
    expect(first).toMatchObject({ status: "waiting", waitingFor: { kind: "chat" } });
    await runtime.jobs.say(started.id, "file ticket 7", ALICE, { tenant });
    const second = await runtime.jobs.run(started.id, { tenant });
    expect(second).toMatchObject({ status: "waiting", waitingFor: { kind: "chat" } });
    // The first answer came back from the history; the model was asked for steps 2 and 3 only.
    expect(responses.requests).toHaveLength(asked + 3);
    const said = (responses.requests.at(-1)!.body.input as { role?: string; content?: unknown }[])
      .filter((item) => item.role === "user")
      .map((item) => JSON.stringify(item.content));
    expect(said).toHaveLength(2);
    expect(said[1]).toContain("file ticket 7");
    expect(deskCalls(started.id).map((call) => call.args)).toEqual([{ entry: "ticket 7" }]);
    const ended = await runtime.jobs.endChat(started.id, { tenant });
    expect(ended).toMatchObject({ status: "succeeded", output: "filed ticket 7" });
  });

  it("ends the SDK's run on a reply of neither text nor calls, as oz0's own loop ends on one", async () => {
    const tenant = await desk();
    responses.reply({});
    const asked = responses.requests.length;
    const started = await start(tenant);
    const job = await runtime.jobs.run(started.id, { tenant });
    expect(job.status).toBe("succeeded");
    expect(responses.requests).toHaveLength(asked + 1);
  });

  it("ends the job cancelled when it is cancelled while the SDK waits on the model: the job's stop signal aborts the SDK's run", async () => {
    const tenant = await desk();
    responses.reply({ calls: [{ name: "ledger__add", args: { entry: "one" } }] }, { stall: "forever" });
    const asked = responses.requests.length;
    // A short lease, so the worker hears of the cancel at its next renewal soon.
    const jobs = engineWith(async () => {}, 1_500);
    const started = await jobs.start({ tenant, agent: "desk/clerk", input: "file it" });
    const running = jobs.run(started.id, { tenant });
    await until(() => responses.requests.length === asked + 2);
    await jobs.cancel(started.id, ALICE, { tenant });
    expect(await running).toMatchObject({ status: "cancelled" });
    expect(deskCalls(started.id).map((call) => call.fn)).toEqual(["ledger.add"]);
  });

  it("keeps oz0's function names, dashes included, and answers a call of a function the agent was not offered as oz0's loop does", async () => {
    const tenant = await desk();
    responses.reply(
      {
        calls: [
          { name: "case-files__open-case", args: { subject: "ticket 7" } },
          { name: "vault__read", args: { key: "door" } },
        ],
      },
      { text: "opened" },
    );
    const started = await start(tenant);
    const job = await runtime.jobs.run(started.id, { tenant });
    expect(job).toMatchObject({ status: "succeeded", output: "opened" });
    expect(deskCalls(started.id).map((call) => call.fn)).toEqual(["case-files.open-case"]);
    const first = responses.requests.at(-2)!;
    expect((first.body.tools as { name: string }[]).map((offered) => offered.name).sort()).toEqual([
      "case-files__open-case",
      "ledger__add",
      "vault__write",
    ]);
    const last = responses.requests.at(-1)!.body.input as { type?: string; name?: string; output?: string }[];
    expect(last.filter((item) => item.type === "function_call").map((item) => item.name)).toEqual([
      "case-files__open-case",
      "vault__read",
    ]);
    const outputs = last
      .filter((item) => item.type === "function_call_output")
      .map((item) => JSON.parse(item.output ?? "null") as unknown);
    expect(outputs[1]).toMatchObject({ error: { code: "NOT_FOUND" } });
  });

  it("takes a token budget's pre_llm_call refusal inside the SDK's loop: the next model call is never made", async () => {
    const tenant = await desk();
    await runtime.catalog.install(tenant, GOVERNANCE);
    await runtime.catalog.configs.set(tenant, "governance", {
      budget: { job: { tokens: 1000 }, output_reserve: 0 },
    });
    responses.reply({
      calls: [{ name: "ledger__add", args: { entry: "one" } }],
      usage: { input: 900, output: 100 },
    });
    const asked = responses.requests.length;
    const started = await start(tenant);
    const job = await runtime.jobs.run(started.id, { tenant });
    expect(job.status).toBe("failed");
    expect(job.failure?.message).toContain("Token ceiling exceeded");
    expect(responses.requests).toHaveLength(asked + 1);
    expect(deskCalls(started.id).map((call) => call.fn)).toEqual(["ledger.add"]);
    const events = await runtime.jobs.events(started.id, { tenant });
    expect(ofKind(events, "governance_denied").map((entry) => entry.data.hook)).toEqual(["pre_llm_call"]);
  });
});

/** Waits until `check` holds: a hang, not a budget, gives up. */
async function until(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("gave up waiting");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
