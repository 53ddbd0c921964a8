// The client the conformance suite's `auth/*` scenarios run: oz0 itself. The suite starts it as
// `<command> <server-url>`; it installs a plugin whose tool is that server, logs in the way `oz0
// mcp login` does (the manager's login, a loopback redirect listener), except that the person's
// browser is a fetch that follows the authorization server's redirect to the loopback; then it
// lists the server's tools and calls `test-tool` as a job's call would, through the runtime.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loopback, Runtime } from "@oz0/runtime";

/** The Client ID Metadata Document URL the suite's CIMD scenario accepts as oz0's. */
const CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json";
const TENANT = "default";

/** A plugin whose one tool, `remote`, is the server under test. */
async function writePluginFolder(home: string, serverUrl: string): Promise<string> {
  const dir = join(home, "conformance");
  await mkdir(dir, { recursive: true });
  const manifest = [
    "name: conformance",
    "version: 1.0.0",
    "tools:",
    "  - id: remote",
    `    mcp: { url: ${JSON.stringify(serverUrl)} }`,
  ];
  await writeFile(join(dir, "plugin.yaml"), `${manifest.join("\n")}\n`);
  return dir;
}

/** A browser that approves at once: follow the authorization server's redirect to the loopback. */
async function approve(url: URL): Promise<void> {
  let next: URL = url;
  for (let hop = 0; hop < 5; hop += 1) {
    const response = await fetch(next, { redirect: "manual" });
    const location = response.headers.get("location");
    await response.body?.cancel();
    if (location === null) return;
    next = new URL(location, next);
    if (next.hostname === "127.0.0.1" && next.pathname === "/callback") {
      await (await fetch(next)).body?.cancel();
      return;
    }
  }
}

async function main(): Promise<void> {
  const serverUrl = process.argv[2];
  if (serverUrl === undefined) throw new Error("usage: mcp-auth-client <server-url>");
  const home = await mkdtemp(join(tmpdir(), "oz0-auth-client-"));
  const runtime = await Runtime.open({ home, memory: true, defaultPlugins: [] });
  const redirect = await loopback();
  try {
    await runtime.catalog.install(TENANT, await writePluginFolder(home, serverUrl));
    runtime.mcp.oauth.clientMetadataUrl = CLIENT_METADATA_URL;
    const authorizer = {
      redirectUrl: redirect.redirectUrl,
      authorize: async (url: URL, state: string) => {
        const code = redirect.code(state);
        await approve(url);
        return code;
      },
    };
    // The manager's own connections (a job's) may authorize too here: the suite's step-up
    // scenarios ask for more scope in the middle of the session.
    runtime.mcp.oauth.authorizer = authorizer;
    const loaded = await runtime.catalog.loadInstalled(TENANT, "conformance");
    // A scenario with a client registered beforehand gives its ID (and secret) in its context.
    const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}") as {
      client_id?: string;
      client_secret?: string;
    };
    const client =
      context.client_id === undefined
        ? undefined
        : { clientId: context.client_id, clientSecret: context.client_secret };
    await runtime.mcp.login(TENANT, loaded, "remote", authorizer, client);
    // The tokens are the tenant's, encrypted: no settings row holds the access token in clear.
    const tokens = await runtime.mcp.secrets.oauthVault(TENANT, "conformance", "remote").read("tokens");
    const access =
      tokens === undefined ? undefined : (JSON.parse(tokens) as { access_token: string }).access_token;
    if (access === undefined) throw new Error("the login stored no tokens");
    const rows = await runtime.store.db.selectFrom("settings").select(["value"]).execute();
    if (rows.some((row) => row.value.includes(access))) throw new Error("an access token is stored in clear");
    const called = await runtime.tools.call(TENANT, "conformance/remote.test-tool", {});
    if (!called.ok) throw new Error(`${called.error?.code}: ${called.error?.message}`);
  } finally {
    await redirect.close();
    await runtime.close();
    await rm(home, { recursive: true, force: true });
  }
}

await main();
