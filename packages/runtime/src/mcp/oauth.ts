// OAuth 2.1 for remote MCP servers, as the MCP authorization spec has it, through the SDK's
// client auth module (`auth()` does discovery of the protected resource and authorization
// server metadata, dynamic client registration, PKCE and token refresh). oz0 keeps each tool's
// client registration and tokens in the tenant's secret store, encrypted; it reaches a person
// only through an authorizer: `oz0 mcp login` opens (or prints) the authorization URL and takes
// the code at a loopback redirect, while a connection made for a job has none, so a server whose
// tokens cannot be refreshed is refused with the login command to run.
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import {
  auth,
  extractWWWAuthenticateParams,
  type OAuthClientProvider,
  UnauthorizedError,
} from "@modelcontextprotocol/sdk/client/auth.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { Oz0Error } from "@oz0/sdk";

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
}

/** How many times one request may go through authorization before its failure stands. */
const MAX_AUTH_ROUNDS = 2;

/** The SDK's client provider over a tool's vault. */
export class StoredOAuthProvider implements OAuthClientProvider {
  readonly #options: OAuthOptions;
  #verifier: string | undefined;
  #state: string | undefined;
  #code: string | undefined;

  constructor(options: OAuthOptions) {
    this.#options = options;
  }

  get redirectUrl(): string | undefined {
    return this.#options.authorizer?.redirectUrl;
  }

  get clientMetadataUrl(): string | undefined {
    return this.#options.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    const redirect = this.#options.authorizer?.redirectUrl;
    return {
      client_name: "oz0",
      redirect_uris: redirect === undefined ? [] : [redirect],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }

  state(): string {
    this.#state = randomBytes(16).toString("base64url");
    return this.#state;
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    const stored = await this.#options.vault.read("client");
    if (stored === undefined) {
      // Registering a client no person can then authorize would only leave it unused.
      if (
        this.#options.authorizer === undefined &&
        (await this.#options.vault.read("tokens")) === undefined
      ) {
        throw needsLogin(this.#options.tool, "it has no OAuth login yet");
      }
      return undefined;
    }
    const client = JSON.parse(stored) as OAuthClientInformationMixed & { redirect_uris?: string[] };
    // A registration for another redirect (an earlier login's loopback port) is registered again.
    const redirect = this.#options.authorizer?.redirectUrl;
    if (
      redirect !== undefined &&
      client.redirect_uris !== undefined &&
      !client.redirect_uris.includes(redirect)
    ) {
      return undefined;
    }
    return client;
  }

  async saveClientInformation(client: OAuthClientInformationMixed): Promise<void> {
    await this.#options.vault.write("client", JSON.stringify(client));
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    const stored = await this.#options.vault.read("tokens");
    return stored === undefined ? undefined : (JSON.parse(stored) as OAuthTokens);
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    await this.#options.vault.write("tokens", JSON.stringify(tokens));
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    const authorizer = this.#options.authorizer;
    if (authorizer === undefined)
      throw needsLogin(this.#options.tool, "its tokens are missing or cannot be refreshed");
    this.#code = await authorizer.authorize(url, this.#state ?? url.searchParams.get("state") ?? "");
  }

  saveCodeVerifier(verifier: string): void {
    this.#verifier = verifier;
  }

  codeVerifier(): string {
    if (this.#verifier === undefined)
      throw new Error("no PKCE code verifier was saved for this authorization");
    return this.#verifier;
  }

  async invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): Promise<void> {
    if (scope === "all" || scope === "client") await this.#options.vault.remove("client");
    if (scope === "all" || scope === "tokens") await this.#options.vault.remove("tokens");
    if (scope === "all" || scope === "verifier") this.#verifier = undefined;
  }

  /** The code the last authorization brought back, once. */
  takeCode(): string | undefined {
    const code = this.#code;
    this.#code = undefined;
    return code;
  }
}

/**
 * `fetch` for a remote server's transport that answers the server's 401 (and 403
 * `insufficient_scope`) by authorizing: refreshing the tokens, or, with an authorizer, a new
 * authorization; then sends the request again. The SDK's transport would stop at the redirect.
 */
export function oauthFetch(
  provider: StoredOAuthProvider,
  serverUrl: URL,
  base: FetchLike = fetch,
): FetchLike {
  return async (input, init) => {
    for (let round = 0; ; round += 1) {
      const headers = new Headers(init?.headers);
      const tokens = await provider.tokens();
      if (tokens !== undefined) headers.set("Authorization", `Bearer ${tokens.access_token}`);
      const response = await base(input, { ...init, headers });
      const challenge =
        response.status === 401 || response.status === 403
          ? extractWWWAuthenticateParams(response)
          : undefined;
      const asks = response.status === 401 || challenge?.error === "insufficient_scope";
      if (challenge === undefined || !asks || round >= MAX_AUTH_ROUNDS) return response;
      await response.body?.cancel().catch(() => undefined);
      const options = {
        serverUrl,
        ...(challenge.resourceMetadataUrl === undefined
          ? {}
          : { resourceMetadataUrl: challenge.resourceMetadataUrl }),
        ...(challenge.scope === undefined ? {} : { scope: challenge.scope }),
        fetchFn: base,
      };
      let result = await auth(provider, options);
      if (result === "REDIRECT") {
        const code = provider.takeCode();
        if (code === undefined) throw new UnauthorizedError("the authorization brought back no code");
        result = await auth(provider, { ...options, authorizationCode: code });
      }
      if (result !== "AUTHORIZED") throw new UnauthorizedError(`authorization ended with ${result}`);
    }
  };
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
