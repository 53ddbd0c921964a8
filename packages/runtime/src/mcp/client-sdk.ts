// The MCP SDK's client side, loaded when a connection first starts rather than with the
// runtime: its modules build every protocol schema as they load (a tenth of a second), which a
// command that calls no MCP server should not pay.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type * as Types from "@modelcontextprotocol/sdk/types.js";
import type { LocalServerTransport } from "./local-transport.js";
import type * as OAuthClient from "./oauth-client.js";

export interface ClientSdk {
  readonly Client: typeof Client;
  readonly StdioClientTransport: typeof StdioClientTransport;
  /** The stdio transport whose close also ends what the server's launcher started. */
  readonly LocalServerTransport: typeof LocalServerTransport;
  readonly StreamableHTTPClientTransport: typeof StreamableHTTPClientTransport;
  readonly types: typeof Types;
  readonly oauth: typeof OAuthClient;
}

let loading: Promise<ClientSdk> | undefined;
let loaded: ClientSdk | undefined;

/** The SDK, loading it on the first call. */
export function clientSdk(): Promise<ClientSdk> {
  loading ??= Promise.all([
    import("@modelcontextprotocol/sdk/client/index.js"),
    import("@modelcontextprotocol/sdk/client/stdio.js"),
    import("@modelcontextprotocol/sdk/client/streamableHttp.js"),
    import("@modelcontextprotocol/sdk/types.js"),
    import("./oauth-client.js"),
    import("./local-transport.js"),
  ]).then(([client, stdio, http, types, oauth, local]) => {
    loaded = {
      Client: client.Client,
      StdioClientTransport: stdio.StdioClientTransport,
      LocalServerTransport: local.LocalServerTransport,
      StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
      types,
      oauth,
    };
    return loaded;
  });
  return loading;
}

/**
 * The SDK once a connection started it: for what runs only after a start (a server's request,
 * an SDK error), which a connection that never started cannot reach.
 */
export function startedSdk(): ClientSdk {
  if (loaded === undefined) throw new Error("the MCP SDK is used before any connection started");
  return loaded;
}
