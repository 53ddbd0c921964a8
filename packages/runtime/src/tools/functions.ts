// Functions as the runtime calls them: resolved from an address through the catalog (the owner
// check, tool clashes), built once per resolver from the plugin's code, and named the way
// models and traces see them.
import {
  type BuiltinAddress,
  type FunctionAddress,
  type FunctionCall,
  formatAddress,
  type JsonSchemaObject,
  modelVisibleName,
  notOwnedMessage,
  Oz0Error,
  type PluginConfig,
  parseFunctionAddress,
  resolveReference,
} from "@oz0/sdk";
import { type BuiltTool, buildTool, isToolRef, parseToolRef, toolRefProblem } from "@oz0/sdk/internal";
import { toolClashError } from "../catalog/index.js";
import { type LoadedPlugin, pluginToolSpec, toolDisabled, toolRefTarget } from "../plugin-dir/index.js";
import { toolContext } from "./context.js";
import type { PartSource } from "./source.js";

/** A function ready to offer a model and to call. */
export interface CallableFunction {
  /** `<plugin>/<tool>.<function>`, or `oz.<function>` for a built-in. */
  readonly address: string;
  /** The owning plugin; `undefined` for a built-in. */
  readonly plugin: string | undefined;
  readonly tool: string;
  readonly function: string;
  /** `<tool>__<function>`. */
  readonly modelName: string;
  readonly description: string;
  readonly inputSchema: JsonSchemaObject;
  /** Whether its plugin's code has disabled its tool now: a model is not offered it, a call is refused. */
  readonly disabled?: () => boolean;
  /**
   * Every call waits for a person's approval, whatever the tenant's policy allows (a deny rule
   * still refuses it): the rule the approval names. A harness's tool kinds the agent's
   * `requires_approval` lists are such functions.
   */
  readonly requiresApproval?: string;
  run(args: Record<string, unknown>, call: FunctionCall): Promise<unknown>;
}

function callable(
  plugin: string,
  tool: string,
  built: BuiltTool["functions"][number],
  loaded?: LoadedPlugin,
): CallableFunction {
  const off = loaded === undefined ? undefined : () => toolDisabled(loaded, tool);
  return {
    address: formatAddress({ kind: "function", plugin, tool, function: built.name }),
    plugin,
    tool,
    function: built.name,
    modelName: modelVisibleName(tool, built.name),
    description: built.description,
    inputSchema: built.inputSchema,
    ...(off === undefined ? {} : { disabled: off }),
    run: (args, call) => {
      // A tool its plugin disabled since the job was offered it is refused at the call too.
      if (off?.() === true) throw disabledToolError(plugin, tool);
      return built.run(args, call);
    },
  };
}

/** The refusal of a tool its plugin's code disabled. */
export function disabledToolError(plugin: string, tool: string): Oz0Error {
  return new Oz0Error(
    "NOT_FOUND",
    `tool ${tool} of ${plugin} is disabled by its plugin (its registration's disable()): it is neither offered nor called until the plugin enables it again.`,
    { data: { kind: "tool", name: tool, plugin } },
  );
}

/** What a reference resolved to: a plugin's function, or a built-in for the job engine to provide. */
export type ResolvedFunction =
  | { readonly kind: "function"; readonly fn: CallableFunction; readonly address: FunctionAddress }
  | { readonly kind: "builtin"; readonly address: BuiltinAddress };

export interface FunctionResolverOptions {
  readonly tenant: string;
  readonly home: string;
  /** The agent the functions are for (its working folder in the tool context). */
  readonly agent?: string | undefined;
}

/**
 * Resolves function references for one tenant, loading each plugin and building each tool once:
 * a job resolves its agent's tools with one resolver, so every step reuses what was built.
 */
export class FunctionResolver {
  readonly #source: PartSource;
  readonly #options: FunctionResolverOptions;
  readonly #plugins = new Map<string, Promise<LoadedPlugin>>();
  readonly #tools = new Map<string, Promise<BuiltTool>>();

  constructor(source: PartSource, options: FunctionResolverOptions) {
    this.#source = source;
    this.#options = options;
  }

  /** The config `plugin` runs with in the tenant, as its tools get it in `ctx.config`. */
  async config(plugin: string): Promise<PluginConfig> {
    return (await this.#source.config?.(this.#options.tenant, plugin)) ?? {};
  }

  /** An installed plugin, loaded once. */
  plugin(name: string): Promise<LoadedPlugin> {
    let loaded = this.#plugins.get(name);
    if (loaded === undefined) {
      loaded = Promise.resolve(this.#source.loadInstalled(this.#options.tenant, name));
      this.#plugins.set(name, loaded);
    }
    return loaded;
  }

  /**
   * Resolves `written`: an address (`github/oz0_github.get_file`), a bare `<tool>.<function>`
   * read inside `fromPlugin`, a built-in (`oz.fail`), or a reference to a `kind: Tool` manifest
   * (`samples:tools/memory-search.tool.yaml`). Throws NOT_FOUND, TOOL_CLASH or OWNER_MISMATCH.
   */
  async resolve(written: string, fromPlugin?: string): Promise<ResolvedFunction> {
    const text = isToolRef(written) ? await this.refAddress(written) : written;
    const { address, bare } =
      fromPlugin === undefined
        ? { address: parseFunctionAddress(text), bare: false }
        : resolveReference(text, { plugin: fromPlugin, expect: "function" });
    if (address.kind === "builtin") return { kind: "builtin", address };
    const owner = await this.owner(address, bare);
    const owned: FunctionAddress = { ...address, plugin: owner };
    const tool = await this.tool(owner, address.tool);
    const built = tool.functions.find((fn) => fn.name === address.function);
    if (built === undefined) {
      const names = tool.functions.map((fn) => fn.name).join(", ") || "none";
      throw new Oz0Error(
        "NOT_FOUND",
        `${formatAddress(owned)}: tool ${address.tool} of ${owner} has no function ${address.function} ` +
          `(its functions: ${names}).`,
        {
          data: {
            kind: "function",
            name: `${address.tool}.${address.function}`,
            tenant: this.#options.tenant,
          },
        },
      );
    }
    return {
      kind: "function",
      fn: callable(owner, address.tool, built, await this.plugin(owner)),
      address: owned,
    };
  }

  /**
   * Every function of the tool `written` names (`<tool>` read inside `fromPlugin`, or
   * `<plugin>/<tool>`), as its plugin builds it now; `fresh` builds it again, so an MCP server's
   * functions are the ones it lists at this moment. Throws NOT_FOUND, TOOL_CLASH or OWNER_MISMATCH.
   */
  async resolveTool(
    written: string,
    fromPlugin: string,
    fresh = false,
  ): Promise<{
    readonly plugin: string;
    readonly tool: string;
    readonly mcp: boolean;
    readonly functions: CallableFunction[];
  }> {
    // A function address with a placeholder function reads the plugin and tool as any address does.
    const { address, bare } = resolveReference(`${written}.x`, { plugin: fromPlugin, expect: "function" });
    if (address.kind === "builtin") {
      throw new Oz0Error("NOT_FOUND", `${written} names oz0's built-ins, not a plugin's tool.`, {
        data: { kind: "tool", name: written, tenant: this.#options.tenant },
      });
    }
    const owner = await this.owner(address, bare);
    if (fresh) this.#tools.delete(`${owner}/${address.tool}`);
    const loaded = await this.plugin(owner);
    if (toolDisabled(loaded, address.tool)) throw disabledToolError(owner, address.tool);
    const tool = await this.tool(owner, address.tool);
    const mcp =
      loaded.manifest.tools?.some((entry) => entry.id === address.tool && entry.mcp !== undefined) === true;
    return {
      plugin: owner,
      tool: address.tool,
      mcp,
      functions: tool.functions.map((built) => callable(owner, address.tool, built, loaded)),
    };
  }

  /**
   * The address a `<plugin>:tools/<file>.tool.yaml` reference names: the function that manifest
   * of the installed plugin describes. Throws INVALID_ADDRESS or NOT_FOUND.
   */
  private async refAddress(text: string): Promise<string> {
    const ref = parseToolRef(text);
    if (ref === undefined) {
      throw new Oz0Error(
        "INVALID_ADDRESS",
        toolRefProblem(text) ?? `'${text}' is not a tool manifest reference`,
        {
          data: { input: text, form: "<plugin>:tools/<file>.tool.yaml" },
        },
      );
    }
    return `${ref.plugin}/${toolRefTarget(await this.plugin(ref.plugin), ref.path)}`;
  }

  /** The one plugin that provides the tool, checked against the plugin the address names. */
  private async owner(address: FunctionAddress, bare: boolean): Promise<string> {
    const { tenant } = this.#options;
    const owners = await this.#source.toolOwners(tenant, address.tool);
    if (owners.length === 0) {
      throw new Oz0Error(
        "NOT_FOUND",
        `${formatAddress(address)}: no plugin of tenant ${tenant} provides tool ${address.tool}. ` +
          "Install the plugin that does (oz0 plugin install <dir>).",
        { data: { kind: "tool", name: address.tool, tenant } },
      );
    }
    if (owners.length > 1) throw toolClashError(address.tool, owners);
    const owner = owners[0]!;
    if (!bare && owner !== address.plugin) {
      throw new Oz0Error("OWNER_MISMATCH", notOwnedMessage({ address, owner }), {
        data: { address: formatAddress(address), owner },
      });
    }
    return owner;
  }

  private tool(plugin: string, id: string): Promise<BuiltTool> {
    const key = `${plugin}/${id}`;
    let built = this.#tools.get(key);
    if (built === undefined) {
      built = this.build(plugin, id);
      this.#tools.set(key, built);
      // A failed build is not kept: the next resolve tries again.
      built.catch(() => this.#tools.delete(key));
    }
    return built;
  }

  private async build(plugin: string, id: string): Promise<BuiltTool> {
    const loaded = await this.plugin(plugin);
    const spec = pluginToolSpec(loaded, id);
    if (spec === undefined) {
      const mcp = loaded.manifest.tools?.some((tool) => tool.id === id && tool.mcp !== undefined);
      if (mcp === true && this.#source.mcpTool !== undefined) {
        return this.#source.mcpTool(this.#options.tenant, loaded, id);
      }
      throw new Oz0Error(
        "NOT_FOUND",
        mcp === true
          ? `tool ${id} of ${plugin} comes from an MCP server, which this oz0 does not start here.`
          : `plugin ${plugin} declares no tool ${id} in its code.`,
        { data: { kind: "tool", name: id, tenant: this.#options.tenant } },
      );
    }
    const { tenant, home, agent } = this.#options;
    const source = this.#source;
    const memory =
      source.memory === undefined
        ? undefined
        : (name?: string) => Promise.resolve(source.memory!(tenant, plugin, name));
    const config = await source.config?.(tenant, plugin);
    const records = source.recordsOf?.(tenant, plugin);
    return buildTool(
      spec,
      toolContext({ home, tenant, pluginId: plugin, agent, memory, records, config, toolRoot: loaded.dir }),
    );
  }
}
