// Testing helpers for plugin authors: load a plugin object against the recording host the
// runtime's loader uses, then call its functions and run its hook handlers without a
// runtime, a database or a model.
import { Oz0Error } from "../errors/index.js";
import type { HookName } from "../hooks/catalogue.js";
import { hookPoint, LIFECYCLE_HOOKS } from "../hooks/catalogue.js";
import type { HookPayload } from "../hooks/payloads.js";
import { type BuiltFunction, buildHookHandlers, buildTool } from "../host/build.js";
import { assertPluginObject, type Registration } from "../host/host.js";
import { createRecordingHost, type RecordingHost } from "../host/recording-host.js";
import type { FunctionCall, LifecycleContext, ToolContext, ToolRuntime } from "../host/specs.js";

/** The plugin name a test host records under, unless a test gives one. */
export const TEST_PLUGIN_ID = "test-plugin";

type Source = RecordingHost | readonly Registration[];

/**
 * Runs a plugin object's `setup` against a fresh recording host and returns the host, whose
 * `registrations()` list what the plugin registered. Refuses what the loader refuses.
 * @example
 * const host = await loadPluginForTest(plugin);
 * expect(host.kinds()).toEqual(["tool"]);
 */
export async function loadPluginForTest(
  plugin: unknown,
  options: { readonly pluginId?: string } = {},
): Promise<RecordingHost> {
  const pluginId = options.pluginId ?? TEST_PLUGIN_ID;
  assertPluginObject(plugin, pluginId);
  const host = createRecordingHost(pluginId);
  await plugin.setup(host);
  return host;
}

/** A ToolContext with fixed paths and a runtime that refuses every call unless one is given. */
export function testToolContext(overrides: Partial<ToolContext> = {}): ToolContext {
  return {
    pluginId: TEST_PLUGIN_ID,
    tenant: "default",
    platform: process.platform,
    paths: {
      home: "/oz0-test/home",
      userRoot: "/oz0-test/user",
      toolsBinDir: "/oz0-test/home/bin",
      agentRoot: "/oz0-test/agent",
    },
    runtime: noRuntime,
    config: {},
    ...overrides,
  };
}

/** A FunctionCall for a test: job `test-job`, first attempt, a signal nobody aborts. */
export function testCall(overrides: Partial<FunctionCall> = {}): FunctionCall {
  return {
    tenant: "default",
    jobId: "test-job",
    callId: "test-call",
    idempotencyKey: "test-job:test-call",
    address: "",
    attempt: 1,
    signal: new AbortController().signal,
    ...overrides,
  };
}

/**
 * Builds the plugin's tools and calls one function, as `<tool>.<function>` or, when only
 * one tool has it, the bare function name. With a zod input the arguments are parsed first.
 * @example await callFunction(host, "tickets.lookup", { id: 7 })
 */
export async function callFunction(
  source: Source,
  name: string,
  args: unknown = {},
  options: { readonly context?: Partial<ToolContext>; readonly call?: Partial<FunctionCall> } = {},
): Promise<unknown> {
  const tools = registrationsOf(source).filter((r): r is Registration<"tool"> => r.kind === "tool");
  const dot = name.indexOf(".");
  const wanted = dot < 0 ? undefined : name.slice(0, dot);
  const fnName = dot < 0 ? name : name.slice(dot + 1);
  const found: { tool: Registration<"tool">; fn: BuiltFunction }[] = [];
  const listed: string[] = [];
  for (const tool of tools) {
    const context = testToolContext({ pluginId: tool.pluginId, ...options.context });
    for (const fn of (await buildTool(tool.spec, context)).functions) {
      listed.push(`${tool.name}.${fn.name}`);
      if (fn.name === fnName && (wanted === undefined || wanted === tool.name)) found.push({ tool, fn });
    }
  }
  const match = found[0];
  if (match === undefined || found.length > 1) {
    const why =
      match === undefined
        ? "no registered tool has it"
        : "more than one tool has it; write <tool>.<function>";
    throw new Oz0Error(
      "INVALID_ADDRESS",
      `cannot call '${name}': ${why}. Registered functions: ${listed.join(", ") || "none"}.`,
      { data: { input: name, form: "<tool>.<function>" } },
    );
  }
  if (!match.tool.enabled) {
    throw new Oz0Error("INVALID_ADDRESS", `cannot call '${name}': tool '${match.tool.name}' is disabled.`, {
      data: { input: name, form: "<tool>.<function>" },
    });
  }
  const address = `${match.tool.pluginId}/${match.tool.name}.${match.fn.name}`;
  return match.fn.run(args, testCall({ address, ...options.call }));
}

/**
 * Runs the plugin's handlers of one hook over a payload, as the hook bus does: lifecycle
 * specs by `order` and hook specs at order 0, ties in registration order; on a modifying
 * hook each handler's changes are merged into the payload the next one gets. A handler's
 * throw (a PolicyViolation, say) is thrown on. Returns the final payload.
 * @example await runHook(host, "pre_tool_call", { tenant: "default", … })
 */
export async function runHook<H extends HookName>(
  source: Source,
  hook: H,
  payload: Omit<HookPayload<H>, "hook">,
  options: { readonly config?: Readonly<Record<string, unknown>> } = {},
): Promise<HookPayload<H>> {
  const point = hookPoint(hook);
  const handlers: { order: number; run: (payload: unknown) => unknown }[] = [];
  for (const registration of registrationsOf(source)) {
    if (!registration.enabled) continue;
    if (registration.kind === "hook") {
      const spec = (registration as Registration<"hook">).spec;
      const built = await buildHookHandlers(spec, { pluginId: spec.pluginId, config: options.config ?? {} });
      const handler = built[hook] as ((payload: unknown) => unknown) | undefined;
      if (handler !== undefined) handlers.push({ order: 0, run: handler });
    } else if (registration.kind in LIFECYCLE_HOOKS) {
      if (LIFECYCLE_HOOKS[registration.kind as keyof typeof LIFECYCLE_HOOKS] !== hook) continue;
      const spec = registration.spec as {
        pluginId: string;
        order?: number;
        run: (payload: unknown, ctx: LifecycleContext) => unknown;
      };
      const ctx: LifecycleContext = Object.freeze({ pluginId: spec.pluginId, config: options.config ?? {} });
      handlers.push({ order: spec.order ?? 0, run: (p) => spec.run(p, ctx) });
    }
  }
  handlers.sort((a, b) => a.order - b.order);
  let current = { ...payload, hook } as Record<string, unknown>;
  for (const handler of handlers) {
    const changes = await handler.run(Object.freeze({ ...current }));
    if (point.modifying && typeof changes === "object" && changes !== null)
      current = { ...current, ...changes };
  }
  return current as HookPayload<H>;
}

function registrationsOf(source: Source): readonly Registration[] {
  return Array.isArray(source) ? source : (source as RecordingHost).registrations();
}

const refuse = (operation: string) => async (): Promise<never> => {
  throw new Oz0Error(
    "INTERNAL",
    `the test tool context has no runtime, so ${operation} is not available: pass { context: { runtime } } with a fake ToolRuntime.`,
  );
};

const noRuntime: ToolRuntime = {
  readFile: refuse("readFile"),
  writeFile: refuse("writeFile"),
  listDir: refuse("listDir"),
  exec: refuse("exec"),
};
