import { describe, expect, test } from "vitest";
import { z } from "zod";
import {
  GovernanceContract,
  MemoryContract,
  PolicyViolation,
  plugin,
  SurfaceAdapter,
  SurfaceEnvelope,
  ToolContract,
  withContracts,
} from "../../src/contracts/index.js";
import { isOz0Error, type Oz0Error } from "../../src/errors/index.js";
import type { HookPayload } from "../../src/hooks/index.js";
import {
  buildTool,
  createRecordingHost,
  type Host,
  type RegistrationChange,
  type ToolSpec,
} from "../../src/host/index.js";
import { callFunction, runHook, testToolContext } from "../../src/testing/index.js";

function thrown(run: () => unknown): Oz0Error {
  try {
    run();
  } catch (error) {
    return error as Oz0Error;
  }
  throw new Error("expected a throw");
}

const tickets: ToolSpec = {
  name: "tickets",
  description: "Ticket store.",
  build: () => ({ functions: [] }),
};

/** One valid spec of every kind, by the host method that takes it. */
function registerOneOfEach(host: Host): void {
  host.addAdmin({ defaultConfig: { token: "" } });
  host.addTool(tickets);
  host.addProvider({
    name: "acme",
    meta: { displayName: "Acme AI" },
    build: () => ({ languageModel: () => ({}) }),
  });
  host.addChannel({ name: "slack", build: () => ({ deliver() {} }) });
  host.addHook({ name: "audit", build: () => ({}) });
  host.addMemory({
    name: "notes",
    build: () => ({
      store: (e) => ({ key: "k", content: e.content, metadata: {} }),
      get: () => undefined,
      search: () => [],
    }),
  });
  host.addRuntime({ name: "poller", build: () => ({ start() {}, stop() {} }) });
  host.addPromptInventory({ getTools: () => [] });
  host.addSystemPrompt({ name: "house-rules", build: () => "Be brief." });
  host.addBeforeRun({ name: "stamp", run: () => undefined });
  host.addBeforeToolCall({ name: "guard", order: 5, run: () => undefined });
  host.addAfterToolResult({ name: "redact", run: () => undefined });
  host.addFlow({ name: "merge-when-green", run: async () => "merged" });
}

describe("the recording host", () => {
  test("records every capability kind, each spec carrying its plugin", () => {
    const host = createRecordingHost("support-triage");
    registerOneOfEach(host);
    expect(host.kinds()).toEqual([
      "admin",
      "tool",
      "provider",
      "channel",
      "hook",
      "memory",
      "runtime",
      "prompt_inventory",
      "system_prompt",
      "before_run",
      "before_tool_call",
      "after_tool_result",
      "flow",
    ]);
    for (const registration of host.registrations()) {
      expect(registration.pluginId).toBe("support-triage");
      expect(registration.spec.pluginId).toBe("support-triage");
    }
  });

  test("fills pluginId into its own frozen copy, leaving the author's spec alone", () => {
    const host = createRecordingHost("support-triage");
    const spec = { ...tickets };
    const registration = host.addTool(spec);
    expect(registration.spec).not.toBe(spec);
    expect(Object.isFrozen(registration.spec)).toBe(true);
    expect("pluginId" in spec).toBe(false);
  });

  test("keeps the methods of a spec written as a class instance", () => {
    class TicketTool {
      readonly name = "tickets";
      readonly description = "Ticket store.";
      build() {
        return { functions: [] };
      }
    }
    const registration = createRecordingHost("p").addTool(new TicketTool());
    expect(registration.spec.build(testToolContext())).toEqual({ functions: [] });
  });

  test("accepts a spec that names its own plugin, and refuses one that names another", () => {
    const host = createRecordingHost("support-triage");
    expect(host.addTool({ ...tickets, pluginId: "support-triage" }).pluginId).toBe("support-triage");
    const error = thrown(() => host.addHook({ name: "audit", pluginId: "github", build: () => ({}) }));
    expect(isOz0Error(error, "INVALID_PLUGIN")).toBe(true);
    expect(error.message).toContain("leave pluginId out");
  });

  test("refuses a second tool of the same name at once, like the MCP SDK's 'Tool X is already registered'", () => {
    const host = createRecordingHost("support-triage");
    host.addTool(tickets);
    const error = thrown(() => host.addTool(tickets));
    expect(isOz0Error(error, "DUPLICATE_REGISTRATION")).toBe(true);
    expect(error.message).toContain("tool 'tickets' is already registered");
    expect(error.data).toEqual({ plugin: "support-triage", kind: "tool", name: "tickets" });
  });

  test("refuses duplicates per kind, so one name may serve several kinds", () => {
    const host = createRecordingHost("p");
    host.addChannel({ name: "slack", build: () => ({ deliver() {} }) });
    host.addRuntime({ name: "slack", build: () => ({ start() {}, stop() {} }) });
    expect(
      isOz0Error(
        thrown(() => host.addRuntime({ name: "slack", build: () => ({ start() {}, stop() {} }) })),
        "DUPLICATE_REGISTRATION",
      ),
    ).toBe(true);
  });

  test("names a config admin spec 'config' and a status-only one 'status', so a plugin may register both", () => {
    const host = createRecordingHost("p");
    host.addAdmin({ defaultConfig: { url: "" }, validate: () => [] });
    host.addAdmin({ status: () => ({ state: "ok" }) });
    expect(host.registrations("admin").map((r) => r.name)).toEqual(["config", "status"]);
    expect(
      isOz0Error(
        thrown(() => host.addAdmin({ redact: (c) => c })),
        "DUPLICATE_REGISTRATION",
      ),
    ).toBe(true);
  });

  test("refuses a tool ID that breaks the tool ID rule", () => {
    const error = thrown(() => createRecordingHost("p").addTool({ ...tickets, name: "my__tickets" }));
    expect(isOz0Error(error, "INVALID_NAME")).toBe(true);
    expect(error.data).toEqual({ kind: "tool", name: "my__tickets" });
  });

  test("refuses other capability names by the same rule, saying which kind of name it was", () => {
    const error = thrown(() =>
      createRecordingHost("p").addProvider({
        name: "Open AI",
        meta: { displayName: "x" },
        build: () => ({ languageModel: () => ({}) }),
      }),
    );
    expect(isOz0Error(error, "INVALID_NAME")).toBe(true);
    expect(error.message).toContain("provider name 'Open AI' must be");
  });

  test("refuses a spec missing what its kind needs, at registration", () => {
    const host = createRecordingHost("p");
    const cases: [() => unknown, string][] = [
      [
        () => host.addTool({ name: "t", description: "", build: () => ({ functions: [] }) }),
        "needs a description",
      ],
      [() => host.addTool({ name: "t", description: "d" } as never), "needs build(ctx)"],
      [
        () => host.addProvider({ name: "x", build: () => ({ languageModel: () => ({}) }) } as never),
        "needs meta",
      ],
      [() => host.addPromptInventory({} as never), "needs getTools(ctx)"],
      [
        () => host.addBeforeToolCall({ name: "g", order: Number.NaN, run: () => undefined }),
        "order must be a finite number",
      ],
      [
        () => host.addChannel({ name: "c", configured: true, build: () => ({ deliver() {} }) } as never),
        "configured must be a function",
      ],
      [
        () => host.addSystemPrompt({ name: "s", required: "yes", build: () => "" } as never),
        "required must be true or false",
      ],
      [() => host.addHook(null as never), "spec object"],
      [() => host.addFlow({ name: "f" } as never), "needs run(ctx)"],
      [() => host.addFlow({ name: "f", output: "json", run: async () => 1 } as never), "output must be"],
    ];
    for (const [register, text] of cases) {
      const error = thrown(register);
      expect(isOz0Error(error, "INVALID_PLUGIN"), text).toBe(true);
      expect(error.message).toContain(text);
    }
    expect(host.registrations()).toEqual([]);
  });

  test("names a flow by the agent and flow rule, not the tool ID rule", () => {
    const host = createRecordingHost("p");
    expect(host.addFlow({ name: "merge-when-green", run: async () => null }).name).toBe("merge-when-green");
    const error = thrown(() => host.addFlow({ name: "merge_when_green", run: async () => null }));
    expect(isOz0Error(error, "INVALID_NAME")).toBe(true);
    expect(error.data).toEqual({ kind: "flow", name: "merge_when_green" });
    expect(error.message).toContain(
      "flow name 'merge_when_green' must be lowercase letters, digits and single dashes",
    );
  });

  test("refuses a plugin name that breaks the plugin name rule", () => {
    expect(
      isOz0Error(
        thrown(() => createRecordingHost("Support_Triage")),
        "INVALID_NAME",
      ),
    ).toBe(true);
  });

  test("names the default prompt inventory 'inventory'", () => {
    expect(createRecordingHost("p").addPromptInventory({ getTools: () => [] }).name).toBe("inventory");
  });
});

describe("a registration handle", () => {
  test("disables and enables its registration, which stays registered meanwhile", () => {
    const host = createRecordingHost("p");
    const handle = host.addTool(tickets);
    handle.disable();
    expect(handle.enabled).toBe(false);
    expect(host.registration("tool", "tickets")).toBe(handle);
    expect(host.kinds()).toEqual(["tool"]);
    handle.enable();
    expect(handle.enabled).toBe(true);
  });

  test("removes its registration, freeing the name", () => {
    const host = createRecordingHost("p");
    const handle = host.addTool(tickets);
    handle.remove();
    expect(handle.removed).toBe(true);
    expect(host.registrations()).toEqual([]);
    expect(host.kinds()).toEqual([]);
    expect(host.addTool(tickets).name).toBe("tickets");
    handle.remove();
    expect(host.registrations()).toHaveLength(1);
  });

  test("refuses enable or disable after remove", () => {
    const handle = createRecordingHost("p").addTool(tickets);
    handle.remove();
    expect(
      isOz0Error(
        thrown(() => handle.enable()),
        "INVALID_PLUGIN",
      ),
    ).toBe(true);
    expect(
      isOz0Error(
        thrown(() => handle.disable()),
        "INVALID_PLUGIN",
      ),
    ).toBe(true);
  });

  test("tells subscribers of every change", () => {
    const host = createRecordingHost("p");
    const changes: string[] = [];
    const unsubscribe = host.subscribe((change: RegistrationChange) =>
      changes.push(`${change.type} ${change.registration.name}`),
    );
    const handle = host.addTool(tickets);
    handle.disable();
    handle.disable();
    handle.enable();
    handle.remove();
    unsubscribe();
    host.addTool(tickets);
    expect(changes).toEqual(["added tickets", "disabled tickets", "enabled tickets", "removed tickets"]);
  });
});

const WeatherTool = plugin(
  class WeatherTool extends ToolContract {
    static Input = z.object({ city: z.string(), units: z.string().default("metric") });
    getName() {
      return "weather";
    }
    getDescription() {
      return "Get current weather for a city.";
    }
    execute(args: z.output<typeof WeatherTool.Input>) {
      return { city: args.city, temp: 22, units: args.units };
    }
  },
);

const CalculatorTool = plugin(
  class CalculatorTool extends ToolContract {
    getName() {
      return "calculator";
    }
    getDescription() {
      return "Evaluate a math expression.";
    }
    override getParametersSchema() {
      return {
        type: "object" as const,
        properties: { expression: { type: "string" } },
        required: ["expression"],
      };
    }
    execute() {
      return { result: 42 };
    }
  },
);

describe("addContract", () => {
  test("registers a ToolContract as a tool named by its plugin ID, with one function from getName()", async () => {
    const host = createRecordingHost("std");
    const registration = host.addContract(WeatherTool);
    expect(registration.parts).toEqual([{ kind: "tool", name: "weather", function: "weather" }]);
    const [tool] = host.registrations("tool");
    expect(tool?.spec.description).toBe("Get current weather for a city.");
    const built = await buildTool(tool!.spec, testToolContext());
    expect(built.functions[0]?.inputSchema).toEqual({
      type: "object",
      properties: { city: { type: "string" }, units: { type: "string", default: "metric" } },
      required: ["city"],
    });
    expect(await callFunction(host, "weather.weather", { city: "Oslo" })).toEqual({
      city: "Oslo",
      temp: 22,
      units: "metric",
    });
  });

  test("groups contracts given the same tool ID as functions of one tool", async () => {
    const host = createRecordingHost("std");
    host.addContract(WeatherTool, { tool: "std", description: "Standard tools." });
    host.addContract(CalculatorTool, { tool: "std" });
    expect(host.registrations("tool").map((r) => [r.name, r.spec.description])).toEqual([
      ["std", "Standard tools."],
    ]);
    const built = await buildTool(host.registrations("tool")[0]!.spec, testToolContext());
    expect(built.functions.map((fn) => fn.name)).toEqual(["weather", "calculator"]);
  });

  test("refuses a second function of the same name in a tool", () => {
    const host = createRecordingHost("std");
    host.addContract(WeatherTool, { tool: "std" });
    const error = thrown(() => host.addContract(WeatherTool, { tool: "std" }));
    expect(isOz0Error(error, "DUPLICATE_REGISTRATION")).toBe(true);
    expect(error.data).toEqual({ plugin: "std", kind: "function", name: "std.weather" });
  });

  test("refuses a contract tool whose ID a plain addTool already took", () => {
    const host = createRecordingHost("std");
    host.addTool({ ...tickets, name: "weather" });
    expect(
      isOz0Error(
        thrown(() => host.addContract(WeatherTool)),
        "DUPLICATE_REGISTRATION",
      ),
    ).toBe(true);
  });

  test("disables, enables and removes a contract's function through its handle", async () => {
    const host = createRecordingHost("std");
    const weather = host.addContract(WeatherTool, { tool: "std" });
    host.addContract(CalculatorTool, { tool: "std" });
    const names = async () =>
      (await buildTool(host.registrations("tool")[0]!.spec, testToolContext())).functions.map(
        (fn) => fn.name,
      );
    weather.disable();
    expect(weather.enabled).toBe(false);
    expect(await names()).toEqual(["calculator"]);
    weather.enable();
    expect(await names()).toEqual(["weather", "calculator"]);
    weather.remove();
    expect(await names()).toEqual(["calculator"]);
  });

  test("removes the tool with its last contract function", () => {
    const host = createRecordingHost("std");
    host.addContract(WeatherTool).remove();
    expect(host.registrations()).toEqual([]);
  });

  test("registers a governance contract's on_<hook> methods as a hook named by its plugin ID", async () => {
    class BudgetGovernance extends GovernanceContract {
      static contractId = "budget";
      on_pre_llm_call(payload: HookPayload<"pre_llm_call">) {
        if ((payload.estimatedInputTokens ?? 0) > 100) {
          throw new PolicyViolation({ contractId: "budget", reason: "Token ceiling exceeded" });
        }
      }
    }
    const host = createRecordingHost("budgets");
    expect(host.addContract(plugin(BudgetGovernance)).parts).toEqual([
      { kind: "hook", name: "budget_governance" },
    ]);
    const call = { tenant: "default", step: 1, model: "test:x", messages: [], tools: [], settings: {} };
    await expect(
      runHook(host, "pre_llm_call", { ...call, estimatedInputTokens: 500 }),
    ).rejects.toBeInstanceOf(PolicyViolation);
  });

  test("registers a MemoryContract as memory and a SurfaceAdapter as a channel", () => {
    class NotesMemory extends MemoryContract {
      store() {
        return { key: "k", content: "c", metadata: {} };
      }
      get() {
        return undefined;
      }
      search() {
        return [];
      }
    }
    class WebAdapter extends SurfaceAdapter {
      readonly surfaceType = "web";
      ingest() {
        return new SurfaceEnvelope({ surfaceType: "web", channelId: "c", senderId: "s", content: "x" });
      }
      deliver() {}
    }
    const host = createRecordingHost("p");
    expect(host.addContract(NotesMemory).parts).toEqual([{ kind: "memory", name: "notes_memory" }]);
    expect(host.addContract(WebAdapter).parts).toEqual([{ kind: "channel", name: "web" }]);
    expect(host.kinds()).toEqual(["channel", "memory"]);
  });

  test("registers every part of a multi-contract class, and all of them go with remove()", () => {
    class SmartMemoryTool extends withContracts(ToolContract, MemoryContract) {
      getName() {
        return "remember";
      }
      getDescription() {
        return "Remembers.";
      }
      override getParametersSchema() {
        return { type: "object" as const };
      }
      execute() {
        return null;
      }
      store() {
        return { key: "k", content: "c", metadata: {} };
      }
      get() {
        return undefined;
      }
      search() {
        return [];
      }
    }
    const host = createRecordingHost("p");
    const registration = host.addContract(plugin(SmartMemoryTool));
    expect(host.kinds()).toEqual(["tool", "memory"]);
    registration.remove();
    expect(host.registrations()).toEqual([]);
  });

  test("registers nothing when one part is refused", () => {
    class TypoTool extends ToolContract {
      getName() {
        return "typo";
      }
      getDescription() {
        return "Has a misspelt handler.";
      }
      override getParametersSchema() {
        return { type: "object" as const };
      }
      execute() {
        return null;
      }
      on_pre_tool_cal() {}
    }
    const host = createRecordingHost("p");
    expect(
      isOz0Error(
        thrown(() => host.addContract(TypoTool)),
        "UNKNOWN_HOOK",
      ),
    ).toBe(true);
    expect(host.registrations()).toEqual([]);
  });

  test("accepts an instance, for a contract whose constructor takes arguments", async () => {
    class RateLimitGovernance extends GovernanceContract {
      static contractId = "rate_limit";
      private readonly max: number;
      constructor(max: number) {
        super();
        this.max = max;
      }
      on_pre_llm_call() {
        if (this.max === 0) throw new PolicyViolation("rate_limit", "Rate limit exceeded: 0/min");
      }
    }
    const strict = createRecordingHost("q");
    strict.addContract(new RateLimitGovernance(0));
    const call = { tenant: "default", step: 1, model: "test:x", messages: [], tools: [], settings: {} };
    await expect(runHook(strict, "pre_llm_call", call)).rejects.toThrow("Rate limit exceeded: 0/min");
  });

  test("refuses a class whose constructor fails without arguments, saying to pass an instance", () => {
    class NeedsConfig extends GovernanceContract {
      constructor(config: { limit: number }) {
        super();
        if (config.limit < 0) throw new Error("negative");
      }
      on_error() {}
    }
    const error = thrown(() => createRecordingHost("p").addContract(NeedsConfig as never));
    expect(isOz0Error(error, "INVALID_PLUGIN")).toBe(true);
    expect(error.message).toContain("host.addContract(new NeedsConfig(…))");
  });

  test("refuses a contract that gives the host nothing to register", () => {
    class Quiet extends GovernanceContract {}
    const error = thrown(() => createRecordingHost("p").addContract(Quiet));
    expect(isOz0Error(error, "INVALID_PLUGIN")).toBe(true);
    expect(error.message).toContain("nothing to register");
  });

  test("refuses what is not a contract class, and the SDK's own contracts", () => {
    const host = createRecordingHost("p");
    expect(
      isOz0Error(
        thrown(() => host.addContract(class Plain {} as never)),
        "INVALID_PLUGIN",
      ),
    ).toBe(true);
    expect(
      isOz0Error(
        thrown(() => host.addContract(ToolContract)),
        "INVALID_PLUGIN",
      ),
    ).toBe(true);
    expect(
      isOz0Error(
        thrown(() => host.addContract({} as never)),
        "INVALID_PLUGIN",
      ),
    ).toBe(true);
  });

  test("refuses a ToolContract that does not define getName", () => {
    abstract class Half extends ToolContract {
      getDescription() {
        return "No name.";
      }
      execute() {
        return null;
      }
    }
    const error = thrown(() => createRecordingHost("p").addContract(Half as never));
    expect(isOz0Error(error, "INVALID_PLUGIN")).toBe(true);
    expect(error.message).toContain("must define getName()");
  });
});
