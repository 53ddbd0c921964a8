// A remote MCP server that asks for OAuth, reached by a connection no person stands behind (a
// job's, `oz0 tool call`): refused with MCP_AUTH_REQUIRED naming `oz0 mcp login`, without
// registering a client or counting a failure of the server; a login's tokens are the tenant's
// alone, encrypted. The OAuth flow itself (discovery,
// registration, PKCE, scopes, refresh) is tested against the MCP conformance suite's
// authorization servers (packages/cli/test/mcp-conformance.test.ts).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Runtime } from "../../src/runtime.js";
import { openRuntime, tempDir, writePlugin } from "./helpers.js";

const TENANT = "default";
let runtime: Runtime;
let server: Server;
let cleanup: () => Promise<void>;
let requests: string[];
let bearers: string[];
let pluginDir: string;

beforeEach(async () => {
  requests = [];
  bearers = [];
  // Every request is refused for want of a bearer token, as a protected MCP server does.
  server = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    if (request.headers.authorization !== undefined) bearers.push(request.headers.authorization);
    response.writeHead(401, { "www-authenticate": 'Bearer realm="mcp"' }).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const temp = await tempDir("oz0-mcp-oauth-");
  cleanup = temp.cleanup;
  runtime = await openRuntime(temp.dir);
  pluginDir = await writePlugin(
    temp.dir,
    "demo",
    [
      "name: demo",
      "version: 1.0.0",
      "tools:",
      "  - id: remote",
      `    mcp: { url: "http://127.0.0.1:${port}/mcp" }`,
    ].join("\n"),
  );
  await runtime.catalog.install(TENANT, pluginDir);
});

afterEach(async () => {
  await runtime.close();
  await new Promise((resolve) => server.close(resolve));
  await cleanup();
});

describe("a remote MCP server that asks for an OAuth login", () => {
  it("refuses a call no person can log in for with MCP_AUTH_REQUIRED, naming oz0 mcp login", async () => {
    await expect(runtime.tools.call(TENANT, "demo/remote.anything", {})).rejects.toMatchObject({
      code: "MCP_AUTH_REQUIRED",
      message: expect.stringMatching(/run oz0 mcp login demo\/remote/),
    });
    // Discovery only: no client was registered (no POST beside the MCP request itself).
    expect(requests.filter((request) => request.startsWith("POST"))).toEqual(["POST /mcp"]);
  });

  it("does not count a missing login as a failure of the server, so a login takes effect at once", async () => {
    for (let attempt = 0; attempt < 2; attempt += 1) {
      await expect(runtime.tools.call(TENANT, "demo/remote.anything", {})).rejects.toMatchObject({
        code: "MCP_AUTH_REQUIRED",
      });
    }
    const [status] = runtime.mcp.status();
    expect(status).toMatchObject({ failures: 0, state: "idle" });
    expect(requests.filter((request) => request.startsWith("POST"))).toEqual(["POST /mcp", "POST /mcp"]);
  });

  it("keeps a login's tokens per tenant, encrypted: another tenant with the same plugin never sends them", async () => {
    const token = "mcp-access-3f9a1c7e";
    await runtime.mcp.secrets
      .oauthVault(TENANT, "demo", "remote")
      .write("tokens", JSON.stringify({ access_token: token, token_type: "Bearer" }));
    const rows = await runtime.store.db.selectFrom("settings").select(["value"]).execute();
    expect(rows.some((row) => row.value.includes(token))).toBe(false);
    await runtime.catalog.install("other", pluginDir);
    await expect(runtime.tools.call("other", "demo/remote.anything", {})).rejects.toMatchObject({
      code: "MCP_AUTH_REQUIRED",
    });
    expect(bearers).toEqual([]);
    // The tenant that logged in sends them (this server refuses every token, so the call fails).
    await expect(runtime.tools.call(TENANT, "demo/remote.anything", {})).rejects.toThrow();
    expect(bearers).toContain(`Bearer ${token}`);
  });
});
