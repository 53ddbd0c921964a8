// Where an MCP-backed tool's server is and how to reach it: the tool's `mcp:` declaration in
// its plugin's manifest, with the tenant's secrets added. The fingerprint changes whenever any
// of it does (a plugin update, a new secret), which is how a running connection learns that
// it no longer matches what is installed and must be started again.
import { createHash } from "node:crypto";
import { type McpOAuth, Oz0Error } from "@oz0/sdk";
import { type Redactor, redactorOf } from "../models/index.js";
import type { LoadedPlugin } from "../plugin-dir/index.js";
import type { McpSecretValues } from "./secrets.js";

/** A local server, started as a child process and spoken to over its stdin and stdout. */
export interface StdioTransportSpec {
  readonly kind: "stdio";
  readonly command: string;
  readonly args: readonly string[];
  /** The manifest's `env:` with the secrets added. */
  readonly env: Readonly<Record<string, string>>;
  /** The plugin folder, so a command or argument may be a path inside the plugin. */
  readonly cwd: string;
}

/** A remote server, reached over Streamable HTTP. */
export interface HttpTransportSpec {
  readonly kind: "http";
  readonly url: string;
  /** The manifest's `headers:` with the secrets added. */
  readonly headers: Readonly<Record<string, string>>;
  /** The manifest's `oauth:` grant and the tenant's credentials for it; absent, a person logs in. */
  readonly oauth?: {
    readonly grant: McpOAuth;
    readonly credentials: Readonly<Record<string, string>>;
  };
}

export interface McpEndpoint {
  readonly tenant: string;
  readonly plugin: string;
  readonly tool: string;
  /** `<plugin>/<tool>`: the tool by address, as messages and kill switches name it. */
  readonly address: string;
  readonly transport: StdioTransportSpec | HttpTransportSpec;
  /** The server as a person reads it: its command line, or its URL. */
  readonly server: string;
  /** Hides the secrets in everything the server answers. */
  readonly redactor: Redactor;
  /** Changes whenever anything above does. */
  readonly fingerprint: string;
}

/**
 * The endpoint of tool `tool` of `loaded` in `tenant`. Throws NOT_FOUND when the plugin
 * declares no such tool with an `mcp:` server.
 */
export function endpointOf(
  tenant: string,
  loaded: LoadedPlugin,
  tool: string,
  secrets: McpSecretValues,
): McpEndpoint {
  const plugin = loaded.manifest.name;
  const declared = loaded.manifest.tools?.find((entry) => entry.id === tool)?.mcp;
  if (declared === undefined) {
    throw new Oz0Error(
      "NOT_FOUND",
      `${plugin}/${tool}: plugin ${plugin} declares no tool ${tool} with an mcp: server.`,
      { data: { kind: "tool", name: tool, tenant } },
    );
  }
  const address = `${plugin}/${tool}`;
  let transport: StdioTransportSpec | HttpTransportSpec;
  let server: string;
  let secretValues: string[];
  if (declared.url !== undefined) {
    transport = {
      kind: "http",
      url: declared.url,
      headers: { ...declared.headers, ...secrets.headers },
      ...(declared.oauth === undefined || declared.oauth.grant === "authorization_code"
        ? {}
        : { oauth: { grant: declared.oauth, credentials: { ...secrets.oauth } } }),
    };
    server = declared.url;
    secretValues = [...Object.values(secrets.headers), ...Object.values(secrets.oauth)];
  } else {
    const command = declared.command ?? "";
    const args = declared.args ?? [];
    transport = { kind: "stdio", command, args, env: { ...declared.env, ...secrets.env }, cwd: loaded.dir };
    server = [command, ...args].join(" ");
    secretValues = Object.values(secrets.env);
  }
  const fingerprint = createHash("sha256")
    .update(JSON.stringify({ tenant, address, transport }))
    .digest("hex")
    .slice(0, 16);
  return {
    tenant,
    plugin,
    tool,
    address,
    transport,
    server,
    redactor: redactorOf(secretValues),
    fingerprint,
  };
}

/** The key a connection is kept under: one server per tenant and tool. */
export function endpointKey(endpoint: Pick<McpEndpoint, "tenant" | "address">): string {
  return `${endpoint.tenant}\u0000${endpoint.address}`;
}
