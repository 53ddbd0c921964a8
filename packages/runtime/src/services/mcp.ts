// MCP as callers see it: the tenant's MCP-backed tools and what their servers list, the names
// of the secrets those servers get (values never leave), setting and removing them, and oz0's
// own functions served to MCP clients.
import { Oz0Error } from "@oz0/sdk";
import type { Caller } from "../callers/index.js";
import {
  checkSecretKind,
  type McpSecretKind,
  type McpSecretNames,
  type McpToolReport,
  mcpToolAt,
  mcpToolReports,
  OzMcpServer,
} from "../mcp/index.js";
import { type ServiceCore, scoped } from "./core.js";

export interface SecretSet {
  /** The tool, by address. */
  readonly tool: string;
  readonly kind: McpSecretKind;
  readonly name: string;
}

export interface SecretRemoved {
  readonly tool: string;
  /** Whether there was anything to remove. */
  readonly removed: boolean;
}

export class McpService {
  readonly #core: ServiceCore;

  constructor(core: ServiceCore) {
    this.#core = core;
  }

  async status(caller: Caller): Promise<McpToolReport[]> {
    const tenant = this.#core.check(caller, "mcp.status");
    return mcpToolReports(this.#core.deps.catalog, this.#core.deps.mcp, tenant);
  }

  /** Which secrets are set, by name. */
  async secrets(caller: Caller): Promise<McpSecretNames[]> {
    return this.#core.deps.mcp.secrets.list(this.#core.check(caller, "mcp.secrets"));
  }

  /**
   * Sets a secret of the MCP server behind `tool` (by address): env for a server started
   * locally, header for one reached at a URL. Its server gets it from its next start.
   */
  async setSecret(
    caller: Caller,
    tool: string,
    kind: McpSecretKind,
    name: string,
    value: string,
  ): Promise<SecretSet> {
    return this.#core.change(caller, "mcp.setSecret", `${tool} ${kind} ${name}`, async (tenant) => {
      const found = await mcpToolAt(this.#core.deps.catalog, tenant, tool);
      checkSecretKind(found, kind);
      await this.#core.deps.mcp.secrets.set(tenant, found.plugin, found.tool, kind, name, value);
      return { tool: found.address, kind, name };
    });
  }

  /** Removes one secret of `tool`'s server (`one`), or all of them. */
  async removeSecret(
    caller: Caller,
    tool: string,
    one?: { readonly kind: McpSecretKind; readonly name: string },
  ): Promise<SecretRemoved> {
    const target = one === undefined ? tool : `${tool} ${one.kind} ${one.name}`;
    return this.#core.change(caller, "mcp.removeSecret", target, async (tenant) => {
      const found = await mcpToolAt(this.#core.deps.catalog, tenant, tool);
      return {
        tool: found.address,
        removed: await this.#core.deps.mcp.secrets.remove(tenant, found.plugin, found.tool, one),
      };
    });
  }

  /**
   * A server of oz0's functions for MCP clients: those `agent` may call, as it, or the tenant's
   * catalog. A caller limited to some agents serves one of them, never the whole catalog.
   */
  async serve(caller: Caller, options: { readonly agent?: string | undefined } = {}): Promise<OzMcpServer> {
    const tenant = this.#core.check(caller, "mcp.serve");
    if (options.agent !== undefined && scoped(caller)) await this.#core.agent(caller, options.agent, "agent");
    if (options.agent === undefined && scoped(caller)) {
      throw new Oz0Error(
        "FORBIDDEN",
        `${caller.actor} may serve only the agents in its scope; name one with --agent <plugin>/<agent>.`,
        { data: { tenant, actor: caller.actor, role: caller.role, needs: "agents: *" } },
      );
    }
    const { store, catalog, home, tools, jobs, mcp } = this.#core.deps;
    return OzMcpServer.open(
      { store, catalog, home, tools, jobs: jobs.jobs, mcp },
      { tenant, agent: options.agent },
    );
  }
}
