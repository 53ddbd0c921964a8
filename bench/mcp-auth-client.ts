// The client the conformance suite's `auth/*` scenarios run: oz0 itself. The suite starts it as
// `<command> <server-url>`; it installs a plugin whose tool is that server, logs in the way `oz0
// mcp login` does (the manager's login, a loopback redirect listener), except that the person's
// browser is a fetch that follows the authorization server's redirect to the loopback; then it
// lists the server's tools and calls `test-tool` as a job's call would, through the runtime.
// The suite's extension scenarios (client credentials, cross-app access) need no person: their
// tool's manifest gives the `oauth:` grant an operator would write for such a server, the
// credentials the suite hands over are set as the tenant's secrets (`oz0 mcp secret set <tool>
// oauth NAME`), and the call is made with no login and no authorizer, as a job's would be.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loopback, Runtime } from "@oz0/runtime";
import { approve } from "./oauth-browser.js";

/** The Client ID Metadata Document URL the suite's CIMD scenario accepts as oz0's. */
const CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json";
const TENANT = "default";

/** What the suite hands a scenario's client (`MCP_CONFORMANCE_CONTEXT`). */
interface Context {
  readonly client_id?: string;
  readonly client_secret?: string;
  readonly private_key_pem?: string;
  readonly signing_algorithm?: string;
  readonly idp_client_id?: string;
  readonly idp_id_token?: string;
  readonly idp_issuer?: string;
  readonly idp_token_endpoint?: string;
}

/** The `oauth:` an operator writes for the server of a scenario that needs no person, and the secrets it reads. */
function grantOf(
  scenario: string,
  context: Context,
): { oauth: Record<string, unknown>; secrets: Record<string, string | undefined> } | undefined {
  switch (scenario) {
    case "auth/client-credentials-basic":
      return {
        oauth: {
          grant: "client_credentials",
          client_id: context.client_id,
          client_auth: "client_secret_basic",
        },
        secrets: { client_secret: context.client_secret },
      };
    case "auth/client-credentials-jwt":
      return {
        oauth: {
          grant: "client_credentials",
          client_id: context.client_id,
          client_auth: "private_key_jwt",
          signing_alg: context.signing_algorithm,
        },
        secrets: { private_key: context.private_key_pem },
      };
    case "auth/cross-app-access-complete-flow":
      return {
        oauth: {
          grant: "cross_app_access",
          client_id: context.client_id,
          client_auth: "client_secret_basic",
          idp: { token_endpoint: context.idp_token_endpoint, client_id: context.idp_client_id },
        },
        secrets: { client_secret: context.client_secret, id_token: context.idp_id_token },
      };
    default:
      return undefined;
  }
}

/** A plugin whose one tool, `remote`, is the server under test. */
async function writePluginFolder(
  home: string,
  serverUrl: string,
  oauth: Record<string, unknown> | undefined,
): Promise<string> {
  const dir = join(home, "conformance");
  await mkdir(dir, { recursive: true });
  const mcp = oauth === undefined ? { url: serverUrl } : { url: serverUrl, oauth };
  const manifest = [
    "name: conformance",
    "version: 1.0.0",
    "tools:",
    "  - id: remote",
    `    mcp: ${JSON.stringify(mcp)}`,
  ];
  await writeFile(join(dir, "plugin.yaml"), `${manifest.join("\n")}\n`);
  return dir;
}

async function main(): Promise<void> {
  const serverUrl = process.argv[2];
  if (serverUrl === undefined) throw new Error("usage: mcp-auth-client <server-url>");
  const home = await mkdtemp(join(tmpdir(), "oz0-auth-client-"));
  const runtime = await Runtime.open({ home, memory: true, defaultPlugins: [] });
  const redirect = await loopback();
  try {
    const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}") as Context;
    const grant = grantOf(process.env.MCP_CONFORMANCE_SCENARIO ?? "", context);
    await runtime.catalog.install(TENANT, await writePluginFolder(home, serverUrl, grant?.oauth));
    if (grant !== undefined) {
      for (const [name, value] of Object.entries(grant.secrets)) {
        if (value === undefined) throw new Error(`the suite handed over no ${name}`);
        await runtime.mcp.secrets.set(TENANT, "conformance", "remote", "oauth", name, value);
      }
      await call(runtime);
      // The credentials and the tokens they got are the tenant's, encrypted.
      await notInClear(runtime, [...Object.values(grant.secrets), await accessToken(runtime)]);
      return;
    }
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
    const client =
      context.client_id === undefined
        ? undefined
        : { clientId: context.client_id, clientSecret: context.client_secret };
    await runtime.mcp.login(TENANT, loaded, "remote", authorizer, client);
    // The tokens are the tenant's, encrypted: no settings row holds the access token in clear.
    await notInClear(runtime, [await accessToken(runtime)]);
    await call(runtime);
  } finally {
    await redirect.close();
    await runtime.close();
    await rm(home, { recursive: true, force: true });
  }
}

async function accessToken(runtime: Runtime): Promise<string> {
  const tokens = await runtime.mcp.secrets.oauthVault(TENANT, "conformance", "remote").read("tokens");
  const access =
    tokens === undefined ? undefined : (JSON.parse(tokens) as { access_token: string }).access_token;
  if (access === undefined) throw new Error("no tokens were stored");
  return access;
}

/** Throws when a settings row holds any of `values` in clear. */
async function notInClear(runtime: Runtime, values: readonly (string | undefined)[]): Promise<void> {
  const rows = await runtime.store.db.selectFrom("settings").select(["value"]).execute();
  for (const value of values) {
    if (value !== undefined && rows.some((row) => row.value.includes(value)))
      throw new Error("a credential or token is stored in clear");
  }
}

/** `test-tool`, called as a job's call is: no person at hand. */
async function call(runtime: Runtime): Promise<void> {
  const called = await runtime.tools.call(TENANT, "conformance/remote.test-tool", {});
  if (!called.ok) throw new Error(`${called.error?.code}: ${called.error?.message}`);
}

await main();
