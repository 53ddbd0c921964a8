// Which functions `oz0 mcp serve` offers, under the names a model sees (`<tool>__<function>`):
// the ones an agent may call, resolved from its `tools:` as a job of it would resolve them, or,
// without an agent, every function of the tenant's catalog. Built-ins act on the job that calls
// them (oz.fail ends it, oz.ask_user makes it wait), so an outside client gets none of them.
import { MODEL_NAME_LIMIT, Oz0Error } from "@oz0/sdk";
import type { Catalog } from "../../catalog/index.js";
import { type CallableFunction, FunctionResolver } from "../../tools/index.js";

/** Who the served functions are for. */
export interface ExposedScope {
  readonly tenant: string;
  /** The agent whose functions are served, as it calls them; the tenant's catalog when absent. */
  readonly agent?: { readonly plugin: string; readonly name: string } | undefined;
}

/** The functions served, by model-visible name, and the ones left out with the reason. */
export interface ExposedFunctions {
  readonly functions: ReadonlyMap<string, CallableFunction>;
  readonly leftOut: readonly { readonly name: string; readonly reason: string }[];
}

/**
 * Resolves the functions served for `scope` now. A function that cannot be resolved (its MCP
 * server is down, its tool clashes with another plugin's) is left out with the reason, so one
 * broken tool does not take the others away.
 */
export async function exposedFunctions(
  catalog: Catalog,
  home: string,
  scope: ExposedScope,
): Promise<ExposedFunctions> {
  const { tenant, agent } = scope;
  const resolver = new FunctionResolver(catalog, { tenant, home, agent: agent?.name });
  const references =
    agent === undefined ? await catalogFunctions(catalog, tenant) : await agentTools(catalog, scope);
  const functions = new Map<string, CallableFunction>();
  const leftOut: { name: string; reason: string }[] = [];
  for (const reference of references) {
    if (reference.startsWith("oz.")) continue;
    let fn: CallableFunction;
    try {
      const resolved = await resolver.resolve(reference, agent?.plugin);
      if (resolved.kind !== "function") continue;
      fn = resolved.fn;
    } catch (error) {
      leftOut.push({ name: reference, reason: error instanceof Error ? error.message : String(error) });
      continue;
    }
    if (fn.modelName.length > MODEL_NAME_LIMIT) {
      leftOut.push({
        name: fn.address,
        reason: `a model would see it as ${fn.modelName}, ${fn.modelName.length} characters; model providers accept at most ${MODEL_NAME_LIMIT}`,
      });
      continue;
    }
    functions.set(fn.modelName, fn);
  }
  return { functions, leftOut };
}

/** Checks `address` names an agent of the tenant (the owner check) and returns it. */
export async function servedAgent(
  catalog: Catalog,
  tenant: string,
  address: string,
): Promise<{ plugin: string; name: string }> {
  const found = await catalog.resolvePart(tenant, "agent", address);
  return { plugin: found.plugin, name: found.name };
}

async function agentTools(catalog: Catalog, scope: ExposedScope): Promise<readonly string[]> {
  const agent = scope.agent!;
  const loaded = await catalog.loadInstalled(scope.tenant, agent.plugin);
  const found = loaded.agents.find((entry) => entry.definition.name === agent.name);
  if (found === undefined) {
    throw new Oz0Error(
      "NOT_FOUND",
      `${agent.plugin}/${agent.name}: plugin ${agent.plugin} has no agent ${agent.name}.`,
      {
        data: { kind: "agent", name: agent.name, tenant: scope.tenant },
      },
    );
  }
  return found.definition.tools ?? [];
}

/** Every function of the tenant by address, MCP-backed tools' included; none of a clashing tool. */
async function catalogFunctions(catalog: Catalog, tenant: string): Promise<readonly string[]> {
  const entries = await catalog.entries(tenant);
  return entries.filter((entry) => entry.kind === "function" && !entry.clash).map((entry) => entry.address);
}
