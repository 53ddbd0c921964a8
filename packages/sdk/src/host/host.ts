// The host a plugin's `setup` registers its capabilities with, the handles registration
// returns, and `definePlugin`. A plugin object is plain data with a `setup` function, so
// JavaScript plugins need nothing from this package to be loaded.
import type { ContractBase, ContractClass } from "../contracts/base.js";
import type { PluginInfo } from "../contracts/plugin.js";
import { Oz0Error } from "../errors/index.js";
import { withArticle } from "../text/index.js";
import type { FlowSpec } from "./flow-spec.js";
import type {
  AdminSpec,
  AfterToolResultSpec,
  BeforeRunSpec,
  BeforeToolCallSpec,
  ChannelSpec,
  HarnessSpec,
  HookSpec,
  MemorySpec,
  PluginConfig,
  PromptInventorySpec,
  ProviderSpec,
  Registered,
  RuntimeSpec,
  SystemPromptSpec,
  ToolSpec,
} from "./specs.js";

/**
 * The kinds of capability a plugin's code registers, one per host method. A manifest's
 * `capabilities:` uses the same words, plus `config` and `status` for the two sides of an
 * admin spec; `capabilityMismatch` compares the two.
 */
export const REGISTRATION_KINDS = Object.freeze([
  "admin",
  "tool",
  "provider",
  "channel",
  "hook",
  "memory",
  "runtime",
  "harness",
  "prompt_inventory",
  "system_prompt",
  "before_run",
  "before_tool_call",
  "after_tool_result",
  "flow",
] as const);

export type RegistrationKind = (typeof REGISTRATION_KINDS)[number];

export interface SpecByKind {
  admin: AdminSpec;
  tool: ToolSpec;
  provider: ProviderSpec;
  channel: ChannelSpec;
  hook: HookSpec;
  memory: MemorySpec;
  runtime: RuntimeSpec;
  harness: HarnessSpec;
  prompt_inventory: PromptInventorySpec;
  system_prompt: SystemPromptSpec;
  before_run: BeforeRunSpec;
  before_tool_call: BeforeToolCallSpec;
  after_tool_result: AfterToolResultSpec;
  flow: FlowSpec;
}

/** What every registration returns, as the MCP SDK's `registerTool` returns a RegisteredTool. */
export interface RegistrationHandle {
  readonly enabled: boolean;
  readonly removed: boolean;
  /** Puts a disabled registration back in use. */
  enable(): void;
  /** Keeps the registration but takes it out of use (a disabled tool is not offered or called). */
  disable(): void;
  /** Drops the registration; its name may be registered again. */
  remove(): void;
}

export interface Registration<K extends RegistrationKind = RegistrationKind> extends RegistrationHandle {
  readonly kind: K;
  readonly name: string;
  readonly pluginId: string;
  /** The spec as registered, with `pluginId` filled in. */
  readonly spec: Registered<SpecByKind[K]>;
}

/** How `addContract` places a ToolContract's function. */
export interface ContractOptions {
  /**
   * The tool ID the function joins. Left out, the name part of the class's plugin ID
   * (`WeatherTool` → `weather`); classes given the same tool ID become functions of one tool.
   */
  readonly tool?: string;
  /** The tool's description, when this contract creates the tool; else the function's. */
  readonly description?: string;
}

/** One capability a contract class contributed. */
export interface ContractPart {
  readonly kind: RegistrationKind;
  readonly name: string;
  /** For a ToolContract: its function within the tool `name`. */
  readonly function?: string;
}

export interface ContractRegistration extends RegistrationHandle {
  readonly info: PluginInfo;
  readonly parts: readonly ContractPart[];
}

/** What a plugin's `setup` registers its capabilities with. */
export interface Host {
  /** The plugin whose code is being set up. */
  readonly pluginId: string;
  addAdmin<Config extends PluginConfig>(spec: AdminSpec<Config>): Registration<"admin">;
  addTool(spec: ToolSpec): Registration<"tool">;
  addProvider(spec: ProviderSpec): Registration<"provider">;
  addChannel(spec: ChannelSpec): Registration<"channel">;
  addHook(spec: HookSpec): Registration<"hook">;
  addMemory(spec: MemorySpec): Registration<"memory">;
  addRuntime(spec: RuntimeSpec): Registration<"runtime">;
  /** Registers a harness: an agent process that agents with `runtime: harness:<name>` run on. */
  addHarness(spec: HarnessSpec): Registration<"harness">;
  addPromptInventory(spec: PromptInventorySpec): Registration<"prompt_inventory">;
  addSystemPrompt(spec: SystemPromptSpec): Registration<"system_prompt">;
  addBeforeRun(spec: BeforeRunSpec): Registration<"before_run">;
  addBeforeToolCall(spec: BeforeToolCallSpec): Registration<"before_tool_call">;
  addAfterToolResult(spec: AfterToolResultSpec): Registration<"after_tool_result">;
  /** Registers a flow defined in code; `oz0 run <plugin>/<flow>` runs it as a job. */
  addFlow(spec: FlowSpec): Registration<"flow">;
  /**
   * Registers a `@plugin` contract class (or an instance of one, for a class whose
   * constructor takes arguments): a ToolContract as a function, a MemoryContract as memory,
   * a SurfaceAdapter as a channel, and any `on_<hook>` methods as a hook.
   */
  addContract(contract: ContractClass | ContractBase, options?: ContractOptions): ContractRegistration;
}

/** What a plugin's code entry default-exports. */
export interface PluginObject {
  setup(host: Host): void | Promise<void>;
}

/**
 * Types a plugin object; it returns its argument unchanged, so a plain JavaScript object
 * with `setup` works the same without importing anything.
 * @example export default definePlugin({ setup(host) { host.addTool({ … }); } });
 */
export function definePlugin<P extends PluginObject>(plugin: P): P {
  return plugin;
}

/** Throws `INVALID_PLUGIN` unless `value` is a plugin object (what a code entry must export). */
export function assertPluginObject(value: unknown, pluginId: string): asserts value is PluginObject {
  if (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { setup?: unknown }).setup === "function"
  )
    return;
  const got =
    value === null
      ? "null"
      : typeof value === "object"
        ? "an object without a setup function"
        : withArticle(typeof value);
  throw new Oz0Error(
    "INVALID_PLUGIN",
    `plugin '${pluginId}': its code entry must default-export an object with a setup(host) function, and it exported ${got}. Write: export default { setup(host) { … } }.`,
    { data: { plugin: pluginId, detail: `default export is ${got}` } },
  );
}

/**
 * The manifest words a registration answers to: its kind, and for an admin spec `config`
 * and/or `status` for the side it covers ("list runtime, config, and status").
 */
export function capabilityWords(registration: Pick<Registration, "kind" | "spec">): string[] {
  if (registration.kind !== "admin") return [registration.kind];
  const spec = registration.spec as AdminSpec;
  const words = ["admin"];
  if ([spec.defaultConfig, spec.schema, spec.validate, spec.redact].some((part) => part !== undefined)) {
    words.push("config");
  }
  if (spec.status !== undefined) words.push("status");
  return words;
}

/**
 * What a manifest's `capabilities:` and the code's registrations disagree on: words to add
 * for registrations the manifest does not mention (an admin spec is mentioned by `admin`,
 * `config` or `status`), and declared words nothing registered.
 */
export function capabilityMismatch(
  declared: readonly string[],
  registrations: readonly Pick<Registration, "kind" | "spec">[],
): { undeclared: string[]; unregistered: string[] } {
  const undeclared = new Set<string>();
  const registered = new Set<string>();
  for (const registration of registrations) {
    const words = capabilityWords(registration);
    for (const word of words) registered.add(word);
    if (!words.some((word) => declared.includes(word))) {
      for (const word of words.length > 1 ? words.slice(1) : words) undeclared.add(word);
    }
  }
  return { undeclared: [...undeclared], unregistered: declared.filter((word) => !registered.has(word)) };
}
