// What lint knows of a tenant: the other plugins installed there and the parts each owns, so
// that a bare name of another plugin's part can be told apart from a name nobody defines,
// and an address can be checked against its owner. Lint works without one, from the folder
// and its uses: alone.
import { type Address, parseAddress } from "@oz0/sdk";
import type { TenantProblem } from "./checks.js";
import type { PluginContract } from "./contracts.js";
import type { HarnessProtocol } from "./harnesses.js";

/** One installed plugin and its parts, by bare name. */
export interface TenantPlugin {
  readonly name: string;
  /** Tool IDs. */
  readonly tools?: readonly string[];
  /** `<tool>.<function>`. */
  readonly functions?: readonly string[];
  readonly agents?: readonly string[];
  readonly flows?: readonly string[];
  readonly skills?: readonly string[];
  /** Harnesses the plugin provides (`runtime: harness:<name>`), with their protocol when known. */
  readonly harnesses?: readonly { readonly name: string; readonly protocol?: HarnessProtocol }[];
  /** The installed version and its agents' failure contracts, which an update must keep (OZ-S022). */
  readonly contract?: PluginContract;
}

export interface TenantContext {
  readonly tenant: string;
  /** The tenant's plugins; the plugin being linted, if installed, is left out of lookups. */
  readonly plugins: readonly TenantPlugin[];
  /** What the tenant would refuse of the plugin folder at install, beside what lint's rules find. */
  readonly check?: ((dir: string) => Promise<readonly TenantProblem[]>) | undefined;
  /** The tenant's model aliases and providers by setting key, to tell which provider serves an agent's model. */
  readonly modelSettings?: ReadonlyMap<string, unknown> | undefined;
}

/** One part of a tenant by address, as a catalog lists it. */
export interface TenantPartEntry {
  readonly kind: string;
  readonly address: string;
}

/** What lint needs of the runtime's catalog: every part of a tenant, by address. */
export interface CatalogReader {
  entries(tenant: string): Promise<readonly TenantPartEntry[]>;
  /** Each installed plugin's version and its agents' failure contracts. */
  contracts?(tenant: string): Promise<readonly (PluginContract & { readonly plugin: string })[]>;
  /** What installing the plugin folder `dir` in `tenant` would be refused for by the tenant. */
  installProblems?(tenant: string, dir: string): Promise<readonly TenantProblem[]>;
  /** The tenant's model aliases and providers by setting key. */
  modelSettings?(tenant: string): Promise<ReadonlyMap<string, unknown>>;
}

const ADDRESS_FORMS = ["function", "tool", "agent", "flow", "skill"] as const;

/**
 * A tenant context from a catalog's entries: each entry's address gives the plugin and the
 * part. Entries of other kinds, and addresses that do not parse, are passed over.
 * @example tenantContextFromEntries("default", [{ kind: "agent", address: "github/oz0-github" }])
 */
export function tenantContextFromEntries(tenant: string, entries: readonly TenantPartEntry[]): TenantContext {
  const plugins = new Map<
    string,
    { tools: Set<string>; functions: string[]; agents: string[]; flows: string[]; skills: string[] }
  >();
  const of = (plugin: string) => {
    let found = plugins.get(plugin);
    if (found === undefined) {
      found = { tools: new Set(), functions: [], agents: [], flows: [], skills: [] };
      plugins.set(plugin, found);
    }
    return found;
  };
  for (const entry of entries) {
    const form = ADDRESS_FORMS.find((kind) => kind === entry.kind);
    if (form === undefined) continue;
    let address: Address;
    try {
      address = parseAddress(entry.address, form);
    } catch {
      continue;
    }
    if (address.kind === "builtin") continue;
    const parts = of(address.plugin);
    if (address.kind === "function") {
      parts.tools.add(address.tool);
      parts.functions.push(`${address.tool}.${address.function}`);
    } else if (address.kind === "tool") parts.tools.add(address.tool);
    else if (address.kind === "agent") parts.agents.push(address.name);
    else if (address.kind === "flow") parts.flows.push(address.name);
    else parts.skills.push(address.name);
  }
  return {
    tenant,
    plugins: [...plugins].map(([name, parts]) => ({ name, ...parts, tools: [...parts.tools] })),
  };
}

/** The tenant context of `tenant` read from the runtime's catalog. */
export async function tenantContextFromCatalog(
  catalog: CatalogReader,
  tenant: string,
): Promise<TenantContext> {
  const context = tenantContextFromEntries(tenant, await catalog.entries(tenant));
  const contracts = (await catalog.contracts?.(tenant)) ?? [];
  const plugins =
    contracts.length === 0
      ? context.plugins
      : context.plugins.map((plugin) => {
          const found = contracts.find((one) => one.plugin === plugin.name);
          return found === undefined
            ? plugin
            : { ...plugin, contract: { version: found.version, agents: found.agents } };
        });
  const problems = catalog.installProblems?.bind(catalog);
  const modelSettings = await catalog.modelSettings?.(tenant);
  return {
    ...context,
    plugins,
    ...(modelSettings === undefined ? {} : { modelSettings }),
    ...(problems === undefined ? {} : { check: (dir: string) => problems(tenant, dir) }),
  };
}
