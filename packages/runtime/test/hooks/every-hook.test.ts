// Every row of the specification's hook reference fires where its subject exists in oz0: a
// handler registered on the row's hook hears it, a refusal stops the action where the row says
// the hook is blocking (and is only a hook_error where it is not), and a handler's changes
// reach the action where the row says it is modifying. One test per row, named after it.
import { HOOK_POINTS, type HookName, PolicyViolation } from "@oz0/sdk";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { pluginHookSource } from "../../src/hooks/index.js";
import { replay } from "../../src/jobs/history.js";
import type { JobEngine, JobEngineOptions, JobEvent, JobView } from "../../src/jobs/index.js";
import { MemoryProviders } from "../../src/memory/index.js";
import type { LanguageModel, ModelRequest } from "../../src/models/index.js";
import { Records } from "../../src/records/index.js";
import { sensedWebhook } from "../../src/routines/index.js";
import type { PartSource } from "../../src/tools/index.js";
import { type Harness, harness, ofKind, scripted, TENANT } from "../jobs/helpers.js";
import { hookPlugin, type TestPlugin } from "./helpers.js";

let h: Harness;
let source: PartSource;
let records: Records;
beforeAll(async () => {
  h = await harness(["helpdesk", "keeper"]);
  const providers = new MemoryProviders(h.store);
  records = new Records(h.store);
  // The fixture plugins' folders, with the store's memory providers and records as the catalog gives them.
  source = Object.assign(Object.create(h.source) as PartSource, {
    memory: (tenant: string, plugin: string, name?: string) =>
      providers.provider(tenant, h.source.plugins.get(plugin)!, name),
    recordsOf: (tenant: string, plugin: string) => records.forPlugin(tenant, plugin),
  });
});
afterAll(() => h.close());

/** A model that answers `text` and keeps every request it gets. */
function spyModel(text = "ok"): { model: LanguageModel; requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    requests,
    model: {
      id: "test:spy",
      generate: async (request) => {
        requests.push(request);
        return { calls: [], text, usage: { inputTokens: 10, outputTokens: 2 } };
      },
    },
  };
}

type Mode = "observe" | "refuse" | "modify";

interface Outcome {
  readonly job: JobView;
  /** The events of the job and of any child job it started, in that order. */
  readonly events: readonly JobEvent[];
  readonly requests: readonly ModelRequest[];
}

interface Row {
  /** Runs the row's subject with the plugins' hooks. */
  run(plugins: readonly TestPlugin[]): Promise<Outcome>;
  /** What a modifying row's handler returns. */
  change?(payload: Record<string, unknown>): Record<string, unknown> | undefined;
  /** That the change reached the action. */
  modified?(outcome: Outcome): void;
  /** That the refused action did not happen. */
  blocked?(outcome: Outcome): void;
}

function engineWith(plugins: readonly TestPlugin[], options: Partial<JobEngineOptions> = {}): JobEngine {
  return h.engine({ hooks: pluginHookSource(plugins), source, ...options });
}

async function eventsOf(engine: JobEngine, job: JobView): Promise<JobEvent[]> {
  const own = await engine.events(job.id, { tenant: TENANT });
  const children = ofKind(own, "child_job_started").map((entry) => entry.data.job);
  const theirs = await Promise.all(children.map((child) => engine.events(child, { tenant: TENANT })));
  return [...own, ...theirs.flat()];
}

/** Runs `agent` on `input` to its stop, on the spy model unless it has a script of its own. */
function agentRun(agent: string, input: unknown, spy = false, options: Partial<JobEngineOptions> = {}) {
  return async (plugins: readonly TestPlugin[]): Promise<Outcome> => {
    const model = spyModel();
    const engine = engineWith(plugins, spy ? { models: async () => model.model } : options);
    const started = await engine.start({ tenant: TENANT, agent, input });
    const job = await engine.run(started.id, { tenant: TENANT });
    return { job, events: await eventsOf(engine, job), requests: model.requests };
  };
}

/** Asks its question, is answered, and goes on from its history. */
async function askerAnswered(plugins: readonly TestPlugin[]): Promise<Outcome> {
  const engine = engineWith(plugins);
  const started = await engine.start({ tenant: TENANT, agent: "helpdesk/asker", input: "ticket 7" });
  await engine.run(started.id, { tenant: TENANT });
  await engine.answer(started.id, "billing", "carol", { tenant: TENANT });
  const job = await engine.run(started.id, { tenant: TENANT });
  return { job, events: await eventsOf(engine, job), requests: [] };
}

/** A chat's first turn, on the spy model. */
async function chatStarted(plugins: readonly TestPlugin[]): Promise<Outcome> {
  const model = spyModel("hello");
  const engine = engineWith(plugins, { models: async () => model.model });
  const started = await engine.start({ tenant: TENANT, agent: "helpdesk/chatty", input: "hi", mode: "chat" });
  const job = await engine.run(started.id, { tenant: TENANT });
  return { job, events: await eventsOf(engine, job), requests: model.requests };
}

/**
 * A routine's verified webhook, as the routine service handles it (routines/service.ts): the
 * sensor hooks, then the job it starts with what they recorded.
 */
async function webhookSensed(plugins: readonly TestPlugin[]): Promise<Outcome> {
  const model = spyModel();
  const engine = engineWith(plugins, { models: async () => model.model });
  const sensed = await sensedWebhook(engine, TENANT, "helpdesk/nightly", "deploy done");
  if (!sensed.ok) {
    const view = { status: "refused", failure: { kind: "policy_denied", code: sensed.error.code } };
    return { job: view as unknown as JobView, events: sensed.events as JobEvent[], requests: [] };
  }
  const started = await engine.start({
    tenant: TENANT,
    agent: "helpdesk/early",
    input: sensed.event,
    events: sensed.events,
  });
  await sensed.handled("started", started.id);
  const job = await engine.run(started.id, { tenant: TENANT });
  return { job, events: await eventsOf(engine, job), requests: model.requests };
}

const early = agentRun("helpdesk/early", "ticket 7", true);
const triage = agentRun("helpdesk/triage", "ticket 7");
const boss = agentRun("helpdesk/boss", "ticket 7");
const keeper = agentRun("keeper/keeper", "keep it");

function userText(request: ModelRequest | undefined): unknown {
  return request?.messages.find((message) => message.role === "user")?.content;
}

function failedByPolicy(outcome: Outcome): void {
  expect(outcome.job.status).toBe("failed");
  expect(outcome.job.failure).toMatchObject({ kind: "policy_denied", code: "POLICY_VIOLATION" });
}

function refusedCall(outcome: Outcome): void {
  expect(ofKind(outcome.events, "tool_result")[0]?.data).toMatchObject({
    ok: false,
    error: { code: "POLICY_VIOLATION" },
  });
}

function systemPrompt(outcome: Outcome): string {
  return ofKind(outcome.events, "context_assembled")[0]?.data.system ?? "";
}

function childInput(outcome: Outcome): unknown {
  const child = ofKind(outcome.events, "job_started").find((entry) => entry.data.input !== "ticket 7");
  return child?.data.input;
}

const ROWS: Readonly<Record<string, Row>> = {
  pre_execution: {
    run: early,
    change: () => ({ input: "CHANGED" }),
    modified: (o) => expect(userText(o.requests[0])).toBe("CHANGED"),
    blocked: (o) => {
      failedByPolicy(o);
      expect(o.requests).toHaveLength(0);
    },
  },
  post_execution: { run: early },
  pre_llm_call: {
    run: early,
    change: () => ({ settings: { temperature: 0.1 } }),
    modified: (o) => expect(o.requests[0]?.settings).toEqual({ temperature: 0.1 }),
    blocked: (o) => {
      failedByPolicy(o);
      expect(o.requests).toHaveLength(0);
    },
  },
  post_llm_call: {
    run: early,
    change: (p) => ({ response: { ...(p.response as object), text: "CHANGED" } }),
    modified: (o) => expect(o.job.output).toBe("CHANGED"),
  },
  pre_tool_call: {
    run: triage,
    change: (p) => (p.function === "lookup" ? { args: { id: 8 } } : undefined),
    modified: (o) => expect(ofKind(o.events, "tool_call")[0]?.data.args).toEqual({ id: 8 }),
    blocked: refusedCall,
  },
  post_tool_call: {
    run: triage,
    change: () => ({ result: { changed: true } }),
    modified: (o) =>
      expect(ofKind(o.events, "tool_result")[0]?.data).toMatchObject({ result: { changed: true } }),
  },
  collect_tools: { run: triage },
  execute_tool: { run: triage },
  pre_prompt_build: {
    run: early,
    change: () => ({ sections: [{ source: "hook", content: "CHANGED" }] }),
    modified: (o) => expect(systemPrompt(o)).toBe("CHANGED"),
    blocked: failedByPolicy,
  },
  post_prompt_build: {
    run: early,
    change: () => ({ prompt: "CHANGED" }),
    modified: (o) => expect(systemPrompt(o)).toBe("CHANGED"),
  },
  pre_memory_store: {
    run: keeper,
    change: (p) => ({ entry: { ...(p.entry as object), content: "CHANGED" } }),
    modified: (o) =>
      expect(ofKind(o.events, "tool_result")[0]?.data).toMatchObject({ result: { content: "CHANGED" } }),
    blocked: refusedCall,
  },
  post_memory_store: { run: keeper },
  pre_agent_communication: {
    run: boss,
    change: () => ({ message: "CHANGED" }),
    modified: (o) => expect(childInput(o)).toBe("CHANGED"),
    blocked: (o) => {
      refusedCall(o);
      expect(ofKind(o.events, "child_job_started")).toHaveLength(0);
    },
  },
  post_agent_communication: { run: boss },
  pre_sensor_event: {
    run: webhookSensed,
    change: () => ({ event: "CHANGED" }),
    modified: (o) => expect(userText(o.requests[0])).toBe("CHANGED"),
    blocked: (o) => expect(o.job.status).toBe("refused"),
  },
  post_sensor_event: { run: webhookSensed },
  pre_session_access: {
    run: chatStarted,
    change: () => ({ entry: "CHANGED" }),
    modified: (o) => expect(userText(o.requests[0])).toBe("CHANGED"),
    blocked: (o) => {
      failedByPolicy(o);
      expect(o.requests).toHaveLength(0);
    },
  },
  post_session_access: { run: chatStarted },
  on_pre_checkpoint: { run: triage, blocked: failedByPolicy },
  on_post_checkpoint: { run: triage },
  on_pre_restore: { run: askerAnswered, blocked: failedByPolicy },
  on_post_restore: { run: askerAnswered },
  pre_agent_handoff: {
    run: boss,
    change: () => ({ input: "CHANGED" }),
    modified: (o) => expect(childInput(o)).toBe("CHANGED"),
    blocked: (o) => {
      refusedCall(o);
      expect(ofKind(o.events, "child_job_started")).toHaveLength(0);
    },
  },
  post_agent_handoff: { run: boss },
  pre_context_assembly: {
    run: early,
    change: (p) => ({ parts: [...(p.parts as unknown[]), { content: "AN EXTRA PART", source: "hook" }] }),
    modified: (o) => expect(systemPrompt(o)).toContain("AN EXTRA PART"),
  },
  post_context_assembly: { run: early },
  collect_context: { run: early },
  on_error: {
    run: agentRun("helpdesk/triage", "ticket 99", false, {
      models: scripted([
        { call: { function: "tickets__lookup", args: { id: 99 } } },
        { text: "no such ticket" },
      ]),
    }),
  },
  user_input: {
    run: early,
    change: () => ({ content: "CHANGED" }),
    modified: (o) => expect(userText(o.requests[0])).toBe("CHANGED"),
    blocked: (o) => {
      failedByPolicy(o);
      expect(o.requests).toHaveLength(0);
    },
  },
  user_output: {
    run: early,
    change: () => ({ content: "CHANGED" }),
    modified: (o) => expect(o.job.output).toBe("CHANGED"),
    blocked: failedByPolicy,
  },
  object_model_event: { run: keeper },
  skills_check: { run: triage },
};

/** A plugin with one handler on `hook`: it hears the payloads, and refuses or changes as `mode` says. */
function handlerOn(hook: string, mode: Mode, row: Row, heard: Record<string, unknown>[]): TestPlugin {
  return hookPlugin("every", (host) => {
    host.addHook({
      name: "every",
      build: () => ({
        [hook]: (payload: Record<string, unknown>) => {
          heard.push(payload);
          if (mode === "refuse") throw new PolicyViolation("every", `no ${hook}`);
          if (mode === "modify") return row.change?.(payload);
          return undefined;
        },
      }),
    });
  });
}

function governanceOf(events: readonly JobEvent[], kind: string, hook: string): JobEvent[] {
  return events.filter((entry) => entry.kind === kind && (entry.data as { hook?: string }).hook === hook);
}

describe("every row of the hook reference", () => {
  const spec = HOOK_POINTS.filter((point) => point.origin === "spec");

  test("has a test here for each", () => {
    expect(Object.keys(ROWS).sort()).toEqual(spec.map((point) => point.name).sort());
  });

  for (const point of spec) {
    const row = ROWS[point.name]!;
    const hook = point.name as HookName;
    test(`${hook} (blocking: ${point.blocking ? "yes" : "no"}, modifying: ${point.modifying ? "yes" : "no"})`, async () => {
      const heard: Record<string, unknown>[] = [];
      await row.run([handlerOn(hook, "observe", row, heard)]);
      expect(heard.length, `${hook} fired`).toBeGreaterThan(0);
      expect(heard.every((payload) => payload.hook === hook && payload.tenant === TENANT)).toBe(true);

      const refused = await row.run([handlerOn(hook, "refuse", row, [])]);
      if (point.blocking) {
        expect(
          governanceOf(refused.events, "governance_denied", hook).length,
          `${hook} refused`,
        ).toBeGreaterThan(0);
        row.blocked!(refused);
      } else {
        expect(governanceOf(refused.events, "governance_denied", hook)).toEqual([]);
        expect(
          governanceOf(refused.events, "hook_error", hook).length,
          `${hook}'s refusal recorded`,
        ).toBeGreaterThan(0);
      }

      if (point.modifying) {
        row.modified!(await row.run([handlerOn(hook, "modify", row, [])]));
      } else {
        expect(row.change).toBeUndefined();
      }
    });
  }
});

describe("the hook points on a person's input, a chat's answers and messages between agents", () => {
  test("user_input and pre_session_access may rewrite a chat's next message, and user_input refuse it, leaving the chat waiting", async () => {
    const model = spyModel("hello");
    const plugins = [
      hookPlugin("chat", (host) => {
        host.addHook({
          name: "chat",
          build: () => ({
            pre_session_access: (p) =>
              p.kind === "chat" && typeof p.entry === "string" ? { entry: `${p.entry}!` } : undefined,
            user_input: (p) => {
              if (p.content.includes("secret")) throw new PolicyViolation("dlp", "No secrets in chats");
              return { content: p.content.toUpperCase() };
            },
          }),
        });
      }),
    ];
    const engine = engineWith(plugins, { models: async () => model.model });
    const started = await engine.start({
      tenant: TENANT,
      agent: "helpdesk/chatty",
      input: "hi",
      mode: "chat",
    });
    await engine.run(started.id, { tenant: TENANT });
    await engine.say(started.id, "next one", "carol", { tenant: TENANT });
    await engine.run(started.id, { tenant: TENANT });
    // The request's messages are the conversation, which goes on growing after the call.
    const said = model.requests[1]?.messages.filter((message) => message.role === "user").at(-1);
    expect(said).toEqual({ role: "user", content: "NEXT ONE!" });
    await expect(engine.say(started.id, "my secret", "carol", { tenant: TENANT })).rejects.toMatchObject({
      code: "POLICY_VIOLATION",
    });
    expect(await engine.get(started.id, TENANT)).toMatchObject({
      status: "waiting",
      waitingFor: { kind: "chat" },
    });
    const events = await engine.events(started.id, { tenant: TENANT });
    expect(governanceOf(events, "governance_denied", "user_input")).toHaveLength(1);
    expect(ofKind(events, "user_message").map((entry) => entry.data.text)).toEqual(["NEXT ONE!"]);
  });

  test("user_output may rewrite each of a chat's answers", async () => {
    const plugins = [
      hookPlugin("polish", (host) => {
        host.addHook({
          name: "polish",
          build: () => ({ user_output: (p) => ({ content: `${String(p.content)}.` }) }),
        });
      }),
    ];
    const model = spyModel("hello");
    const engine = engineWith(plugins, { models: async () => model.model });
    const started = await engine.start({
      tenant: TENANT,
      agent: "helpdesk/chatty",
      input: "hi",
      mode: "chat",
    });
    const job = await engine.run(started.id, { tenant: TENANT });
    expect(job.status).toBe("waiting");
    const events = await engine.events(started.id, { tenant: TENANT });
    expect(ofKind(events, "model_call")[0]?.data.text).toBe("hello.");
  });

  test("an answer to oz.ask_user passes user_input and post_tool_call, which may rewrite it", async () => {
    const results: unknown[] = [];
    const plugins = [
      hookPlugin("answers", (host) => {
        host.addHook({
          name: "answers",
          build: () => ({
            user_input: (p) => ({ content: p.content.trim() }),
            post_tool_call: (p) => {
              results.push([p.address, p.result]);
              return p.address === "oz.ask_user" ? { result: { answer: "bugs" } } : undefined;
            },
          }),
        });
      }),
    ];
    const engine = engineWith(plugins);
    const started = await engine.start({ tenant: TENANT, agent: "helpdesk/asker", input: "ticket 7" });
    await engine.run(started.id, { tenant: TENANT });
    await engine.answer(started.id, "  billing  ", "carol", { tenant: TENANT });
    expect(results).toEqual([["oz.ask_user", { answer: "billing" }]]);
    const events = await engine.events(started.id, { tenant: TENANT });
    expect(ofKind(events, "answer_received")[0]?.data).toMatchObject({ answer: "bugs" });
  });

  test("what post_session_access records after a chat's end is kept in the ended chat's history", async () => {
    const plugins = [
      hookPlugin("sessions", (host) => {
        host.addHook({
          name: "sessions",
          build: () => ({
            post_session_access: (p) => {
              if (p.kind === "chat" && (p.entry as { end?: boolean } | null)?.end === true) {
                throw new Error("the end was heard");
              }
            },
          }),
        });
      }),
    ];
    const model = spyModel("hello");
    const engine = engineWith(plugins, { models: async () => model.model });
    const started = await engine.start({
      tenant: TENANT,
      agent: "helpdesk/chatty",
      input: "hi",
      mode: "chat",
    });
    await engine.run(started.id, { tenant: TENANT });
    await engine.endChat(started.id, { tenant: TENANT });
    const events = await engine.events(started.id, { tenant: TENANT });
    const ended = events.findIndex((entry) => entry.kind === "job_succeeded");
    const recorded = governanceOf(events, "hook_error", "post_session_access");
    expect(recorded).toHaveLength(1);
    expect(events.indexOf(recorded[0]!)).toBeGreaterThan(ended);
    expect((await engine.get(started.id, TENANT)).status).toBe("succeeded");
  });

  test("what post_sensor_event records is kept when a worker has taken the job and let it go", async () => {
    const plugins = [
      hookPlugin("sensors", (host) => {
        host.addHook({
          name: "sensors",
          build: () => ({
            post_sensor_event: () => {
              throw new Error("the event was heard");
            },
          }),
        });
      }),
    ];
    const engine = engineWith(plugins, { models: async () => spyModel().model });
    const sensed = await sensedWebhook(engine, TENANT, "helpdesk/nightly", "deploy done");
    if (!sensed.ok) throw sensed.error;
    const started = await engine.start({ tenant: TENANT, agent: "helpdesk/early", input: sensed.event });
    // A worker took the job and finished it before the webhook's handling was told.
    await engine.run(started.id, { tenant: TENANT });
    await sensed.handled("started", started.id);
    const events = await engine.events(started.id, { tenant: TENANT });
    expect(governanceOf(events, "hook_error", "post_sensor_event")).toHaveLength(1);
  });

  test("post_tool_call fires on oz.delegate's result in the job that delegated, when it takes the child's end up, and may rewrite it", async () => {
    const heard: unknown[] = [];
    const plugins = [
      hookPlugin("results", (host) => {
        host.addHook({
          name: "results",
          build: () => ({
            post_tool_call: (p) => {
              heard.push([p.address, p.jobId, p.result]);
              return p.address === "oz.delegate"
                ? { result: { ...(p.result as object), output: "rewritten" } }
                : undefined;
            },
          }),
        });
      }),
    ];
    const engine = engineWith(plugins);
    const started = await engine.start({ tenant: TENANT, agent: "helpdesk/boss", input: "ticket 7" });
    await engine.run(started.id, { tenant: TENANT });
    const childId = `${started.id}.triage-1-1`;
    await engine.run(childId, { tenant: TENANT });
    expect(heard.filter((entry) => (entry as unknown[])[0] === "oz.delegate")).toEqual([]);
    await engine.run(started.id, { tenant: TENANT });
    const delegated = heard.filter((entry) => (entry as unknown[])[0] === "oz.delegate");
    expect(delegated).toEqual([
      [
        "oz.delegate",
        started.id,
        expect.objectContaining({ job: childId, status: "succeeded", output: "billing" }),
      ],
    ]);
    const events = await engine.events(started.id, { tenant: TENANT });
    const finished = ofKind(events, "child_job_finished")[0]!;
    const result = ofKind(events, "tool_result").find((entry) => entry.data.callId === finished.data.callId);
    expect(result?.data).toMatchObject({ ok: true, result: { job: childId, output: "rewritten" } });
    // What the model is told of the call, its history read again as a worker reads it.
    const told = replay(events).conversation.messages.find(
      (message) => message.role === "tool" && message.callId === finished.data.callId,
    );
    expect(told).toMatchObject({ content: { output: "rewritten" } });
  });

  test("a delegated child's answer is a message back to the agent that delegated: pre_agent_communication may rewrite it", async () => {
    const heard: unknown[] = [];
    const plugins = [
      hookPlugin("talk", (host) => {
        host.addHook({
          name: "talk",
          build: () => ({
            pre_agent_communication: (p) => {
              heard.push([p.kind, p.from, p.to, p.via]);
              return p.kind === "answer" ? { message: `${String(p.message)} (checked)` } : undefined;
            },
          }),
        });
      }),
    ];
    const engine = engineWith(plugins);
    const started = await engine.start({ tenant: TENANT, agent: "helpdesk/boss", input: "ticket 7" });
    await engine.run(started.id, { tenant: TENANT });
    const child = await engine.run(`${started.id}.triage-1-1`, { tenant: TENANT });
    expect(child.output).toBe("billing (checked)");
    expect(heard).toEqual([
      ["request", "helpdesk/boss", "helpdesk/triage", "delegate"],
      ["answer", "helpdesk/triage", "helpdesk/boss", "delegate"],
    ]);
  });

  test("an outside agent's message over A2A and the answer that goes back to it pass pre_agent_communication", async () => {
    const heard: unknown[] = [];
    const plugins = [
      hookPlugin("talk", (host) => {
        host.addHook({
          name: "talk",
          build: () => ({
            pre_agent_communication: (p) => {
              heard.push([p.kind, p.from, p.to, p.via]);
              return { message: `${String(p.message)}!` };
            },
          }),
        });
      }),
    ];
    const model = spyModel("done");
    const engine = engineWith(plugins, { models: async () => model.model });
    const started = await engine.start({
      tenant: TENANT,
      agent: "helpdesk/early",
      input: "ticket 7",
      by: "partner-key",
      via: "a2a",
    });
    const job = await engine.run(started.id, { tenant: TENANT });
    expect(userText(model.requests[0])).toBe("ticket 7!");
    expect(job.output).toBe("done!");
    expect(heard).toEqual([
      ["request", "a2a:partner-key", "helpdesk/early", "a2a"],
      ["answer", "helpdesk/early", "a2a:partner-key", "a2a"],
    ]);
  });

  test("pre_llm_call may choose another model of the tenant for one call, which the model_call records", async () => {
    const first = spyModel("from the agent's model");
    const other = spyModel("from the other model");
    const models = async (choice: { use: string }) =>
      choice.use === "test:other" ? { ...other.model, id: "test:other" } : first.model;
    const plugins = [
      hookPlugin("route", (host) => {
        host.addHook({ name: "route", build: () => ({ pre_llm_call: () => ({ model: "test:other" }) }) });
      }),
    ];
    const engine = engineWith(plugins, { models });
    const started = await engine.start({ tenant: TENANT, agent: "helpdesk/early", input: "ticket 7" });
    const job = await engine.run(started.id, { tenant: TENANT });
    expect(job.output).toBe("from the other model");
    expect(first.requests).toHaveLength(0);
    const events = await engine.events(started.id, { tenant: TENANT });
    expect(ofKind(events, "model_call")[0]?.data.model).toBe("test:other");
  });
});
