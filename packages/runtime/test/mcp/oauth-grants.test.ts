// A remote MCP server whose tool's manifest gives an `oauth:` grant that needs no person
// (client credentials, cross-app access): what oz0 refuses, and how, before and at the token
// endpoint. The grants' success, against the suite's own authorization servers, is the MCP
// conformance suite's client-credentials and cross-app-access scenarios
// (packages/cli/test/mcp-conformance.test.ts).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { localAdmin } from "../../src/callers/index.js";
import type { Runtime } from "../../src/runtime.js";
import { openRuntime, tempDir, writePlugin } from "./helpers.js";

const TENANT = "default";
let runtime: Runtime;
let server: Server;
let base: string;
let dir: string;
let cleanup: () => Promise<void>;
let tokenRequests: { authorization: string | undefined; body: string }[];
/** The Authorization header of each MCP request. */
let bearers: (string | undefined)[];
/** What the authorization server's metadata lists as its token endpoint's client authentication. */
let authMethods: string[];
/** What its token endpoint answers. */
let tokenAnswer: { status: number; body: unknown };

beforeEach(async () => {
  tokenRequests = [];
  bearers = [];
  authMethods = ["client_secret_basic", "private_key_jwt"];
  tokenAnswer = { status: 401, body: { error: "invalid_client", error_description: "unknown client" } };
  // A protected MCP server and its authorization server on one port: every MCP request is
  // refused for want of a token, as a protected server does before it has one.
  server = createServer((request, response) => {
    const url = request.url ?? "/";
    if (url === "/.well-known/oauth-protected-resource/mcp") {
      response
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ resource: `${base}/mcp`, authorization_servers: [base] }));
    } else if (url === "/.well-known/oauth-authorization-server") {
      response.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          issuer: base,
          authorization_endpoint: `${base}/authorize`,
          token_endpoint: `${base}/token`,
          response_types_supported: ["code"],
          grant_types_supported: ["client_credentials"],
          token_endpoint_auth_methods_supported: authMethods,
        }),
      );
    } else if (url === "/token") {
      let body = "";
      request.on("data", (chunk) => {
        body += String(chunk);
      });
      request.on("end", () => {
        tokenRequests.push({ authorization: request.headers.authorization, body });
        response
          .writeHead(tokenAnswer.status, { "content-type": "application/json" })
          .end(JSON.stringify(tokenAnswer.body));
      });
    } else if (url === "/mcp") {
      bearers.push(request.headers.authorization);
      response
        .writeHead(401, {
          "www-authenticate": `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`,
        })
        .end();
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const temp = await tempDir("oz0-mcp-grants-");
  dir = temp.dir;
  cleanup = temp.cleanup;
  runtime = await openRuntime(temp.dir);
});

afterEach(async () => {
  await runtime.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await cleanup();
});

async function install(oauth: string): Promise<void> {
  const folder = await writePlugin(
    dir,
    "demo",
    [
      "name: demo",
      "version: 1.0.0",
      "tools:",
      "  - id: remote",
      "    mcp:",
      `      url: "${base}/mcp"`,
      `      oauth: ${oauth}`,
    ].join("\n"),
  );
  await runtime.catalog.install(TENANT, folder);
}

const BASIC = "{ grant: client_credentials, client_id: oz0-ci, client_auth: client_secret_basic }";

describe("an MCP tool whose oauth: grant needs no person", () => {
  it("refuses a call whose grant needs a credential that is not set with MCP_AUTH_REQUIRED naming oz0 mcp secret set, sending no token request", async () => {
    await install(BASIC);
    await expect(runtime.tools.call(TENANT, "demo/remote.anything", {})).rejects.toMatchObject({
      code: "MCP_AUTH_REQUIRED",
      message: expect.stringContaining("set it with oz0 mcp secret set demo/remote oauth client_secret"),
    });
    expect(tokenRequests).toEqual([]);
  });

  it("sends the client_credentials grant with HTTP Basic client authentication, and answers the server's invalid_client with MCP_AUTH_REQUIRED, not counting the server as failing", async () => {
    await install(BASIC);
    await runtime.services.mcp.setSecret(
      localAdmin(TENANT),
      "demo/remote",
      "oauth",
      "client_secret",
      "s3cr:t",
    );
    await expect(runtime.tools.call(TENANT, "demo/remote.anything", {})).rejects.toMatchObject({
      code: "MCP_AUTH_REQUIRED",
      message: expect.stringContaining("refused oz0's client_credentials request (invalid_client"),
    });
    const [first] = tokenRequests;
    expect(new URLSearchParams(first?.body).get("grant_type")).toBe("client_credentials");
    expect(new URLSearchParams(first?.body).get("resource")).toBe(`${base}/mcp`);
    // RFC 6749 §2.3.1: each part form-encoded, then joined.
    expect(first?.authorization).toBe(`Basic ${Buffer.from("oz0-ci:s3cr%3At").toString("base64")}`);
    expect(first?.body).not.toContain("s3cr");
    const [status] = runtime.mcp.status();
    expect(status).toMatchObject({ failures: 0 });
  });

  it("refuses a private_key that cannot sign, saying what it must be, sending no token request", async () => {
    await install(
      "{ grant: client_credentials, client_id: oz0-ci, client_auth: private_key_jwt, signing_alg: ES256 }",
    );
    await runtime.services.mcp.setSecret(
      localAdmin(TENANT),
      "demo/remote",
      "oauth",
      "private_key",
      "not a pem key",
    );
    await expect(runtime.tools.call(TENANT, "demo/remote.anything", {})).rejects.toMatchObject({
      code: "MCP_AUTH_REQUIRED",
      message: expect.stringContaining(
        "the private_key of demo/remote cannot sign its client assertion by ES256",
      ),
    });
    expect(tokenRequests).toEqual([]);
  });

  it("refuses a client_auth the authorization server does not list, naming those it does, rather than using another", async () => {
    authMethods = ["client_secret_post"];
    await install(BASIC);
    await runtime.services.mcp.setSecret(
      localAdmin(TENANT),
      "demo/remote",
      "oauth",
      "client_secret",
      "s3cret",
    );
    await expect(runtime.tools.call(TENANT, "demo/remote.anything", {})).rejects.toMatchObject({
      code: "MCP_AUTH_REQUIRED",
      message: expect.stringContaining(
        "takes client authentication by client_secret_post, not client_secret_basic",
      ),
    });
    expect(tokenRequests).toEqual([]);
  });

  it("keeps the credentials encrypted and lists them by name only; one its grant does not read is refused when set", async () => {
    await install(BASIC);
    const admin = localAdmin(TENANT);
    await runtime.services.mcp.setSecret(admin, "demo/remote", "oauth", "client_secret", "very-secret-value");
    expect(await runtime.services.mcp.secrets(admin)).toEqual([
      { tool: "demo/remote", env: [], headers: [], oauth: ["client_secret"] },
    ]);
    const rows = await runtime.store.db.selectFrom("settings").select(["value"]).execute();
    expect(rows.some((row) => row.value.includes("very-secret-value"))).toBe(false);
    await expect(
      runtime.services.mcp.setSecret(admin, "demo/remote", "oauth", "private_key", "pem"),
    ).rejects.toMatchObject({
      code: "INVALID_INPUT",
      message: expect.stringContaining(
        "oauth private_key would never be read: its oauth: grant client_credentials with client_secret_basic reads client_secret",
      ),
    });
    await expect(
      runtime.services.mcp.setSecret(admin, "demo/remote", "oauth", "password", "x"),
    ).rejects.toMatchObject({ code: "INVALID_INPUT" });
  });

  it("never sends tokens a person's login got for the tool before its oauth: grant was written", async () => {
    await install(BASIC);
    const vault = runtime.mcp.secrets.oauthVault(TENANT, "demo", "remote");
    await vault.write("tokens", JSON.stringify({ access_token: "person-token", token_type: "Bearer" }));
    await expect(runtime.tools.call(TENANT, "demo/remote.anything", {})).rejects.toMatchObject({
      code: "MCP_AUTH_REQUIRED",
    });
    expect(bearers.length).toBeGreaterThan(0);
    expect(bearers).not.toContain("Bearer person-token");
  });

  it("refuses oz0 mcp login for it, naming the credentials to set instead", async () => {
    await install(BASIC);
    const loaded = await runtime.catalog.loadInstalled(TENANT, "demo");
    const authorizer = { redirectUrl: "http://127.0.0.1:1/callback", authorize: async () => "code" };
    await expect(runtime.mcp.login(TENANT, loaded, "remote", authorizer)).rejects.toMatchObject({
      code: "INVALID_INPUT",
      message: expect.stringContaining(
        "gets its OAuth tokens by client_credentials (its manifest's oauth:), with no person to log in; set the credentials it reads (client_secret)",
      ),
    });
  });

  it("refuses a cross_app_access call whose ID token is not set, before asking the IdP", async () => {
    await install(
      `{ grant: cross_app_access, client_id: oz0-wiki, idp: { token_endpoint: "${base}/idp-token", client_id: oz0-at-idp } }`,
    );
    await runtime.services.mcp.setSecret(
      localAdmin(TENANT),
      "demo/remote",
      "oauth",
      "client_secret",
      "s3cret",
    );
    await expect(runtime.tools.call(TENANT, "demo/remote.anything", {})).rejects.toMatchObject({
      code: "MCP_AUTH_REQUIRED",
      message: expect.stringContaining("oz0 mcp secret set demo/remote oauth id_token"),
    });
    expect(tokenRequests).toEqual([]);
  });
});
