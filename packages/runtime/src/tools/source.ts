// What the job engine and the dispatch path read from the tenant's catalog: an agent or a
// function by address (the owner check), an installed plugin loaded from its folder, and the
// plugins that provide a tool ID. The runtime's Catalog implements it; tests use a twin over
// plugin folders.
import type { MemoryProvider, PluginConfig, RecordsApi } from "@oz0/sdk";
import type { BuiltTool } from "@oz0/sdk/internal";
import type { TenantGrant } from "../catalog/index.js";
import type { LoadedPlugin } from "../plugin-dir/index.js";

type Awaitable<T> = T | Promise<T>;

/** A part the catalog found: its owner and bare name, checked against the address given. */
export interface SourcePart {
  readonly plugin: string;
  readonly name: string;
  /** Whether the text named no plugin and the part was found by its bare name. */
  readonly bare: boolean;
}

export interface PartSource {
  /** Resolves an agent (or other part) by address, or by bare name within `fromPlugin`. */
  resolvePart(
    tenant: string,
    kind: "agent" | "flow" | "skill",
    text: string,
    options?: { readonly fromPlugin?: string },
  ): Awaitable<SourcePart>;
  /** An installed plugin, loaded from the folder it was installed from. */
  loadInstalled(tenant: string, plugin: string): Awaitable<LoadedPlugin>;
  /**
   * The tenant admin's grant of `plugin`'s `uses:`, read when asked, so a revoke stops the next
   * call; undefined when it has none. Another plugin's part is reached only within it.
   */
  tenantGrant(tenant: string, plugin: string): Awaitable<TenantGrant | undefined>;
  /** The plugins of the tenant that provide tool `toolId`: one, or two and more in a clash. */
  toolOwners(tenant: string, toolId: string): Awaitable<readonly string[]>;
  /**
   * A memory provider `plugin` registers with addMemory, built for the tenant, for its tools'
   * `ctx.memory`; a source without memory leaves it out, and tools get no `ctx.memory`.
   */
  memory?(tenant: string, plugin: string, name?: string): Awaitable<MemoryProvider>;
  /** The records `plugin` keeps in the tenant, for its tools' `ctx.records`; absent, tools get none. */
  recordsOf?(tenant: string, plugin: string): RecordsApi;
  /** The config `plugin` runs with in `tenant` (a tool's `ctx.config`); absent, tools get `{}`. */
  config?(tenant: string, plugin: string): Awaitable<PluginConfig>;
  /**
   * Tool `tool` of `plugin`, whose functions its `mcp:` server lists (the MCP manager); a
   * source without MCP leaves it out, and such a tool's functions are not found.
   */
  mcpTool?(tenant: string, plugin: LoadedPlugin, tool: string): Awaitable<BuiltTool>;
}
