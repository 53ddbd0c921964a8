// A tenant's MCP-backed tools as operators see them: one found by address (the owner check),
// for setting its secrets, and all of them with their servers and what each lists now, for
// `oz0 mcp status`.
import { type McpOAuth, Oz0Error } from "@oz0/sdk";
import type { Catalog } from "../catalog/index.js";
import type { McpManager } from "./manager.js";
import { oauthCredentials } from "./oauth.js";
import type { McpSecretKind } from "./secrets.js";

/** An MCP-backed tool of a tenant. */
export interface McpToolRef {
  readonly plugin: string;
  readonly tool: string;
  /** `<plugin>/<tool>`. */
  readonly address: string;
  /** `stdio` for a server started from `command:`, `http` for one reached at `url:`. */
  readonly transport: "stdio" | "http";
  /** Its `oauth:` grant, when its manifest gives one. */
  readonly oauth?: McpOAuth | undefined;
}

/** What `oz0 mcp status` shows of one tool. */
export interface McpToolReport extends McpToolRef {
  /** Its command line or URL; secrets are never part of it. */
  readonly server: string;
  /** The functions its server lists now, by name. */
  readonly functions: readonly string[];
  /** Tools the server lists that oz0 cannot offer, and why. */
  readonly leftOut: readonly { readonly name: string; readonly reason: string }[];
  /** Why the server could not be listed; null when it was. */
  readonly error: string | null;
  /** The names of the secrets set for it (their values are never shown). */
  readonly secrets: {
    readonly env: readonly string[];
    readonly headers: readonly string[];
    readonly oauth: readonly string[];
  };
}

/**
 * The MCP-backed tool at `text` (`<plugin>/<tool>`), through the owner check. Throws NOT_FOUND
 * or OWNER_MISMATCH like any tool address, and INVALID_INPUT for a tool whose functions come
 * from code.
 */
export async function mcpToolAt(catalog: Catalog, tenant: string, text: string): Promise<McpToolRef> {
  const found = await catalog.resolvePart(tenant, "tool", text);
  const loaded = await catalog.loadInstalled(tenant, found.plugin);
  const server = loaded.manifest.tools?.find((tool) => tool.id === found.name)?.mcp;
  if (server === undefined) {
    throw new Oz0Error(
      "INVALID_INPUT",
      `${found.plugin}/${found.name} is not backed by an MCP server (its functions come from the plugin's code), so it has no MCP secrets.`,
      { data: { issues: [{ path: "tool", message: "not an MCP-backed tool" }] } },
    );
  }
  return {
    plugin: found.plugin,
    tool: found.name,
    address: `${found.plugin}/${found.name}`,
    transport: server.url === undefined ? "stdio" : "http",
    oauth: server.oauth,
  };
}

/**
 * Refuses a secret the tool's server cannot take: headers for a local one, env for a remote one,
 * and an OAuth credential its `oauth:` grant does not read.
 */
export function checkSecretKind(ref: McpToolRef, kind: McpSecretKind, name: string): void {
  if (kind === "oauth" && ref.transport === "http") {
    const reads = ref.oauth === undefined ? [] : oauthCredentials(ref.oauth).reads;
    if ((reads as readonly string[]).includes(name)) return;
    const why =
      reads.length === 0
        ? `its manifest gives no oauth: grant that reads credentials (a person's login, oz0 mcp login ${ref.address}, needs none)`
        : `its oauth: grant ${ref.oauth?.grant}${ref.oauth?.client_auth === undefined ? "" : ` with ${ref.oauth.client_auth}`} reads ${reads.join(", ")}`;
    throw new Oz0Error("INVALID_INPUT", `${ref.address}: oauth ${name} would never be read: ${why}.`, {
      data: { issues: [{ path: "name", message: `takes ${reads.join(", ") || "no OAuth credential"}` }] },
    });
  }
  const wanted: McpSecretKind = ref.transport === "stdio" ? "env" : "header";
  if (kind === wanted) return;
  const how =
    ref.transport === "stdio"
      ? "its server is started locally (command:), so its secrets are env variables"
      : "its server is reached over HTTP (url:), so its secrets are headers";
  throw new Oz0Error("INVALID_INPUT", `${ref.address}: ${how}; set it with ${wanted} instead of ${kind}.`, {
    data: { issues: [{ path: "kind", message: `takes ${wanted}` }] },
  });
}

/** Every MCP-backed tool of `tenant`, each server listed (started when needed) at once. */
export async function mcpToolReports(
  catalog: Catalog,
  manager: McpManager,
  tenant: string,
): Promise<McpToolReport[]> {
  const plugins = await catalog.list(tenant);
  const secrets = new Map((await manager.secrets.list(tenant)).map((entry) => [entry.tool, entry]));
  const reports: Promise<McpToolReport>[] = [];
  for (const plugin of plugins) {
    const loaded = await catalog.loadInstalled(tenant, plugin.name);
    for (const declared of loaded.manifest.tools ?? []) {
      if (declared.mcp === undefined) continue;
      const address = `${plugin.name}/${declared.id}`;
      const set = secrets.get(address);
      const base = {
        plugin: plugin.name,
        tool: declared.id,
        address,
        transport: declared.mcp.url === undefined ? ("stdio" as const) : ("http" as const),
        secrets: { env: set?.env ?? [], headers: set?.headers ?? [], oauth: set?.oauth ?? [] },
      };
      reports.push(
        (async (): Promise<McpToolReport> => {
          const endpoint = await manager.endpoint(tenant, loaded, declared.id);
          const server = endpoint.redactor.text(endpoint.server);
          try {
            const listing = await manager.connection(endpoint).listing();
            return {
              ...base,
              server,
              functions: listing.functions.map((fn) => fn.name),
              leftOut: listing.leftOut,
              error: null,
            };
          } catch (error) {
            return {
              ...base,
              server,
              functions: [],
              leftOut: [],
              error: error instanceof Error ? error.message : String(error),
            };
          }
        })(),
      );
    }
  }
  return Promise.all(reports);
}
