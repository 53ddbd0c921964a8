// The MCP manager: this process's connections to the MCP servers behind tenants' tools, one per
// tenant and tool. It is the host-managed runtime the spec's MCP plugin registers ("RuntimeSpec:
// MCP manager"): a connection starts on first use, follows what is installed (a plugin removed
// or updated, or a secret changed, stops or restarts its servers), and every connection stops
// when the runtime closes. Its listings are the functions of MCP-backed tools everywhere: the
// catalog, a job's toolset, `oz0 tool call` and `oz0 mcp serve`.
import type { FunctionCall } from "@oz0/sdk";
import type { BuiltFunction, BuiltTool } from "@oz0/sdk/internal";
import type { LoadedPlugin } from "../plugin-dir/index.js";
import type { Store } from "../store/index.js";
import { mcpHostOf } from "./call-host.js";
import {
  MCP_DEFAULTS,
  McpConnection,
  type McpConnectionStatus,
  type McpListing,
  type McpTimings,
} from "./connection.js";
import { endpointKey, endpointOf, type McpEndpoint } from "./endpoint.js";
import { functionResult } from "./results.js";
import { McpSecrets } from "./secrets.js";

export interface McpManagerOptions {
  readonly store: Store;
  /** oz0's home: where the key that encrypts secrets is kept when OZ0_SECRET_KEY is not set. */
  readonly home: string;
  /** Timeouts and retry pauses; MCP_DEFAULTS for what is left out. */
  readonly timings?: Partial<McpTimings>;
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

  private changed(connection: McpConnection): void {
    const change = { tenant: connection.endpoint.tenant, tool: connection.endpoint.address };
    for (const listener of this.#listeners) listener(change);
  }
}
