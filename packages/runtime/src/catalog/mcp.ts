// The functions of MCP-backed tools in the catalog's lists. They have no rows: their server
// lists them, and may change them at any time (`notifications/tools/list_changed`), so the
// catalog asks the MCP manager when it lists, and says why when a server cannot be reached.
import type { JsonSchemaObject } from "@oz0/sdk";
import type { BuiltTool } from "@oz0/sdk/internal";
import type { LoadedPlugin } from "../plugin-dir/index.js";
import type { FunctionPart, ToolPart } from "./parts.js";
import type { StoredPlugin, TenantView } from "./view.js";

/** What the catalog needs of the MCP manager (runtime/src/mcp). */
export interface McpLister {
  /** The functions the server behind `tool` of `loaded` lists now, connecting first when needed. */
  listing(
    tenant: string,
    loaded: LoadedPlugin,
    tool: string,
  ): Promise<{
    readonly functions: readonly {
      readonly name: string;
      readonly description: string;
      readonly inputSchema: JsonSchemaObject;
    }[];
  }>;
  /** The tool with one callable function per listed tool. */
  tool(tenant: string, loaded: LoadedPlugin, tool: string): Promise<BuiltTool>;
  /** Stops the servers of a plugin that was removed or updated. */
  stopPlugin(tenant: string, plugin: string): Promise<void>;
}

/** The MCP-backed tools' functions, listed by their servers; `errors` says which could not be. */
export interface McpFunctions {
  readonly parts: readonly FunctionPart[];
  /** Why a tool's functions could not be listed, by tool address. */
  readonly errors: ReadonlyMap<string, string>;
}

/**
 * Lists the functions of every MCP-backed tool of `plugins` (each server at once), loading each
 * plugin with `load`. A server that cannot be reached leaves its tool without functions and
 * gives the reason instead.
 */
export async function listMcpFunctions(
  lister: McpLister,
  view: TenantView,
  plugins: readonly StoredPlugin[],
  load: (plugin: string) => Promise<LoadedPlugin>,
): Promise<McpFunctions> {
  const tools = plugins.flatMap((plugin) =>
    plugin.parts.filter((part): part is ToolPart => part.kind === "tool" && part.source === "mcp"),
  );
  const parts: FunctionPart[] = [];
  const errors = new Map<string, string>();
  await Promise.all(
    tools.map(async (tool) => {
      try {
        const listing = await lister.listing(view.tenant, await load(tool.plugin), tool.name);
        for (const fn of listing.functions) {
          parts.push({
            kind: "function",
            plugin: tool.plugin,
            name: `${tool.name}.${fn.name}`,
            description: fn.description,
            inputSchema: fn.inputSchema,
          });
        }
      } catch (error) {
        errors.set(`${tool.plugin}/${tool.name}`, error instanceof Error ? error.message : String(error));
      }
    }),
  );
  return { parts, errors };
}

/** `view` with the listed functions added to their plugins' parts, as if they had rows. */
export function withMcpFunctions(view: TenantView, listed: McpFunctions): TenantView {
  let augmented = view;
  for (const plugin of view.plugins.values()) {
    const added = listed.parts.filter((part) => part.plugin === plugin.name);
    if (added.length > 0) augmented = augmented.with({ ...plugin, parts: [...plugin.parts, ...added] });
  }
  return augmented;
}

/** Adds `listError` to the tools (by address) whose server could not list their functions. */
export function withListErrors<T extends { readonly address: string; readonly kind?: string }>(
  tools: readonly T[],
  errors: ReadonlyMap<string, string>,
): T[] {
  return tools.map((tool) => {
    if (tool.kind !== undefined && tool.kind !== "tool") return tool;
    const listError = errors.get(tool.address);
    return listError === undefined ? tool : { ...tool, listError };
  });
}
