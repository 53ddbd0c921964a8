// OAuth 2.1 for remote MCP servers, as the MCP authorization spec has it, through the SDK's
// client auth module (`auth()` does discovery of the protected resource and authorization
// server metadata, dynamic client registration, PKCE and token refresh). oz0 keeps each tool's
// client registration and tokens in the tenant's secret store, encrypted; it reaches a person
// only through an authorizer: `oz0 mcp login` opens (or prints) the authorization URL and takes
// the code at a loopback redirect, while a connection made for a job has none, so a server whose
// tokens cannot be refreshed is refused with the login command to run. A tool whose manifest
// gives an `oauth:` grant that needs no person gets its tokens itself, whenever it needs them:
// the client credentials grant (SEP-1046) with client_secret_basic, client_secret_post or
// private_key_jwt, or cross-app access (SEP-990): the tenant's identity assertion exchanged at
// the enterprise IdP for an ID-JAG (RFC 8693), then the JWT bearer grant (RFC 7523). The SDK's
// side of it (oauth-client.ts) loads with a connection's first start, not with the runtime.
import type { Server } from "node:http";
import { type McpOAuth, Oz0Error } from "@oz0/sdk";
import type { OAuthSecretName } from "./secrets.js";

/** Where a tool's OAuth state is kept: its client registration and its tokens. */
export interface OAuthVault {
  read(part: "client" | "tokens"): Promise<string | undefined>;
  write(part: "client" | "tokens", value: string): Promise<void>;
  remove(part: "client" | "tokens"): Promise<void>;
}

/**
 * Gets a person to authorize at `url` and returns the authorization code the redirect brought
 * back (its `state` checked); throws when nobody can.
 */
export type Authorizer = (url: URL, state: string) => Promise<string>;

export interface OAuthOptions {
  /** The tool by address, for messages. */
  readonly tool: string;
  readonly vault: OAuthVault;
  /** Absent: no person is at hand (a job's connection), and a needed login is refused. */
  readonly authorizer?: { readonly redirectUrl: string; readonly authorize: Authorizer } | undefined;
  /** A Client ID Metadata Document oz0 is published at, used as the client_id where the server accepts one. */
  readonly clientMetadataUrl?: string | undefined;
  /** The MCP server's URL: its resource, where it publishes no protected resource metadata. */
  readonly serverUrl?: string | undefined;
  /** The tool's `oauth:` grant that needs no person, and the tenant's credentials for it. */
  readonly grant?:
    | { readonly grant: McpOAuth; readonly credentials: Readonly<Record<string, string>> }
    | undefined;
}

/** The OAuth credentials a grant reads (`oz0 mcp secret set <tool> oauth NAME`). */
export function oauthCredentials(oauth: McpOAuth): { readonly reads: readonly OAuthSecretName[] } {
  if (oauth.grant === "authorization_code") return { reads: [] };
  const client: OAuthSecretName = oauth.client_auth === "private_key_jwt" ? "private_key" : "client_secret";
  if (oauth.grant === "client_credentials") return { reads: [client] };
  return { reads: [client, "id_token", "idp_client_secret"] };
}

/** A loopback listener for the authorization redirect (RFC 8252): one code, its state checked. */
export interface Loopback {
  readonly redirectUrl: string;
  /** Resolves with the code of the redirect that carries `state`. */
  code(state: string, signal?: AbortSignal): Promise<string>;
  close(): Promise<void>;
}

/** Listens on 127.0.0.1 (`port`, or any free one) for `/callback`. */
export async function loopback(port = 0): Promise<Loopback> {
  const waiting = new Map<string, { resolve: (code: string) => void; reject: (error: Error) => void }>();
  // node:http is loaded here, by the one command that listens (oz0 mcp login), not at start-up.
  const { createServer } = await import("node:http");
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    if (url.pathname !== "/callback") {
      response.writeHead(404).end();
      return;
    }
    const state = url.searchParams.get("state") ?? "";
    const code = url.searchParams.get("code") ?? undefined;
    const error = url.searchParams.get("error") ?? undefined;
    const known = waiting.get(state);
    if (known === undefined) {
      // A redirect oz0 did not start (a stale tab, or a forged one) is refused.
      response
        .writeHead(400, { "content-type": "text/plain" })
        .end("oz0: this authorization was not started here.\n");
      return;
    }
    response
      .writeHead(error === undefined ? 200 : 400, { "content-type": "text/plain" })
      .end(
        error === undefined
          ? "oz0: authorized; you may close this page.\n"
          : `oz0: authorization failed: ${error}\n`,
      );
    waiting.delete(state);
    if (code !== undefined && error === undefined) known.resolve(code);
    else known.reject(new Error(`the authorization server answered ${error ?? "without a code"}`));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const address = server.address();
  const bound = typeof address === "object" && address !== null ? address.port : port;
  return {
    redirectUrl: `http://127.0.0.1:${bound}/callback`,
    code: (state, signal) =>
      new Promise<string>((resolve, reject) => {
        waiting.set(state, { resolve, reject });
        signal?.addEventListener("abort", () => reject(signal.reason), { once: true });
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** MCP_AUTH_REQUIRED for `tool`, naming the command that logs in. */
export function needsLogin(tool: string, why: string): Oz0Error {
  return new Oz0Error(
    "MCP_AUTH_REQUIRED",
    `the MCP server of ${tool} asks for an OAuth login, and ${why}; run oz0 mcp login ${tool} (a person authorizes it in a browser), then try again.`,
    { data: { tool } },
  );
}
