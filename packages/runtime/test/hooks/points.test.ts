// Every hook point the job engine has fires where its name says, end to end on the offline
// test model: around the run, the start-up context, each model call, each function call, the
// delegation to a child job, each checkpoint of the history, and a restore.
import { ContextPart, PolicyViolation } from "@oz0/sdk";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { pluginHookSource, runHooksOf } from "../../src/hooks/index.js";
import type { JobEvent } from "../../src/jobs/index.js";
import type { LanguageModel, ModelRequest } from "../../src/models/index.js";
import { kinds, ofKind, scripted, TENANT, using } from "../jobs/helpers.js";
import { governance, type HookedHarness, hookedHarness, hookPlugin } from "./helpers.js";

let h: HookedHarness;
beforeAll(async () => {
  h = await hookedHarness();
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

function userMessage(request: ModelRequest | undefined): unknown {
  return request?.messages.find((message) => message.role === "user")?.content;
}

function seq(events: readonly JobEvent[], kind: string, hook?: string): number {
  const found = events.find(
    (entry) => entry.kind === kind && (hook === undefined || (entry.data as { hook?: string }).hook === hook),
  );
  if (found === undefined) throw new Error(`no ${kind} ${hook ?? ""} event`);
  return found.seq;
}

describe("pre_execution and user_input", () => {
  test("pre_execution fires before the job runs and may rewrite its input (addBeforeRun)", async () => {
    const spy = spyModel();
    const { job, events } = await h.runWith(
      [
        hookPlugin(
          "guard",
          (host) =>
            void host.addBeforeRun({ name: "upper", run: (p) => ({ input: String(p.input).toUpperCase() }) }),
        ),
      ],
      "helpdesk/early",
      "ticket 7",
      { models: using(spy.model) },
    );
    expect(job.status).toBe("succeeded");
    expect(userMessage(spy.requests[0])).toBe("TICKET 7");
    expect(ofKind(events, "context_assembled")[0]?.data.input).toBe("TICKET 7");
    expect(governance(events)).toContainEqual({
      kind: "governance_checked",
      data: { hook: "pre_execution", checks_passed: 1, outcome: "allowed" },
    });
  });

  test("a refused pre_execution ends the job with policy_denied before any model call", async () => {
    const spy = spyModel();
    const { job, events } = await h.runWith(
      [
        hookPlugin("guard", (host) => {
          host.addBeforeRun({
            name: "closed",
            run: () => {
              throw new PolicyViolation("office_hours", "Closed on Sundays", { day: "sunday" });
            },
          });
        }),
      ],
      "helpdesk/early",
      "ticket 7",
      { models: using(spy.model) },
    );
    expect(spy.requests).toHaveLength(0);
    expect(job.failure).toMatchObject({ kind: "policy_denied", code: "POLICY_VIOLATION" });
    expect(job.failure?.message).toContain("Closed on Sundays");
    expect(kinds(events)).not.toContain("model_call");
    expect(kinds(events).slice(-2)).toEqual(["governance_denied", "job_failed"]);
  });

  test("user_input may rewrite the person's message before the agent reads it", async () => {
    const spy = spyModel();
    await h.runWith(
      [
        hookPlugin("redact", (host) => {
          host.addHook({
            name: "redact",
            build: () => ({ user_input: (p) => ({ content: p.content.replace(/\d/g, "#") }) }),
          });
        }),
      ],
      "helpdesk/early",
      "card 4111",
      { models: using(spy.model) },
    );
    expect(userMessage(spy.requests[0])).toBe("card ####");
  });
});

describe("pre_llm_call and post_llm_call", () => {
  test("pre_llm_call fires before each model call, its governance_checked recorded just before the call", async () => {
    const { events } = await h.runWith(
      [
        hookPlugin(
          "watch",
          (host) => void host.addHook({ name: "watch", build: () => ({ pre_llm_call: () => {} }) }),
        ),
      ],
      "helpdesk/triage",
      "ticket 7",
    );
    const calls = ofKind(events, "model_call");
    const checks = governance(events).filter(
      (entry) => (entry.data as { hook: string }).hook === "pre_llm_call",
    );
    expect(checks).toHaveLength(calls.length);
    for (const call of calls) {
      const before = events[events.indexOf(call) - 1];
      expect(before).toMatchObject({ kind: "governance_checked", data: { hook: "pre_llm_call" } });
    }
  });

  test("pre_llm_call may rewrite the request: its messages and the functions offered", async () => {
    const spy = spyModel();
    await h.runWith(
      [
        hookPlugin("shape", (host) => {
          host.addHook({
            name: "shape",
            build: () => ({
              pre_llm_call: (p) => ({
                messages: [...p.messages, { role: "user", content: "Answer in French." }],
                tools: p.tools.filter((tool) => tool.name !== "tickets__assign"),
              }),
            }),
          });
        }),
      ],
      "helpdesk/triage",
      "ticket 7",
      { models: using(spy.model) },
    );
    const request = spy.requests[0]!;
    expect(request.messages.at(-1)).toEqual({ role: "user", content: "Answer in French." });
    expect(request.functions.map((fn) => fn.name)).toEqual(["tickets__lookup", "oz__skill"]);
  });

  test("a refused model call fails the job with policy_denied, and the call is not made", async () => {
    const spy = spyModel();
    const { job, events } = await h.runWith(
      [
        hookPlugin("deny", (host) => {
          host.addHook({
            name: "deny",
            build: () => ({
              pre_llm_call: () => {
                throw new PolicyViolation("routing", "No model for this tenant");
              },
            }),
          });
        }),
      ],
      "helpdesk/early",
      "ticket 7",
      { models: using(spy.model) },
    );
    expect(spy.requests).toHaveLength(0);
    expect(job.failure).toMatchObject({ kind: "policy_denied", code: "POLICY_VIOLATION" });
    expect(kinds(events).slice(-2)).toEqual(["governance_denied", "job_failed"]);
  });

  test("pre_llm_call's payload carries the job's usage so far and the tenant's by period", async () => {
    const seen: { step: number; job: number; tenant: number }[] = [];
    await h.runWith(
      [
        hookPlugin("meter", (host) => {
          host.addHook({
            name: "meter",
            build: () => ({
              pre_llm_call: async (p) => {
                const job = p.usage!.job;
                const tenant = await p.usage!.tenant({ since: 0, agent: "helpdesk/triage" });
                seen.push({
                  step: p.step,
                  job: job.inputTokens + job.outputTokens,
                  tenant: tenant.modelCalls,
                });
              },
            }),
          });
        }),
      ],
      "helpdesk/triage",
      "ticket 7",
    );
    expect(seen[0]?.job).toBe(0);
    expect(seen[1]!.job).toBeGreaterThan(0);
    expect(seen[2]!.job).toBeGreaterThan(seen[1]!.job);
    expect(seen[2]!.tenant - seen[0]!.tenant).toBe(2);
  });

  test("post_llm_call may rewrite the reply before the job records or uses it", async () => {
    const { job, events } = await h.runWith(
      [
        hookPlugin("polish", (host) => {
          host.addHook({
            name: "polish",
            build: () => ({
              post_llm_call: (p) => ({ response: { ...p.response, text: `${p.response.text}!` } }),
            }),
          });
        }),
      ],
      "helpdesk/early",
      "ticket 7",
    );
    expect(job.output).toBe("done early!");
    expect(ofKind(events, "model_call")[0]?.data.text).toBe("done early!");
    expect(governance(events)).toEqual([]);
  });
});

describe("pre_tool_call, execute_tool and post_tool_call", () => {
  test("a refused function call goes back to the model as an error, and the function does not run", async () => {
    const spy: ModelRequest[] = [];
    const script = scripted([
      { call: { function: "tickets__assign", args: { id: 7, queue: "billing" } } },
      { text: "could not assign" },
    ]);
    const models = async (...args: Parameters<typeof script>) => {
      const model = await script(...args);
      return {
        ...model,
        generate: (request: ModelRequest) => {
          spy.push(request);
          return model.generate(request);
        },
      };
    };
    const { job, events } = await h.runWith(
      [
        hookPlugin("audit", (host) => {
          host.addBeforeToolCall({
            name: "no-assign",
            run: (p) => {
              if (p.function === "assign") throw new PolicyViolation("audit", "Assigning needs a person");
            },
          });
        }),
      ],
      "helpdesk/triage",
      "ticket 7",
      { models },
    );
    expect(job.status).toBe("succeeded");
    const [result] = ofKind(events, "tool_result");
    expect(result?.data).toMatchObject({
      ok: false,
      error: { code: "POLICY_VIOLATION", message: "audit refused: Assigning needs a person" },
    });
    // The refusal is recorded with the call's record, ahead of it, as the gate's own refusals are.
    expect(seq(events, "governance_denied", "pre_tool_call")).toBe(result!.seq - 2);
    expect(seq(events, "tool_call")).toBe(result!.seq - 1);
    const told = spy[1]?.messages.find((message) => message.role === "tool");
    expect(told).toMatchObject({ isError: true, content: { error: { code: "POLICY_VIOLATION" } } });
  });

  test("pre_tool_call may rewrite the arguments, which are checked against the schema again", async () => {
    const rewrite = (args: Record<string, unknown>) =>
      hookPlugin(
        "rewrite",
        (host) =>
          void host.addBeforeToolCall({ name: "swap", run: (p) => ({ args: { ...p.args, ...args } }) }),
      );
    const models = scripted([{ call: { function: "tickets__lookup", args: { id: 7 } } }, { text: "done" }]);
    const swapped = await h.runWith([rewrite({ id: 8 })], "helpdesk/triage", "ticket 7", { models });
    expect(ofKind(swapped.events, "tool_result")[0]?.data.result).toMatchObject({ id: 8 });
    const broken = await h.runWith([rewrite({ id: "eight" })], "helpdesk/triage", "ticket 7", { models });
    expect(ofKind(broken.events, "tool_result")[0]?.data).toMatchObject({
      ok: false,
      error: { code: "INVALID_INPUT" },
    });
  });

  test("a trace shows the arguments a call ran with: tool_call records them, and the hook that changed them", async () => {
    const models = scripted([{ call: { function: "tickets__lookup", args: { id: 7 } } }, { text: "done" }]);
    const swap = hookPlugin(
      "rewrite",
      (host) => void host.addBeforeToolCall({ name: "swap", run: (p) => ({ args: { ...p.args, id: 8 } }) }),
    );
    const swapped = await h.runWith([swap], "helpdesk/triage", "ticket 7", { models });
    expect(ofKind(swapped.events, "model_call")[0]?.data.calls[0]?.args).toEqual({ id: 7 });
    expect(ofKind(swapped.events, "tool_call")[0]?.data).toMatchObject({
      callId: "1.1",
      args: { id: 8 },
      changedBy: [{ plugin: "rewrite", handler: "swap" }],
    });
    // A handler that hands the same arguments back changed nothing.
    const same = hookPlugin(
      "same",
      (host) => void host.addBeforeToolCall({ name: "echo", run: (p) => ({ args: { ...p.args } }) }),
    );
    const echoed = await h.runWith([same], "helpdesk/triage", "ticket 7", { models });
    const echoedCall = ofKind(echoed.events, "tool_call")[0]?.data;
    expect(echoedCall?.args).toEqual({ id: 7 });
    expect(echoedCall?.changedBy).toBeUndefined();
    // Without hooks, the model's arguments are the ones that ran.
    const plain = await h.runWith([], "helpdesk/triage", "ticket 7", { models });
    const plainCall = ofKind(plain.events, "tool_call")[0]?.data;
    expect(plainCall?.args).toEqual({ id: 7 });
    expect(plainCall?.changedBy).toBeUndefined();
  });

  test("execute_tool fires as the call goes to its tool, with the arguments it runs with", async () => {
    const seen: unknown[] = [];
    await h.runWith(
      [
        hookPlugin("watch", (host) => {
          host.addBeforeToolCall({ name: "swap", run: () => ({ args: { id: 8 } }) });
          host.addHook({
            name: "watch",
            build: () => ({ execute_tool: (p) => void seen.push([p.address, p.args]) }),
          });
        }),
      ],
      "helpdesk/triage",
      "ticket 7",
      { models: scripted([{ call: { function: "tickets__lookup", args: { id: 7 } } }, { text: "done" }]) },
    );
    expect(seen).toEqual([["helpdesk/tickets.lookup", { id: 8 }]]);
  });

  test("post_tool_call may rewrite the result before the model sees it (addAfterToolResult)", async () => {
    const { events } = await h.runWith(
      [
        hookPlugin("mask", (host) => {
          host.addAfterToolResult({
            name: "mask",
            run: (p) => ({ result: { ...(p.result as object), subject: "[redacted]" } }),
          });
        }),
      ],
      "helpdesk/triage",
      "ticket 7",
      { models: scripted([{ call: { function: "tickets__lookup", args: { id: 7 } } }, { text: "done" }]) },
    );
    expect(ofKind(events, "tool_result")[0]?.data.result).toMatchObject({ id: 7, subject: "[redacted]" });
  });

  test("on_error hears of a failed function call", async () => {
    const heard: unknown[] = [];
    await h.runWith(
      [
        hookPlugin(
          "ears",
          (host) =>
            void host.addHook({ name: "ears", build: () => ({ on_error: (p) => void heard.push(p) }) }),
        ),
      ],
      "helpdesk/triage",
      "ticket 99",
      { models: scripted([{ call: { function: "tickets__lookup", args: { id: 99 } } }, { text: "none" }]) },
    );
    expect(heard).toEqual([
      expect.objectContaining({
        where: "tool_call",
        plugin: "helpdesk",
        error: { code: "TOOL_FAILED", message: "no ticket with id 99" },
      }),
    ]);
  });

  test("collect_tools sees the functions offered to the model", async () => {
    const seen: string[][] = [];
    await h.runWith(
      [
        hookPlugin(
          "list",
          (host) =>
            void host.addHook({
              name: "list",
              build: () => ({ collect_tools: (p) => void seen.push(p.tools.map((t) => t.address)) }),
            }),
        ),
      ],
      "helpdesk/triage",
      "ticket 7",
    );
    expect(seen[0]).toEqual(["helpdesk/tickets.lookup", "helpdesk/tickets.assign", "oz.skill"]);
  });
});

describe("the start-up context hooks", () => {
  test("collect_context and pre_context_assembly see the parts; a handler may drop one and add another", async () => {
    let collected: string[] = [];
    const added = new ContextPart({
      content: "Be brief.",
      source: "house_rules",
      sectionId: "rules/brief",
      mechanism: "hook",
    });
    const { events } = await h.runWith(
      [
        hookPlugin("curate", (host) => {
          host.addHook({
            name: "curate",
            build: () => ({
              collect_context: (p) => {
                collected = p.parts.map((part) => part.source);
              },
              pre_context_assembly: (p) => ({
                parts: [...p.parts.filter((part) => part.source !== "skills"), added],
              }),
            }),
          });
        }),
      ],
      "helpdesk/triage",
      "ticket 7",
    );
    expect(collected).toEqual([
      "instructions",
      "system_prompt:helpdesk",
      "tool_manual",
      "tool_manual",
      "skills",
    ]);
    const parts = ofKind(events, "context_part_contributed").map((entry) => entry.data);
    expect(parts.find((part) => part.part_id === added.partId)).toMatchObject({
      source: "house_rules",
      retained: true,
    });
    expect(parts.find((part) => part.source === "skills")).toMatchObject({
      retained: false,
      eviction_reason: "dropped_by_hook",
    });
    expect(ofKind(events, "context_assembled")[0]?.data.system).toContain("Be brief.");
  });

  test("post_context_assembly sees the parts kept and left out", async () => {
    let seen: [number, number] = [0, 0];
    await h.runWith(
      [
        hookPlugin("watch", (host) => {
          host.addHook({
            name: "watch",
            build: () => ({
              post_context_assembly: (p) => {
                seen = [p.retained.length, p.evicted.length];
              },
            }),
          });
        }),
      ],
      "helpdesk/briefed",
      "ticket 7",
    );
    expect(seen[1]).toBeGreaterThan(0);
    expect(seen[0]).toBeGreaterThan(0);
  });

  test("pre_prompt_build may change the sections and post_prompt_build the text of the system prompt", async () => {
    const { events } = await h.runWith(
      [
        hookPlugin("prompt", (host) => {
          host.addHook({
            name: "prompt",
            build: () => ({
              pre_prompt_build: (p) => ({
                sections: p.sections.filter((section) => section.source === "instructions"),
              }),
              post_prompt_build: (p) => ({ prompt: `${p.prompt}\n\nToday is Sunday.` }),
            }),
          });
        }),
      ],
      "helpdesk/triage",
      "ticket 7",
    );
    const system = ofKind(events, "context_assembled")[0]!.data.system;
    expect(system.startsWith("You sort support tickets")).toBe(true);
    expect(system).not.toContain("## Tool helpdesk/tickets");
    expect(system.endsWith("Today is Sunday.")).toBe(true);
  });

  test("a refused pre_prompt_build ends the job with policy_denied", async () => {
    const { job } = await h.runWith(
      [
        hookPlugin("prompt", (host) => {
          host.addHook({
            name: "prompt",
            build: () => ({
              pre_prompt_build: () => {
                throw new PolicyViolation("prompt_policy", "Unreviewed instructions");
              },
            }),
          });
        }),
      ],
      "helpdesk/triage",
      "ticket 7",
    );
    expect(job.failure).toMatchObject({ kind: "policy_denied", code: "POLICY_VIOLATION" });
  });

  test("skills_check fires when the skills index is built and when a skill's body is read", async () => {
    const seen: unknown[] = [];
    await h.runWith(
      [
        hookPlugin(
          "skills",
          (host) =>
            void host.addHook({
              name: "skills",
              build: () => ({ skills_check: (p) => void seen.push([p.action, p.skills]) }),
            }),
        ),
      ],
      "helpdesk/triage",
      "ticket 7",
      {
        models: scripted([
          { call: { function: "oz__skill", args: { name: "escalation" } } },
          { text: "read" },
        ]),
      },
    );
    expect(seen).toEqual([
      ["index", ["escalation", "refunds"]],
      ["read", ["escalation"]],
    ]);
  });
});

describe("user_output, post_execution and on_error", () => {
  test("user_output may rewrite the answer before it goes out", async () => {
    const { job } = await h.runWith(
      [
        hookPlugin(
          "out",
          (host) =>
            void host.addHook({
              name: "out",
              build: () => ({ user_output: (p) => ({ content: `[${String(p.content)}]` }) }),
            }),
        ),
      ],
      "helpdesk/early",
      "ticket 7",
    );
    expect(job.output).toBe("[done early]");
  });

  test("a withheld answer fails the job with policy_denied", async () => {
    const { job, events } = await h.runWith(
      [
        hookPlugin("out", (host) => {
          host.addHook({
            name: "out",
            build: () => ({
              user_output: () => {
                throw new PolicyViolation("dlp", "The answer holds a card number");
              },
            }),
          });
        }),
      ],
      "helpdesk/early",
      "ticket 7",
    );
    expect(job.status).toBe("failed");
    expect(job.failure).toMatchObject({ kind: "policy_denied" });
    expect(kinds(events).slice(-2)).toEqual(["governance_denied", "job_failed"]);
  });

  test("post_execution hears how the job ended, and on_error of a failed job", async () => {
    const heard: unknown[] = [];
    const ears = hookPlugin("ears", (host) => {
      host.addHook({
        name: "ears",
        build: () => ({
          post_execution: (p) => void heard.push(["post_execution", p.status, p.output ?? p.failure?.kind]),
          on_error: (p) => void heard.push(["on_error", p.where, p.error.code]),
        }),
      });
    });
    await h.runWith([ears], "helpdesk/early", "ticket 7");
    await h.runWith([ears], "helpdesk/quitter", "ticket 7");
    expect(heard).toEqual([
      ["post_execution", "succeeded", "done early"],
      ["on_error", "job", "no_such_ticket"],
      ["post_execution", "failed", "no_such_ticket"],
    ]);
  });
});

describe("delegation", () => {
  test("pre_agent_handoff may rewrite the child's input, and post_agent_handoff names the child job", async () => {
    const heard: unknown[] = [];
    const { events } = await h.runWith(
      [
        hookPlugin("handoff", (host) => {
          host.addHook({
            name: "handoff",
            build: () => ({
              pre_agent_handoff: (p) => ({ input: `${String(p.input)} (from ${p.from})` }),
              post_agent_handoff: (p) => void heard.push([p.to, p.childJobId]),
            }),
          });
        }),
      ],
      "helpdesk/boss",
      "ticket 7",
    );
    const [started] = ofKind(events, "child_job_started");
    expect(heard).toEqual([["helpdesk/triage", started!.data.job]]);
    const child = await h.engine().events(started!.data.job, { tenant: TENANT });
    expect(ofKind(child, "job_started")[0]?.data.input).toBe("ticket 7 (from helpdesk/boss)");
  });

  test("a refused pre_child_job goes back to the model as an error, and no child job starts", async () => {
    const { events } = await h.runWith(
      [
        hookPlugin("handoff", (host) => {
          host.addHook({
            name: "handoff",
            build: () => ({
              pre_child_job: () => {
                throw new PolicyViolation("delegation", "No delegation after hours");
              },
            }),
          });
        }),
      ],
      "helpdesk/boss",
      "ticket 7",
    );
    expect(kinds(events)).not.toContain("child_job_started");
    expect(ofKind(events, "tool_result")[0]?.data).toMatchObject({
      ok: false,
      error: { code: "POLICY_VIOLATION" },
    });
  });
});

describe("checkpoints and restores", () => {
  test("on_pre_checkpoint sees each write of the history before it is made, and on_post_checkpoint after", async () => {
    const before: string[][] = [];
    const after: string[][] = [];
    const { job } = await h.runWith(
      [
        hookPlugin("cp", (host) => {
          host.addHook({
            name: "cp",
            build: () => ({
              on_pre_checkpoint: (p) => void before.push(p.events.map((e) => e.kind)),
              on_post_checkpoint: (p) => void after.push(p.events.map((e) => e.kind)),
            }),
          });
        }),
      ],
      "helpdesk/triage",
      "ticket 7",
    );
    expect(job.status).toBe("succeeded");
    expect(before.some((batch) => batch.includes("model_call"))).toBe(true);
    expect(before.some((batch) => batch.includes("tool_result"))).toBe(true);
    expect(after.length).toBe(before.length);
  });

  test("a refused checkpoint fails the job with policy_denied", async () => {
    const { job, events } = await h.runWith(
      [
        hookPlugin("cp", (host) => {
          host.addHook({
            name: "cp",
            build: () => ({
              on_pre_checkpoint: (p) => {
                if (p.events.some((e) => e.kind === "tool_result"))
                  throw new PolicyViolation("retention", "No tool results kept");
              },
            }),
          });
        }),
      ],
      "helpdesk/triage",
      "ticket 7",
    );
    expect(job.failure).toMatchObject({ kind: "policy_denied" });
    expect(kinds(events)).not.toContain("tool_result");
  });

  test("on_pre_restore and on_post_restore fire when a waiting job is taken up again", async () => {
    const heard: unknown[] = [];
    const plugins = [
      hookPlugin("restore", (host) => {
        host.addHook({
          name: "restore",
          build: () => ({
            on_pre_restore: (p) => void heard.push(["pre", p.steps]),
            on_post_restore: (p) => void heard.push(["post", p.steps]),
          }),
        });
      }),
    ];
    const { job } = await h.runWith(plugins, "helpdesk/asker", "ticket 7");
    expect(job.status).toBe("waiting");
    expect(heard).toEqual([]);
    const engine = h.engine({ hooks: pluginHookSource(plugins) });
    await engine.answer(job.id, "billing", "hal", { tenant: TENANT });
    const done = await engine.run(job.id, { tenant: TENANT });
    expect(done.status).toBe("succeeded");
    expect(heard).toEqual([
      ["pre", 1],
      ["post", 1],
    ]);
  });

  test("a refused restore fails the job", async () => {
    const plugins = [
      hookPlugin("restore", (host) => {
        host.addHook({
          name: "restore",
          build: () => ({
            on_pre_restore: () => {
              throw new PolicyViolation("freeze", "Jobs are frozen");
            },
          }),
        });
      }),
    ];
    const { job } = await h.runWith(plugins, "helpdesk/asker", "ticket 7");
    const engine = h.engine({ hooks: pluginHookSource(plugins) });
    await engine.answer(job.id, "billing", "hal", { tenant: TENANT });
    const done = await engine.run(job.id, { tenant: TENANT });
    expect(done.failure).toMatchObject({ kind: "policy_denied" });
    expect(done.failure?.message).toContain("Jobs are frozen");
  });
});

describe("the run's hooks", () => {
  test("record a hook_error naming a hook spec whose build failed, and run the job without it", async () => {
    const { job, events } = await h.runWith(
      [
        hookPlugin("broken", (host) => {
          host.addHook({
            name: "bad",
            build: () => {
              throw new Error("no config");
            },
          });
        }),
      ],
      "helpdesk/early",
      "ticket 7",
    );
    expect(job.status).toBe("succeeded");
    expect(governance(events)).toEqual([
      {
        kind: "hook_error",
        data: {
          hook: "*",
          plugin: "broken",
          handler: "bad",
          required: false,
          error: "its build(ctx) failed, so none of its handlers run: no config",
        },
      },
    ]);
  });

  test("are carried by a call's request, so another interceptor can record a governance event with the call", async () => {
    const { events } = await h.runWith([], "helpdesk/triage", "ticket 7", {
      models: scripted([{ call: { function: "tickets__lookup", args: { id: 7 } } }, { text: "done" }]),
      interceptors: [
        {
          name: "audit",
          before: async (request) => {
            runHooksOf(request)?.note({
              kind: "governance_checked",
              data: { hook: "pre_tool_call", checks_passed: 1, outcome: "allowed" },
            });
            return undefined;
          },
        },
      ],
    });
    const checked = events.findIndex((entry) => entry.kind === "governance_checked");
    expect(events[checked + 1]?.kind).toBe("tool_result");
  });
});
