// The MCP manager: this process's connections to the MCP servers behind tenants' tools, one per
// tenant and tool. It is the host-managed runtime the spec's MCP plugin registers ("RuntimeSpec:
// MCP manager"): a connection starts on first use, follows what is installed (a plugin removed
// or updated, or a secret changed, stops or restarts its servers), and every connection stops
// when the runtime closes. Its listings are the functions of MCP-backed tools everywhere: the
// catalog, a job's toolset, `oz0 tool call` and `oz0 mcp serve`.
import { type FunctionCall, Oz0Error } from "@oz0/sdk";
import type { BuiltFunction, BuiltTool } from "@oz0/sdk/internal";
import type { LoadedPlugin } from "../plugin-dir/index.js";
import type { Store } from "../store/index.js";
import { mcpHostOf } from "../tools/index.js";
import {
  MCP_DEFAULTS,
  McpConnection,
  type McpConnectionStatus,
  type McpListing,
  type McpTimings,
} from "./connection.js";
import { endpointKey, endpointOf, type McpEndpoint } from "./endpoint.js";
import { type Authorizer, type OAuthOptions, oauthCredentials } from "./oauth.js";
import { functionResult } from "./results.js";
import { McpSecrets } from "./secrets.js";

export interface McpManagerOptions {
  readonly store: Store;
  /** oz0's home: where the key that encrypts secrets is kept when OZ0_SECRET_KEY is not set. */
  readonly home: string;
  /** Timeouts and retry pauses; MCP_DEFAULTS for what is left out. */
  readonly timings?: Partial<McpTimings>;
}

/** How this process's connections authorize with remote servers that ask for OAuth. */
export interface McpOAuthSettings {
  /**
   * Who authorizes a login a connection needs; absent (the default), a job's connection to a
   * server without usable tokens is refused with MCP_AUTH_REQUIRED and `oz0 mcp login` is the
   * way to log in.
   */
  authorizer?: { readonly redirectUrl: string; readonly authorize: Authorizer } | undefined;
  /** A Client ID Metadata Document oz0 is published at (the operator's), for servers that take one. */
  clientMetadataUrl?: string | undefined;
}

/** A change to the functions of an MCP-backed tool, told to listeners. */
export interface McpToolsChange {
  readonly tenant: string;
  /** The tool by address. */
  readonly tool: string;
}

export class McpManager {
  /** The tenant settings that hold servers' env and header secrets. */
  readonly secrets: McpSecrets;
  readonly #timings: McpTimings;
  readonly #connections = new Map<string, McpConnection>();
  readonly #listeners = new Set<(change: McpToolsChange) => void>();
  /** What remote servers' OAuth uses in this process. */
  readonly oauth: McpOAuthSettings = {};
  #closed = false;

  constructor(options: McpManagerOptions) {
    this.secrets = new McpSecrets(options.store, options.home);
    this.#timings = { ...MCP_DEFAULTS, ...options.timings };
  }

  /** Where tool `tool` of the installed plugin `loaded` reaches its server, with the tenant's secrets. */
  async endpoint(tenant: string, loaded: LoadedPlugin, tool: string): Promise<McpEndpoint> {
    const secrets = await this.secrets.get(tenant, loaded.manifest.name, tool);
    return endpointOf(tenant, loaded, tool, secrets);
  }

  /**
   * The connection for `endpoint`: the running one, or a new one when none runs or the running
   * one was started for an endpoint that has changed since (which is stopped).
   */
  connection(endpoint: McpEndpoint): McpConnection {
    const key = endpointKey(endpoint);
    const running = this.#connections.get(key);
    if (running !== undefined && running.endpoint.fingerprint === endpoint.fingerprint) {
      if (running.state !== "stopped") return running;
    } else if (running !== undefined) {
      void running.stop();
    }
    const connection = new McpConnection(endpoint, {
      timings: this.#timings,
      onToolsChanged: (changed) => this.changed(changed),
      oauth: (at) => this.oauthOptions(at, this.oauth.authorizer),
    });
    if (this.#closed) void connection.stop();
    this.#connections.set(key, connection);
    return connection;
  }

  /** The functions the server behind tool `tool` of `loaded` lists now, connecting first when needed. */
  async listing(
    tenant: string,
    loaded: LoadedPlugin,
    tool: string,
    signal?: AbortSignal,
  ): Promise<McpListing> {
    return this.connection(await this.endpoint(tenant, loaded, tool)).listing(signal);
  }

  /**
   * Tool `tool` of `loaded` as the runtime calls any tool: one function per tool its server
   * lists, each calling the server and mapping its answer (results.ts).
   */
  async tool(tenant: string, loaded: LoadedPlugin, tool: string): Promise<BuiltTool> {
    const endpoint = await this.endpoint(tenant, loaded, tool);
    const connection = this.connection(endpoint);
    const { functions } = await connection.listing();
    const declared = loaded.manifest.tools?.find((entry) => entry.id === tool);
    return Object.freeze({
      pluginId: endpoint.plugin,
      name: tool,
      description: declared?.description ?? "",
      functions: Object.freeze(
        functions.map(
          (fn): BuiltFunction =>
            Object.freeze({
              name: fn.name,
              description: fn.description,
              inputSchema: fn.inputSchema,
              input: fn.inputSchema,
              run: async (args: unknown, call: FunctionCall) => {
                const answer = await connection.call(
                  fn.name,
                  args as Record<string, unknown>,
                  call.signal,
                  mcpHostOf(call),
                );
                return functionResult(`${endpoint.address}.${fn.name}`, answer, endpoint.redactor);
              },
            }),
        ),
      ),
    });
  }

  /** Stops the servers of `plugin` in `tenant` (it was removed or updated); the next use starts afresh. */
  async stopPlugin(tenant: string, plugin: string): Promise<void> {
    await this.stopWhere(
      (connection) => connection.endpoint.tenant === tenant && connection.endpoint.plugin === plugin,
    );
  }

  /**
   * Stops every server of `tenant` whose tool `keep` no longer wants (`<plugin>/<tool>`): what
   * reconciling with the installed plugins leaves running is exactly what is installed.
   */
  async reconcile(tenant: string, keep: (tool: string) => boolean): Promise<void> {
    await this.stopWhere(
      (connection) => connection.endpoint.tenant === tenant && !keep(connection.endpoint.address),
    );
  }

  /** Every connection of this process, for status and tests. */
  status(): McpConnectionStatus[] {
    return [...this.#connections.values()].map((connection) => connection.status());
  }

  /** Calls `listener` whenever a server's tools change; returns what removes it. */
  onToolsChanged(listener: (change: McpToolsChange) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Stops every server; the manager starts none after this. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.stopWhere(() => true);
  }

  private async stopWhere(match: (connection: McpConnection) => boolean): Promise<void> {
    const stopping: Promise<void>[] = [];
    for (const [key, connection] of this.#connections) {
      if (!match(connection)) continue;
      this.#connections.delete(key);
      stopping.push(connection.stop());
    }
    await Promise.all(stopping);
  }

  /** The OAuth options of the tool at `endpoint`, with `authorizer` as who logs in. */
  oauthOptions(endpoint: McpEndpoint, authorizer: McpOAuthSettings["authorizer"]): OAuthOptions {
    return {
      tool: endpoint.address,
      vault: this.secrets.oauthVault(endpoint.tenant, endpoint.plugin, endpoint.tool),
      authorizer,
      clientMetadataUrl: this.oauth.clientMetadataUrl,
      ...(endpoint.transport.kind === "http"
        ? { serverUrl: endpoint.transport.url, grant: endpoint.transport.oauth }
        : {}),
    };
  }

  /**
   * Logs in to the remote server behind tool `tool` of `loaded`: connects with `authorizer` as
   * the person's way to authorize (a server that asks for OAuth runs its flow, and the tokens
   * are stored), then lists its tools. Answers whether the server asked for a login at all.
   */
  async login(
    tenant: string,
    loaded: LoadedPlugin,
    tool: string,
    authorizer: NonNullable<McpOAuthSettings["authorizer"]>,
    /** A client registered with the authorization server beforehand, instead of registering one. */
    client?: { readonly clientId: string; readonly clientSecret?: string | undefined },
  ): Promise<{ readonly asked: boolean; readonly functions: readonly string[] }> {
    const endpoint = await this.endpoint(tenant, loaded, tool);
    if (endpoint.transport.kind !== "http") {
      throw new Oz0Error(
        "INVALID_INPUT",
        `${endpoint.address} is a local server (command:), started by oz0; OAuth is for servers reached at url:.`,
        { data: { issues: [{ path: "tool", message: "not a remote server" }] } },
      );
    }
    const grant = endpoint.transport.oauth?.grant;
    if (grant !== undefined) {
      throw new Oz0Error(
        "INVALID_INPUT",
        `${endpoint.address} gets its OAuth tokens by ${grant.grant} (its manifest's oauth:), with no person to log in; set the credentials it reads (${oauthCredentials(grant).reads.join(", ")}) with oz0 mcp secret set ${endpoint.address} oauth NAME, and oz0 mcp status shows whether it connects.`,
        { data: { issues: [{ path: "tool", message: `gets its tokens by ${grant.grant}` }] } },
      );
    }
    if (client !== undefined) {
      const vault = this.secrets.oauthVault(endpoint.tenant, endpoint.plugin, endpoint.tool);
      await vault.write(
        "client",
        JSON.stringify({
          client_id: client.clientId,
          ...(client.clientSecret === undefined ? {} : { client_secret: client.clientSecret }),
        }),
      );
      // Tokens of another client are not this one's.
      await vault.remove("tokens");
    }
    let asked = false;
    const connection = new McpConnection(endpoint, {
      timings: this.#timings,
      oauth: (at) =>
        this.oauthOptions(at, {
          redirectUrl: authorizer.redirectUrl,
          authorize: (url, state) => {
            asked = true;
            return authorizer.authorize(url, state);
          },
        }),
    });
    try {
      const listing = await connection.listing();
      // The running connection, if any, started without these tokens.
      await this.stopWhere((running) => endpointKey(running.endpoint) === endpointKey(endpoint));
      return { asked, functions: listing.functions.map((fn) => fn.name) };
    } finally {
      await connection.stop();
    }
  }

  private changed(connection: McpConnection): void {
    const change = { tenant: connection.endpoint.tenant, tool: connection.endpoint.address };
    for (const listener of this.#listeners) listener(change);
  }
}
