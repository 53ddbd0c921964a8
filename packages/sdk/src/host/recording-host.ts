// The in-memory host: it checks and records what a plugin's setup registers, and builds
// nothing. The runtime's loader runs every plugin's setup against one, then wires what it
// recorded; tests and the testing helpers use the same one, so both see the same checks.
import { ContractBase, type ContractClass } from "../contracts/base.js";
import { MemoryContract } from "../contracts/memory.js";
import { type PluginInfo, pluginIdName, pluginInfo } from "../contracts/plugin.js";
import { SurfaceAdapter } from "../contracts/surface.js";
import { CONTRACT_TAXONOMY } from "../contracts/taxonomy.js";
import { contractFunction, ToolContract } from "../contracts/tool-contract.js";
import { Oz0Error } from "../errors/index.js";
import { hookHandlersOf } from "../hooks/handlers.js";
import { nameProblem } from "../names/index.js";
import { withArticle } from "../text/index.js";
import { checkFunction } from "./build.js";
import {
  type ContractOptions,
  type ContractPart,
  type ContractRegistration,
  type Host,
  REGISTRATION_KINDS,
  type Registration,
  type RegistrationHandle,
  type RegistrationKind,
  type SpecByKind,
} from "./host.js";
import type { FunctionSpec, Registered } from "./specs.js";

export interface RegistrationChange {
  readonly type: "added" | "enabled" | "disabled" | "removed";
  readonly registration: Registration;
}

export interface RecordingHost extends Host {
  /** Live registrations (not removed), in registration order; of one kind when given. */
  registrations<K extends RegistrationKind>(kind?: K): readonly Registration<K>[];
  registration<K extends RegistrationKind>(kind: K, name: string): Registration<K> | undefined;
  /** The kinds with at least one live registration, in REGISTRATION_KINDS order. */
  kinds(): RegistrationKind[];
  /** Calls `listener` on every later registration, enable, disable and remove. */
  subscribe(listener: (change: RegistrationChange) => void): () => void;
}

/** How each kind reads in messages. */
const LABELS: Record<RegistrationKind, string> = {
  admin: "admin spec",
  tool: "tool",
  provider: "provider",
  channel: "channel",
  hook: "hook",
  memory: "memory provider",
  runtime: "runtime",
  harness: "harness",
  prompt_inventory: "prompt inventory",
  system_prompt: "system prompt section",
  before_run: "before-run handler",
  before_tool_call: "before-tool-call handler",
  after_tool_result: "after-tool-result handler",
  flow: "flow",
};

/** What each kind needs beyond a name, checked at registration, not at first use: a problem or undefined. */
const CHECKS: Record<RegistrationKind, (spec: Record<string, unknown>) => string | undefined> = {
  admin: (spec) =>
    optionalFunction(spec, "validate") ??
    optionalFunction(spec, "redact") ??
    optionalFunction(spec, "status"),
  tool: (spec) =>
    (typeof spec.description !== "string" || spec.description.trim() === ""
      ? "needs a description (the manifest and the console show it)"
      : undefined) ??
    requireFunction(spec, "build", "build(ctx), returning { functions: [ … ] }") ??
    optionalBoolean(spec, "required"),
  provider: (spec) => {
    const meta = spec.meta as { displayName?: unknown; defaultUrl?: unknown } | undefined;
    if (typeof meta?.displayName !== "string" || meta.displayName === "") {
      return "needs meta: { displayName, defaultUrl? }, which the console shows";
    }
    if (meta.defaultUrl !== undefined && typeof meta.defaultUrl !== "string")
      return "meta.defaultUrl must be a URL string";
    return requireFunction(spec, "build", "build(ctx), returning the provider");
  },
  channel: (spec) =>
    optionalBoolean(spec, "supportsNotifications") ??
    optionalFunction(spec, "configured") ??
    optionalFunction(spec, "notificationsEnabled") ??
    requireFunction(spec, "build", "build(ctx), returning the channel"),
  hook: (spec) => requireFunction(spec, "build", "build(ctx), returning handlers by hook name"),
  memory: (spec) => requireFunction(spec, "build", "build(ctx), returning the memory provider"),
  runtime: (spec) => requireFunction(spec, "build", "build(ctx), returning { start, stop, reconcile? }"),
  harness: checkHarness,
  prompt_inventory: (spec) => requireFunction(spec, "getTools", "getTools(ctx), listing the tools"),
  system_prompt: (spec) =>
    optionalBoolean(spec, "required") ??
    requireFunction(spec, "build", "build(ctx), returning the section text"),
  before_run: checkLifecycle,
  before_tool_call: checkLifecycle,
  after_tool_result: checkLifecycle,
  flow: (spec) =>
    requireFunction(spec, "run", "run(ctx), which takes the flow's steps") ??
    (spec.output === undefined || (typeof spec.output === "object" && spec.output !== null)
      ? undefined
      : "output must be a JSON Schema object"),
};

/** A harness spec: its protocol, and a command with string arguments and environment. */
function checkHarness(spec: Record<string, unknown>): string | undefined {
  if (spec.protocol !== "acp" && spec.protocol !== "jsonl") {
    return `needs protocol: "acp" (the Agent Client Protocol) or "jsonl" (JSON lines)`;
  }
  if (typeof spec.command !== "string" || spec.command.trim() === "") {
    return "needs command: the program oz0 starts for a job";
  }
  if (
    spec.args !== undefined &&
    !(Array.isArray(spec.args) && spec.args.every((arg) => typeof arg === "string"))
  ) {
    return "args must be a list of strings";
  }
  const env = spec.env;
  if (
    env !== undefined &&
    (typeof env !== "object" || env === null || Object.values(env).some((value) => typeof value !== "string"))
  ) {
    return "env must map names to strings";
  }
  const acp = spec.acp as { asks?: unknown; mode?: unknown } | undefined;
  if (acp !== undefined) {
    if (spec.protocol !== "acp") return "acp: options are for an ACP harness only";
    if (typeof acp !== "object" || acp === null) return "acp must be an object: { asks?, mode? }";
    if (acp.asks !== undefined && typeof acp.asks !== "boolean") return "acp.asks must be true or false";
    if (acp.mode !== undefined && typeof acp.mode !== "string") return "acp.mode must be a session mode ID";
  }
  return undefined;
}

/**
 * A host that records registrations for `pluginId`, refusing a bad one at once: a name
 * that breaks the rules (`INVALID_NAME`), a second one of a name in a kind
 * (`DUPLICATE_REGISTRATION`), a spec missing what its kind needs (`INVALID_PLUGIN`).
 */
export function createRecordingHost(pluginId: string): RecordingHost {
  const problem = nameProblem("plugin", pluginId);
  if (problem !== undefined) {
    throw new Oz0Error("INVALID_NAME", `${problem}.`, { data: { kind: "plugin", name: pluginId } });
  }

  const live: Registration[] = [];
  const listeners = new Set<(change: RegistrationChange) => void>();
  const toolGroups = new Map<string, ToolGroup>();
  const emit = (type: RegistrationChange["type"], registration: Registration): void => {
    for (const listener of [...listeners]) listener({ type, registration });
  };
  const find = (kind: RegistrationKind, name: string): Registration | undefined =>
    live.find((registration) => registration.kind === kind && registration.name === name);

  function add<K extends RegistrationKind>(kind: K, input: SpecByKind[K]): Registration<K> {
    const label = LABELS[kind];
    if (typeof input !== "object" || input === null) {
      const got = input === null ? "null" : typeof input;
      throw invalid(
        `plugin '${pluginId}'`,
        `add ${withArticle(label)} with a spec object, not ${got}`,
        pluginId,
      );
    }
    const spec = input as unknown as Record<string, unknown>;
    const name = checkName(kind, defaultName(kind, spec));
    const at = `plugin '${pluginId}', ${label} '${name}'`;
    if (spec.pluginId !== undefined && spec.pluginId !== pluginId) {
      const given = String(spec.pluginId);
      throw invalid(
        at,
        `its spec says pluginId '${given}'; leave pluginId out, the host fills it in`,
        pluginId,
      );
    }
    const problem = CHECKS[kind](spec);
    if (problem !== undefined) throw invalid(at, problem, pluginId);
    if (find(kind, name) !== undefined) {
      throw new Oz0Error(
        "DUPLICATE_REGISTRATION",
        `plugin '${pluginId}': ${label} '${name}' is already registered. A plugin registers each ${label} name once; rename one, or remove() the first registration before adding it again.`,
        { data: { plugin: pluginId, kind, name } },
      );
    }
    // Keep the spec's prototype, so a spec written as a class instance keeps its methods.
    const registered = Object.freeze(
      Object.assign(Object.create(Object.getPrototypeOf(spec)), spec, { name, pluginId }),
    ) as Registered<SpecByKind[K]>;
    let enabled = true;
    let removed = false;
    const registration: Registration<K> = {
      kind,
      name,
      pluginId,
      spec: registered,
      get enabled() {
        return enabled && !removed;
      },
      get removed() {
        return removed;
      },
      enable() {
        if (removed) throw removedError(at, pluginId);
        if (enabled) return;
        enabled = true;
        emit("enabled", registration);
      },
      disable() {
        if (removed) throw removedError(at, pluginId);
        if (!enabled) return;
        enabled = false;
        emit("disabled", registration);
      },
      remove() {
        if (removed) return;
        removed = true;
        live.splice(live.indexOf(registration), 1);
        emit("removed", registration);
      },
    };
    live.push(registration);
    emit("added", registration);
    return registration;
  }

  function checkName(kind: RegistrationKind, name: unknown): string {
    const label = LABELS[kind];
    if (typeof name !== "string") {
      throw new Oz0Error(
        "INVALID_NAME",
        `plugin '${pluginId}': ${withArticle(label)} needs a name (a string).`,
        {
          data: { kind: label, name: String(name) },
        },
      );
    }
    // Every capability name follows the tool ID rule: it is safe in addresses, queue names
    // and model-visible names alike. The rule's own text says "tool name"; say what it is.
    // A flow is named like an agent, since the two share one set of names.
    if (kind === "flow") {
      const problem = nameProblem("flow", name);
      if (problem === undefined) return name;
      throw new Oz0Error("INVALID_NAME", `plugin '${pluginId}': ${problem}.`, {
        data: { kind: "flow", name },
      });
    }
    const found = nameProblem("tool", name);
    if (found === undefined) return name;
    const text = kind === "tool" ? found : found.replace("tool name", `${label} name`);
    throw new Oz0Error("INVALID_NAME", `plugin '${pluginId}': ${text}.`, { data: { kind: label, name } });
  }

  function addContract(
    contract: ContractClass | ContractBase,
    options: ContractOptions = {},
  ): ContractRegistration {
    const instance = instantiate(contract, pluginId);
    const info = pluginInfo(instance.constructor as ContractClass);
    const owner = `plugin '${pluginId}', contract class ${info.className} (${info.pluginId})`;
    const name = pluginIdName(info.pluginId);
    const parts: ContractPart[] = [];
    const handles: RegistrationHandle[] = [];
    try {
      if (instance instanceof ToolContract) {
        const joined = joinToolGroup(instance, options, name, owner);
        parts.push(joined.part);
        handles.push(joined.handle);
      }
      if (instance instanceof MemoryContract) {
        handles.push(add("memory", { name, build: () => instance }));
        parts.push({ kind: "memory", name });
      }
      if (instance instanceof SurfaceAdapter) {
        const surface = instance.surfaceType;
        handles.push(add("channel", { name: surface, build: () => instance }));
        parts.push({ kind: "channel", name: surface });
      }
      const handlers = hookHandlersOf(instance, owner);
      if (Object.keys(handlers).length > 0) {
        handles.push(add("hook", { name, build: () => handlers }));
        parts.push({ kind: "hook", name });
      }
    } catch (error) {
      for (const handle of handles) handle.remove();
      throw error;
    }
    if (parts.length === 0) {
      throw invalid(
        owner,
        `it implements [${info.implements.join(", ")}] but gives the host nothing to register: oz0 registers a ToolContract, a MemoryContract, a SurfaceAdapter, and on_<hook> handler methods`,
        pluginId,
      );
    }
    return contractRegistration(info, parts, handles);
  }

  /** A ToolContract is one function; contracts given the same tool ID share one tool. */
  function joinToolGroup(
    tool: ToolContract,
    options: ContractOptions,
    defaultTool: string,
    owner: string,
  ): { part: ContractPart; handle: RegistrationHandle } {
    for (const method of ["getName", "getDescription", "execute"] as const) {
      if (typeof tool[method] !== "function")
        throw invalid(owner, `a ToolContract must define ${method}()`, pluginId);
    }
    const fn = contractFunction(tool);
    checkFunction(fn, owner);
    const toolId = options.tool ?? defaultTool;
    let group = toolGroups.get(toolId);
    if (group === undefined || group.registration.removed) {
      const members = new Map<string, ToolMember>();
      const registration = add("tool", {
        name: toolId,
        description: options.description ?? fn.description,
        build: () => ({ functions: [...members.values()].filter((m) => m.enabled).map((m) => m.fn) }),
      });
      group = { registration, members };
      toolGroups.set(toolId, group);
    } else if (group.members.has(fn.name)) {
      throw new Oz0Error(
        "DUPLICATE_REGISTRATION",
        `${owner}: tool '${toolId}' already has a function '${fn.name}'. Give the class another getName(), or another tool with addContract(Class, { tool }).`,
        { data: { plugin: pluginId, kind: "function", name: `${toolId}.${fn.name}` } },
      );
    }
    const { registration, members } = group;
    const member: ToolMember = { fn, enabled: true };
    members.set(fn.name, member);
    let removed = false;
    const handle: RegistrationHandle = {
      get enabled() {
        return member.enabled && !removed && registration.enabled;
      },
      get removed() {
        return removed;
      },
      enable: () => {
        if (removed) throw removedError(owner, pluginId);
        member.enabled = true;
      },
      disable: () => {
        if (removed) throw removedError(owner, pluginId);
        member.enabled = false;
      },
      remove: () => {
        if (removed) return;
        removed = true;
        members.delete(fn.name);
        if (members.size === 0) registration.remove();
      },
    };
    return { part: { kind: "tool", name: toolId, function: fn.name }, handle };
  }

  return {
    pluginId,
    addAdmin: (spec) => add("admin", spec as SpecByKind["admin"]),
    addTool: (spec) => add("tool", spec),
    addProvider: (spec) => add("provider", spec),
    addChannel: (spec) => add("channel", spec),
    addHook: (spec) => add("hook", spec),
    addMemory: (spec) => add("memory", spec),
    addRuntime: (spec) => add("runtime", spec),
    addHarness: (spec) => add("harness", spec),
    addPromptInventory: (spec) => add("prompt_inventory", spec),
    addSystemPrompt: (spec) => add("system_prompt", spec),
    addBeforeRun: (spec) => add("before_run", spec),
    addBeforeToolCall: (spec) => add("before_tool_call", spec),
    addAfterToolResult: (spec) => add("after_tool_result", spec),
    addFlow: (spec) => add("flow", spec),
    addContract,
    registrations: <K extends RegistrationKind>(kind?: K) =>
      (kind === undefined
        ? [...live]
        : live.filter((registration) => registration.kind === kind)) as Registration<K>[],
    registration: <K extends RegistrationKind>(kind: K, name: string) =>
      find(kind, name) as Registration<K> | undefined,
    kinds: () => REGISTRATION_KINDS.filter((kind) => live.some((registration) => registration.kind === kind)),
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

interface ToolMember {
  readonly fn: FunctionSpec;
  enabled: boolean;
}

interface ToolGroup {
  readonly registration: Registration<"tool">;
  readonly members: Map<string, ToolMember>;
}

function defaultName(kind: RegistrationKind, spec: Record<string, unknown>): unknown {
  if (spec.name !== undefined) return spec.name;
  if (kind === "prompt_inventory") return "inventory";
  if (kind !== "admin") return undefined;
  const configOnly = ["defaultConfig", "schema", "validate", "redact"].some((key) => spec[key] !== undefined);
  return spec.status !== undefined && !configOnly ? "status" : "config";
}

const SDK_CONTRACTS: ReadonlySet<unknown> = new Set(CONTRACT_TAXONOMY.map((row) => row.contract));

function instantiate(contract: ContractClass | ContractBase, pluginId: string): ContractBase {
  if (typeof contract === "object" && contract !== null && contract instanceof ContractBase) return contract;
  const name = typeof contract === "function" ? contract.name || "(anonymous class)" : String(contract);
  const at = `plugin '${pluginId}', ${name}`;
  if (typeof contract !== "function" || !(contract.prototype instanceof ContractBase)) {
    throw invalid(
      at,
      "addContract takes a contract class or an instance of one: a class extending ToolContract, MemoryContract, SurfaceAdapter, GovernanceContract or another contract",
      pluginId,
    );
  }
  if (SDK_CONTRACTS.has(contract)) {
    throw invalid(at, "it is one of the SDK's contracts; register a class that extends it", pluginId);
  }
  try {
    return new (contract as unknown as new () => ContractBase)();
  } catch (error) {
    throw new Oz0Error(
      "INVALID_PLUGIN",
      `${at}: constructing it with no arguments failed (${error instanceof Error ? error.message : String(error)}). Pass an instance instead: host.addContract(new ${name}(…)).`,
      { data: { plugin: pluginId, detail: "constructor failed" }, cause: error },
    );
  }
}

function contractRegistration(
  info: PluginInfo,
  parts: readonly ContractPart[],
  handles: readonly RegistrationHandle[],
): ContractRegistration {
  return {
    info,
    parts: Object.freeze([...parts]),
    get enabled() {
      return handles.every((handle) => handle.enabled);
    },
    get removed() {
      return handles.every((handle) => handle.removed);
    },
    enable: () => {
      for (const handle of handles) handle.enable();
    },
    disable: () => {
      for (const handle of handles) handle.disable();
    },
    remove: () => {
      for (const handle of handles) handle.remove();
    },
  };
}

function checkLifecycle(spec: Record<string, unknown>): string | undefined {
  if (spec.order !== undefined && !Number.isFinite(spec.order)) return "order must be a finite number";
  return requireFunction(spec, "run", "run(payload)") ?? optionalBoolean(spec, "required");
}

function requireFunction(spec: Record<string, unknown>, key: string, what: string): string | undefined {
  return typeof spec[key] === "function" ? undefined : `needs ${what}`;
}

function optionalFunction(spec: Record<string, unknown>, key: string): string | undefined {
  return spec[key] === undefined || typeof spec[key] === "function" ? undefined : `${key} must be a function`;
}

function optionalBoolean(spec: Record<string, unknown>, key: string): string | undefined {
  return spec[key] === undefined || typeof spec[key] === "boolean"
    ? undefined
    : `${key} must be true or false`;
}

function removedError(at: string, pluginId: string): Oz0Error {
  return invalid(
    at,
    "it was removed; register it again instead of enabling or disabling the removed registration",
    pluginId,
  );
}

function invalid(at: string, problem: string, plugin: string): Oz0Error {
  return new Oz0Error("INVALID_PLUGIN", `${at}: ${problem}.`, { data: { plugin, detail: problem } });
}
