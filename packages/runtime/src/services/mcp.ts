// MCP as callers see it: the tenant's MCP-backed tools and what their servers list, the names
// of the secrets those servers get (values never leave), setting and removing them, and oz0's
// own functions served to MCP clients.
import { Oz0Error } from "@oz0/sdk";
import type { Caller } from "../callers/index.js";
import {
  type Authorizer,
  checkSecretKind,
  type McpImportSecret,
  type McpSecretKind,
  type McpSecretNames,
  type McpToolReport,
  mcpToolAt,
  mcpToolReports,
  type OzMcpServer,
  openMcpServer,
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

export interface McpLogin {
  /** The tool, by address. */
  readonly tool: string;
  /** Whether the server asked for a login at all. */
  readonly asked: boolean;
  /** The functions its server lists once logged in. */
  readonly functions: readonly string[];
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
   * locally, header for one reached at a URL, oauth for a credential its `oauth:` grant reads.
   * Its server gets it from its next start.
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
      checkSecretKind(found, kind, name);
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
   * `recordCaller` records each call's job as the caller's (`<actor> via mcp:<client>`), for a
   * server shared by many callers; by default as the client's.
   */
  async serve(
    caller: Caller,
    options: { readonly agent?: string | undefined; readonly recordCaller?: boolean | undefined } = {},
  ): Promise<OzMcpServer> {
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
    return openMcpServer(
      { store, catalog, home, tools, jobs: jobs.jobs, mcp },
      { tenant, agent: options.agent, actor: options.recordCaller === true ? caller.actor : undefined },
    );
  }

  /**
   * Runs the OAuth flow of the remote MCP server behind `tool` (by address): `authorizer`, given
   * the tool's address once it is found (and only then, so nothing listens for a tool that is
   * not there), shows the authorization page and brings back the code.
   * The tokens are kept in the tenant, encrypted.
   */
  async login(
    caller: Caller,
    tool: string,
    authorizer: (
      address: string,
    ) => Promise<{ readonly redirectUrl: string; readonly authorize: Authorizer }>,
    client?: { readonly clientId: string; readonly clientSecret?: string | undefined },
  ): Promise<McpLogin> {
    return this.#core.change(caller, "mcp.login", tool, async (tenant) => {
      if (typeof authorizer !== "function") {
        throw new Oz0Error(
          "INVALID_INPUT",
          "an MCP login needs an authorizer to show the authorization page.",
          {
            data: { issues: [{ path: "authorizer", message: "required" }] },
          },
        );
      }
      const found = await mcpToolAt(this.#core.deps.catalog, tenant, tool);
      const loaded = await this.#core.deps.catalog.loadInstalled(tenant, found.plugin);
      const done = await this.#core.deps.mcp.login(
        tenant,
        loaded,
        found.tool,
        await authorizer(found.address),
        client,
      );
      return { tool: found.address, ...done };
    });
  }

  /**
   * Keeps the secrets an import found for `plugin`'s tools, before the plugin is installed (its
   * folder is written only once they are safe in the tenant).
   */
  async keepSecrets(caller: Caller, plugin: string, secrets: readonly McpImportSecret[]): Promise<void> {
    return this.#core.change(caller, "mcp.keepSecrets", plugin, async (tenant) => {
      if (!Array.isArray(secrets)) {
        throw new Oz0Error(
          "INVALID_INPUT",
          "the secrets to keep are a list of { tool, kind, name, value }.",
          {
            data: { issues: [{ path: "secrets", message: "a list" }] },
          },
        );
      }
      for (const secret of secrets) {
        await this.#core.deps.mcp.secrets.set(
          tenant,
          plugin,
          secret.tool,
          secret.kind,
          secret.name,
          secret.value,
        );
      }
    });
  }
}
