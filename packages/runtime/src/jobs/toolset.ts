// The functions a job's model is offered: the agent's `tools:` resolved by address (bare names
// in its own plugin, addresses elsewhere, built-ins `oz.*`), each under its model-visible name.
// A function whose name is longer than 64 characters, whatever the provider (the spec's rule,
// so an agent offers the same functions on every model), a built-in this oz0 does not have, or
// another plugin's function its plugin's uses: does not grant, is left out with the reason; a
// tool two plugins provide fails the job. With `tool_loading: lazy` the plugin functions are
// kept aside for oz.find_tools and oz.call_tool.
import {
  isBuiltinFunction,
  isOz0Error,
  MODEL_NAME_LIMIT,
  modelVisibleName,
  type PluginManifest,
  resolveReference,
} from "@oz0/sdk";
import { type GrantTarget, grantRefusal, type TenantGrant, tenantGrantRefusal } from "../catalog/index.js";
import type { JobEventData } from "../events/index.js";
import type { ModelFunction } from "../models/index.js";
import type { CallableFunction, FunctionResolver } from "../tools/index.js";
import { type BuiltinContext, builtinFunction } from "./builtins.js";
import { findToolsFunction, type Unavailable } from "./lazy-tools.js";

/** A tool whose functions the agent uses: its manual joins the start-up context. */
export interface UsedTool {
  /** `<plugin>/<tool>`, or `oz` for the built-ins. */
  readonly address: string;
  readonly description: string;
  readonly functions: CallableFunction[];
}

export interface Toolset {
  /** What the model may call directly, by model-visible name. */
  readonly functions: ReadonlyMap<string, CallableFunction>;
  /** With `tool_loading: lazy`: the plugin functions found and called through oz.find_tools and oz.call_tool. */
  readonly lazy: ReadonlyMap<string, CallableFunction>;
  /** What the model is offered, in the order the agent lists them. */
  readonly offered: readonly ModelFunction[];
  readonly leftOut: readonly JobEventData["function_left_out"][];
  /**
   * Another plugin's functions the agent lists that its plugin's uses: does not grant, and why,
   * by model-visible name and by address (oz.call_tool names either).
   */
  readonly ungranted: ReadonlyMap<string, string>;
  readonly tools: readonly UsedTool[];
  /** The plugins whose functions the agent uses, its own first. */
  readonly plugins: readonly string[];
  /**
   * Functions the agent lists by name that the MCP server behind their tool does not list now,
   * by model-visible name, with why: a call to one fails that call, not the job.
   */
  readonly missing: ReadonlyMap<string, string>;
  /** MCP-backed tools granted whole (`fs.*`): a function their server adds later can be called. */
  readonly wholeTools: readonly { readonly plugin: string; readonly tool: string }[];
}

/** `<tool>.*` or `<plugin>/<tool>.*`: every function of one tool (`oz.*` is the built-ins' own). */
const WHOLE_TOOL = /^(?!oz\.)[^*]+\.\*$/;

export interface ToolsetOptions {
  readonly plugin: string;
  /** The agent's plugin's manifest: its uses: grants the other plugins' functions it may call. */
  readonly manifest: PluginManifest;
  /**
   * The tenant admin's grant of that `uses:`, read at the claim: another plugin's function it
   * does not cover is left out too. Left out, only `uses:` is checked (a calculation outside a job).
   */
  readonly tenantGrant?: { readonly tenant: string; readonly grant: TenantGrant | undefined } | undefined;
  readonly tools: readonly string[];
  readonly resolver: FunctionResolver;
  readonly builtins: BuiltinContext;
  /** Tool descriptions by `<plugin>/<tool>` from the manifests, for the manuals. */
  readonly describeTool: (plugin: string, tool: string) => Promise<string>;
  /**
   * The longest function name the model's provider accepts. A node offers none over 64 whatever
   * the provider, so a limit above 64 (Anthropic's 128) changes nothing; one below it counts.
   */
  readonly nameLimit?: number | undefined;
  /** `tool_loading: lazy`. */
  readonly lazy?: boolean;
  /** For oz.find_tools: why a function may not be called now. */
  readonly unavailable?: Unavailable;
}

/** Why the agent's plugin may not reach `target`: its `uses:`, then the tenant's grant. */
function reachRefused(
  options: Pick<ToolsetOptions, "manifest" | "tenantGrant">,
  target: GrantTarget,
): ReturnType<typeof grantRefusal> {
  const granted = options.tenantGrant;
  return (
    grantRefusal(options.manifest, target) ??
    (granted === undefined
      ? undefined
      : tenantGrantRefusal(granted.tenant, options.manifest.name, granted.grant, target))
  );
}

/** Resolves the agent's tools; throws TOOL_CLASH, OWNER_MISMATCH or NOT_FOUND for one that cannot be. */
export async function resolveToolset(options: ToolsetOptions): Promise<Toolset> {
  const functions = new Map<string, CallableFunction>();
  const lazy = new Map<string, CallableFunction>();
  const nameLimit = Math.min(options.nameLimit ?? MODEL_NAME_LIMIT, MODEL_NAME_LIMIT);
  const why =
    nameLimit < MODEL_NAME_LIMIT
      ? `the model's provider accepts at most ${nameLimit}`
      : `a node offers no function whose name is over ${MODEL_NAME_LIMIT}, whatever the provider`;
  const leftOut: JobEventData["function_left_out"][] = [];
  const ungranted = new Map<string, string>();
  const tools = new Map<string, UsedTool>();
  const plugins = [options.plugin];
  const listed = [...options.tools];
  // An agent with skills reads them with oz.skill, whether or not it lists it; so does one whose
  // skills the tenant has not granted, to be told so when it reads one.
  const hasSkills = options.builtins.skills.length > 0 || (options.builtins.ungrantedSkills ?? []).length > 0;
  if (hasSkills && !listed.includes("oz.skill")) listed.push("oz.skill");
  // So does an agent with skills.propose propose them with oz.propose_skill.
  if (options.builtins.propose !== undefined && !listed.includes("oz.propose_skill")) {
    listed.push("oz.propose_skill");
  }
  /** Offers `fn` unless its grant or its name's length keeps it out. */
  const add = async (fn: CallableFunction): Promise<void> => {
    const refusal =
      fn.plugin === undefined
        ? undefined
        : reachRefused(options, {
            kind: "function",
            plugin: fn.plugin,
            tool: fn.tool,
            function: fn.function,
          });
    if (refusal !== undefined) {
      leftOut.push({ name: fn.modelName, address: fn.address, reason: refusal.message });
      ungranted.set(fn.modelName, refusal.message).set(fn.address, refusal.message);
      return;
    }
    if (fn.modelName.length > nameLimit) {
      leftOut.push({
        name: fn.modelName,
        address: fn.address,
        reason: `a model would see it as ${fn.modelName}, ${fn.modelName.length} characters; ${why}`,
        length: fn.modelName.length,
        limit: nameLimit,
      });
      return;
    }
    if (functions.has(fn.modelName) || lazy.has(fn.modelName)) return;
    (options.lazy === true && fn.plugin !== undefined ? lazy : functions).set(fn.modelName, fn);
    const toolAddress = fn.plugin === undefined ? "oz" : `${fn.plugin}/${fn.tool}`;
    let tool = tools.get(toolAddress);
    if (tool === undefined) {
      const description =
        fn.plugin === undefined
          ? "oz0's built-in functions."
          : await options.describeTool(fn.plugin, fn.tool);
      tool = { address: toolAddress, description, functions: [] };
      tools.set(toolAddress, tool);
    }
    tool.functions.push(fn);
    if (fn.plugin !== undefined && !plugins.includes(fn.plugin)) plugins.push(fn.plugin);
  };
  const missing = new Map<string, string>();
  const wholeTools: { plugin: string; tool: string }[] = [];
  for (const text of listed) {
    if (WHOLE_TOOL.test(text)) {
      const whole = await options.resolver.resolveTool(text.slice(0, -2), options.plugin);
      if (whole.mcp) wholeTools.push({ plugin: whole.plugin, tool: whole.tool });
      for (const fn of whole.functions) await add(fn);
      continue;
    }
    let resolved: Awaited<ReturnType<FunctionResolver["resolve"]>>;
    try {
      resolved = await options.resolver.resolve(text, options.plugin);
    } catch (error) {
      const lacking = await lackingMcpFunction(options, text, error);
      if (lacking === undefined) throw error;
      leftOut.push(lacking);
      missing.set(lacking.name, lacking.reason);
      continue;
    }
    if (resolved.kind === "builtin") {
      const name = resolved.address.function;
      if (!isBuiltinFunction(name)) {
        leftOut.push({
          name: `oz__${name}`,
          address: `oz.${name}`,
          reason: `oz0 has no built-in oz.${name}`,
        });
        continue;
      }
      if (name === "propose_skill" && options.builtins.propose === undefined) {
        leftOut.push({
          name: "oz__propose_skill",
          address: "oz.propose_skill",
          reason: "oz.propose_skill needs skills.propose, which names the plugin a proposal changes and how",
        });
        continue;
      }
      await add(builtinFunction(name, options.builtins));
      continue;
    }
    await add(resolved.fn);
  }
  if (options.lazy === true) {
    const finder = findToolsFunction(lazy, options.unavailable ?? (async () => undefined));
    const caller = builtinFunction("call_tool", options.builtins);
    let builtins = tools.get("oz");
    if (builtins === undefined) {
      builtins = { address: "oz", description: "oz0's built-in functions.", functions: [] };
      tools.set("oz", builtins);
    }
    for (const fn of [finder, caller]) {
      functions.set(fn.modelName, fn);
      builtins.functions.push(fn);
    }
  }
  const offered = [...functions.values()].map((fn) => ({
    name: fn.modelName,
    description: fn.description,
    inputSchema: fn.inputSchema,
  }));
  return {
    functions,
    lazy,
    offered,
    leftOut,
    ungranted,
    tools: [...tools.values()],
    plugins,
    missing,
    wholeTools,
  };
}

/**
 * `text` names a function its tool's MCP server does not list now: what the job says of it
 * (left out, and a call to it fails that call). Undefined for any other failure to resolve,
 * which fails the job as before: a code tool's functions do not come and go.
 */
async function lackingMcpFunction(
  options: ToolsetOptions,
  text: string,
  error: unknown,
): Promise<JobEventData["function_left_out"] | undefined> {
  if (
    !isOz0Error(error) ||
    error.code !== "NOT_FOUND" ||
    (error.data as { kind?: unknown }).kind !== "function"
  ) {
    return undefined;
  }
  let address: { plugin: string; tool: string; function: string };
  let whole: Awaited<ReturnType<FunctionResolver["resolveTool"]>>;
  try {
    const read = resolveReference(text, { plugin: options.plugin, expect: "function" }).address;
    if (read.kind !== "function") return undefined;
    address = read;
    whole = await options.resolver.resolveTool(`${read.plugin}/${read.tool}`, options.plugin);
  } catch {
    return undefined;
  }
  if (!whole.mcp) return undefined;
  return {
    name: modelVisibleName(whole.tool, address.function),
    address: `${whole.plugin}/${whole.tool}.${address.function}`,
    reason: `the MCP server of ${whole.plugin}/${whole.tool} does not list ${address.function} now (it lists ${whole.functions.map((fn) => fn.function).join(", ") || "nothing"}); a call to it fails`,
  };
}

/**
 * The functions to offer the model now: with tools granted whole, what their servers list at this
 * moment joins the toolset (a function a server added since the last step is offered from this
 * one on, under the same grant and name checks). Listing reads each connection's current list,
 * which `notifications/tools/list_changed` keeps up to date, so no server is asked per step.
 */
export function offeredNow(
  toolset: Toolset,
  options: Pick<ToolsetOptions, "plugin" | "manifest" | "tenantGrant" | "resolver" | "lazy">,
): readonly ModelFunction[] | Promise<readonly ModelFunction[]> {
  // Without a tool granted whole there is no server to ask: no await.
  if (toolset.wholeTools.length === 0 || options.lazy === true) return enabledOnly(toolset);
  return withAdded(toolset, options);
}

async function withAdded(
  toolset: Toolset,
  options: Pick<ToolsetOptions, "plugin" | "manifest" | "tenantGrant" | "resolver">,
): Promise<readonly ModelFunction[]> {
  const functions = toolset.functions as Map<string, CallableFunction>;
  const offered = toolset.offered as ModelFunction[];
  for (const whole of toolset.wholeTools) {
    let now: Awaited<ReturnType<FunctionResolver["resolveTool"]>>;
    try {
      now = await options.resolver.resolveTool(`${whole.plugin}/${whole.tool}`, options.plugin, true);
    } catch {
      // A server that cannot be listed now keeps what the job was offered; its calls say why.
      continue;
    }
    for (const fn of now.functions) {
      if (functions.has(fn.modelName) || fn.modelName.length > MODEL_NAME_LIMIT) continue;
      const refusal = reachRefused(options, {
        kind: "function",
        plugin: now.plugin,
        tool: now.tool,
        function: fn.function,
      });
      if (refusal !== undefined) continue;
      functions.set(fn.modelName, fn);
      offered.push({ name: fn.modelName, description: fn.description, inputSchema: fn.inputSchema });
    }
  }
  return enabledOnly(toolset);
}

/** What the toolset offers, less the functions of tools their plugins have disabled now. */
function enabledOnly(toolset: Toolset): readonly ModelFunction[] {
  return toolset.offered.filter((offered) => toolset.functions.get(offered.name)?.disabled?.() !== true);
}

/**
 * A function of an MCP-backed tool the agent is granted whole that its server added after the
 * job's toolset was resolved, looked up now (its server's current list); undefined when the
 * server does not list it, or the agent may not call it.
 */
export async function addedSince(
  toolset: Toolset,
  options: Pick<ToolsetOptions, "plugin" | "manifest" | "tenantGrant" | "resolver">,
  name: string,
): Promise<CallableFunction | undefined> {
  for (const whole of toolset.wholeTools) {
    if (!name.startsWith(`${whole.tool}__`)) continue;
    const now = await options.resolver.resolveTool(`${whole.plugin}/${whole.tool}`, options.plugin, true);
    const fn = now.functions.find((candidate) => candidate.modelName === name);
    if (fn === undefined || fn.modelName.length > MODEL_NAME_LIMIT) return undefined;
    const refusal = reachRefused(options, {
      kind: "function",
      plugin: now.plugin,
      tool: now.tool,
      function: fn.function,
    });
    return refusal === undefined ? fn : undefined;
  }
  return undefined;
}
