// The OAuth client of a remote MCP server's connection (oauth.ts says what oz0 does): the SDK's
// client provider over a tool's vault, and the `fetch` that authorizes on a 401. It is loaded
// with the MCP SDK, when a connection first starts.
import { randomBytes } from "node:crypto";
import {
  type AddClientAuthentication,
  auth,
  extractWWWAuthenticateParams,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  UnauthorizedError,
} from "@modelcontextprotocol/sdk/client/auth.js";
import { createPrivateKeyJwtAuth } from "@modelcontextprotocol/sdk/client/auth-extensions.js";
import { OAuthError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import type {
  AuthorizationServerMetadata,
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import { resourceUrlFromServerUrl } from "@modelcontextprotocol/sdk/shared/auth-utils.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { type McpOAuth, Oz0Error } from "@oz0/sdk";
import { needsLogin, type OAuthOptions } from "./oauth.js";
import type { OAuthSecretName } from "./secrets.js";

/** Where stored tokens say the client ID of the grant that got them. */
const GRANT_CLIENT = "oz0_grant_client";

const GRANT_TYPES = {
  client_credentials: "client_credentials",
  cross_app_access: "urn:ietf:params:oauth:grant-type:jwt-bearer",
} as const;

/** How many times one request may go through authorization before its failure stands. */
const MAX_AUTH_ROUNDS = 2;

/** The SDK's client provider over a tool's vault. */
export class StoredOAuthProvider implements OAuthClientProvider {
  readonly #options: OAuthOptions;
  #verifier: string | undefined;
  #state: string | undefined;
  #code: string | undefined;
  /** What the last discovery found: the authorization server and the resource, for cross-app access. */
  #discovery: OAuthDiscoveryState | undefined;
  readonly #grant: McpOAuth | undefined;

  constructor(options: OAuthOptions) {
    this.#options = options;
    const grant = options.grant?.grant;
    this.#grant = grant?.grant === "authorization_code" ? undefined : grant;
  }

  /** Absent for a grant that needs no person: the SDK then asks for tokens directly. */
  get redirectUrl(): string | undefined {
    if (this.#grant !== undefined) return undefined;
    return this.#options.authorizer?.redirectUrl;
  }

  get clientMetadataUrl(): string | undefined {
    if (this.#grant !== undefined) return undefined;
    return this.#options.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    const grant = this.#grant;
    if (grant !== undefined) {
      return {
        client_name: "oz0",
        redirect_uris: [],
        grant_types: [GRANT_TYPES[grant.grant as keyof typeof GRANT_TYPES]],
        token_endpoint_auth_method: grant.client_auth ?? "client_secret_basic",
        ...(grant.scope === undefined ? {} : { scope: grant.scope }),
      };
    }
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
    const grant = this.#grant;
    if (grant !== undefined) {
      // The client is the manifest's; what is kept is only the authorization server it was
      // first accepted by, when the manifest names none, so it is presented to no other after.
      const stored = await this.#options.vault.read("client");
      const bound =
        stored === undefined ? undefined : (JSON.parse(stored) as { client_id?: string; issuer?: string });
      const issuer = grant.issuer ?? (bound?.client_id === grant.client_id ? bound?.issuer : undefined);
      return { client_id: grant.client_id ?? "", ...(issuer === undefined ? {} : { issuer }) };
    }
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
    if (this.#grant !== undefined) {
      const { client_id, issuer } = client as { client_id: string; issuer?: string };
      await this.#options.vault.write("client", JSON.stringify({ client_id, issuer }));
      return;
    }
    await this.#options.vault.write("client", JSON.stringify(client));
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.#discovery = state;
  }

  /**
   * oz0's client authentication at the token endpoint, as the manifest's `client_auth:` says;
   * absent for a person's login, whose registered client the SDK authenticates.
   */
  get addClientAuthentication(): AddClientAuthentication | undefined {
    const grant = this.#grant;
    if (grant === undefined) return undefined;
    return (headers, params, url, metadata) => this.authenticate(grant, headers, params, url, metadata);
  }

  private async authenticate(
    grant: McpOAuth,
    headers: Headers,
    params: URLSearchParams,
    url: string | URL,
    metadata: AuthorizationServerMetadata | undefined,
  ): Promise<void> {
    const method = grant.client_auth ?? "client_secret_basic";
    const supported = metadata?.token_endpoint_auth_methods_supported;
    if (supported !== undefined && supported.length > 0 && !supported.includes(method)) {
      throw new Oz0Error(
        "MCP_AUTH_REQUIRED",
        `the authorization server of ${this.#options.tool} (${metadata?.issuer ?? String(url)}) takes client authentication by ${supported.join(", ")}, not ${method}; set oauth.client_auth in its manifest to one of them.`,
        { data: { tool: this.#options.tool } },
      );
    }
    const clientId = grant.client_id ?? "";
    if (method === "private_key_jwt") {
      const sign = createPrivateKeyJwtAuth({
        issuer: clientId,
        subject: clientId,
        privateKey: this.credential("private_key"),
        alg: grant.signing_alg ?? "",
      });
      try {
        await sign(headers, params, url, metadata);
      } catch (error) {
        throw new Oz0Error(
          "MCP_AUTH_REQUIRED",
          `the private_key of ${this.#options.tool} cannot sign its client assertion by ${grant.signing_alg} (${error instanceof Error ? error.message : String(error)}); it is a PKCS#8 PEM key of that algorithm, set with oz0 mcp secret set ${this.#options.tool} oauth private_key.`,
          { data: { tool: this.#options.tool }, cause: error },
        );
      }
      return;
    }
    const secret = this.credential("client_secret");
    if (method === "client_secret_post") {
      params.set("client_id", clientId);
      params.set("client_secret", secret);
      return;
    }
    // RFC 6749 §2.3.1: each part form-encoded before they are joined.
    const basic = Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString(
      "base64",
    );
    headers.set("Authorization", `Basic ${basic}`);
  }

  /** The token request of a grant that needs no person (the SDK adds `resource` and client authentication). */
  async prepareTokenRequest(scope?: string): Promise<URLSearchParams | undefined> {
    const grant = this.#grant;
    if (grant === undefined) return undefined;
    const params = new URLSearchParams({ grant_type: GRANT_TYPES[grant.grant as keyof typeof GRANT_TYPES] });
    if (grant.grant === "cross_app_access") params.set("assertion", await this.identityGrant(grant, scope));
    if (scope !== undefined) params.set("scope", scope);
    return params;
  }

  /**
   * The ID-JAG for the authorization server discovery found: the tenant's identity assertion
   * exchanged at the IdP (RFC 8693), its audience that server's issuer and its resource the
   * MCP server's, through the SDK's cross-app access helpers.
   */
  private async identityGrant(grant: McpOAuth, scope: string | undefined): Promise<string> {
    const discovery = this.#discovery;
    if (discovery === undefined)
      throw new Error("cross-app access needs the authorization server discovered first");
    const { discoverAndRequestJwtAuthGrant, requestJwtAuthorizationGrant } = await import(
      "@modelcontextprotocol/client"
    );
    const idp = grant.idp;
    const clientSecret = this.#options.grant?.credentials.idp_client_secret;
    const request = {
      audience: discovery.authorizationServerMetadata?.issuer ?? discovery.authorizationServerUrl,
      resource:
        discovery.resourceMetadata?.resource ?? resourceUrlFromServerUrl(this.#options.serverUrl ?? "").href,
      idToken: this.credential("id_token"),
      clientId: idp?.client_id ?? "",
      ...(clientSecret === undefined ? {} : { clientSecret }),
      ...(scope === undefined ? {} : { scope }),
    };
    try {
      const result =
        idp?.token_endpoint !== undefined
          ? await requestJwtAuthorizationGrant({ ...request, tokenEndpoint: idp.token_endpoint })
          : await discoverAndRequestJwtAuthGrant({ ...request, idpUrl: idp?.issuer ?? "" });
      return result.jwtAuthGrant;
    } catch (error) {
      throw new Oz0Error(
        "MCP_AUTH_REQUIRED",
        `the identity provider of ${this.#options.tool} did not exchange its identity assertion for an authorization grant (${error instanceof Error ? error.message : String(error)}); an expired ID token is set again with oz0 mcp secret set ${this.#options.tool} oauth id_token.`,
        { data: { tool: this.#options.tool }, cause: error },
      );
    }
  }

  /** A credential the grant reads; refused, naming the command that sets it, when it is not set. */
  private credential(name: OAuthSecretName): string {
    const value = this.#options.grant?.credentials[name];
    if (value !== undefined) return value;
    throw new Oz0Error(
      "MCP_AUTH_REQUIRED",
      `the MCP server of ${this.#options.tool} gets its OAuth tokens by ${this.#grant?.grant}, which needs the ${name} that is not set; set it with oz0 mcp secret set ${this.#options.tool} oauth ${name} (from stdin or --from-env), then try again.`,
      { data: { tool: this.#options.tool } },
    );
  }

  /**
   * The stored tokens, when they were got the way the tool gets them now: a grant's carry its
   * client ID, so a person's login's, or another client's, are never sent for it (nor a
   * grant's for a person's login, once `oauth:` is gone).
   */
  async tokens(): Promise<OAuthTokens | undefined> {
    const stored = await this.#options.vault.read("tokens");
    if (stored === undefined) return undefined;
    const { [GRANT_CLIENT]: client, ...tokens } = JSON.parse(stored) as OAuthTokens & {
      [GRANT_CLIENT]?: string;
    };
    return client === this.#grant?.client_id ? tokens : undefined;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    const grant = this.#grant;
    const kept = grant === undefined ? tokens : { ...tokens, [GRANT_CLIENT]: grant.client_id };
    await this.#options.vault.write("tokens", JSON.stringify(kept));
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    if (this.#grant !== undefined) throw new Error(`grant ${this.#grant.grant} has no authorization page`);
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

  /**
   * An authorization server's refusal of a grant that needs no person, as MCP_AUTH_REQUIRED
   * saying what to check: it is the manifest's or the credentials', not the server's to retry.
   */
  refusal(error: unknown): unknown {
    if (this.#grant === undefined || !(error instanceof OAuthError)) return error;
    return new Oz0Error(
      "MCP_AUTH_REQUIRED",
      `the authorization server of ${this.#options.tool} refused oz0's ${this.#grant.grant} request (${error.errorCode}: ${error.message}); check oauth: in its manifest and the credentials set with oz0 mcp secret set ${this.#options.tool} oauth NAME.`,
      { data: { tool: this.#options.tool }, cause: error },
    );
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
      let result = await auth(provider, options).catch((error: unknown) => {
        throw provider.refusal(error);
      });
      if (result === "REDIRECT") {
        const code = provider.takeCode();
        if (code === undefined) throw new UnauthorizedError("the authorization brought back no code");
        result = await auth(provider, { ...options, authorizationCode: code });
      }
      if (result !== "AUTHORIZED") throw new UnauthorizedError(`authorization ended with ${result}`);
    }
  };
}
