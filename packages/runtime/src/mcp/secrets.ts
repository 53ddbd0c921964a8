// Secrets of the MCP servers behind a tenant's tools: the environment variables a local server
// is started with, the headers a remote one is sent, and the OAuth credentials of a remote one
// whose `oauth:` grant needs no person (its client secret, private key, identity assertion and
// IdP client secret), kept in the tenant's settings (never in
// the plugin folder, which anyone who reads the plugin sees), each value encrypted at rest with
// the tenant's secret store, as model keys are. They join the manifest's `env:` and `headers:`
// when oz0 connects, win over a value of the same name there, and are redacted from everything
// the server answers.
import { isOz0Error, Oz0Error } from "@oz0/sdk";
import { SecretStore, TenantSettings } from "../models/index.js";
import type { Store } from "../store/index.js";
import type { OAuthVault } from "./oauth.js";

/** One tool's secrets: environment variables (stdio servers), headers and OAuth credentials (HTTP servers). */
export interface McpSecretValues {
  readonly env: Readonly<Record<string, string>>;
  readonly headers: Readonly<Record<string, string>>;
  readonly oauth: Readonly<Record<string, string>>;
}

/** Which of a tool's secrets are set, by name only: what `oz0 mcp secret list` shows. */
export interface McpSecretNames {
  /** The tool by address, `<plugin>/<tool>`. */
  readonly tool: string;
  readonly env: readonly string[];
  readonly headers: readonly string[];
  readonly oauth: readonly string[];
}

/** What a tool's secret is for: its server's env (stdio), a header (HTTP), or its `oauth:` grant. */
export const MCP_SECRET_KINDS = ["env", "header", "oauth"] as const;
export type McpSecretKind = (typeof MCP_SECRET_KINDS)[number];

/** The OAuth credentials a tool's `oauth:` grant may read, by the name they are set under. */
export const OAUTH_SECRET_NAMES = ["client_secret", "private_key", "id_token", "idp_client_secret"] as const;
export type OAuthSecretName = (typeof OAUTH_SECRET_NAMES)[number];

/** The names set for a tool, kept in plain text beside the encrypted values: names are not secret. */
interface SecretIndex {
  readonly env: readonly string[];
  readonly headers: readonly string[];
  /** Absent in an index written before OAuth credentials were secrets. */
  readonly oauth?: readonly string[];
}

const NONE: SecretIndex = { env: [], headers: [], oauth: [] };
const FIELDS = { env: "env", header: "headers", oauth: "oauth" } as const;
const KEY_PREFIX = "mcp.secret.";
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
// RFC 9110 token characters.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** The settings key of one tool's secret names: `mcp.secret.<plugin>/<tool>`. */
export function secretSettingKey(plugin: string, tool: string): string {
  return `${KEY_PREFIX}${plugin}/${tool}`;
}

/** Why `name` cannot name a secret of `kind`, or `undefined` when it can. */
export function secretNameProblem(kind: McpSecretKind, name: string): string | undefined {
  if (kind === "env" && !ENV_NAME.test(name)) {
    return `'${name}' is not an environment variable name: letters, digits and '_', not starting with a digit`;
  }
  if (kind === "header" && !HEADER_NAME.test(name)) {
    return `'${name}' is not a header name: letters, digits and !#$%&'*+.^_\`|~-, no spaces or ':'`;
  }
  if (kind === "oauth" && !(OAUTH_SECRET_NAMES as readonly string[]).includes(name)) {
    return `'${name}' is not an OAuth credential oz0 reads: ${OAUTH_SECRET_NAMES.join(", ")}`;
  }
  return undefined;
}

/** Reads and writes the tenant settings that hold MCP secrets. */
export class McpSecrets {
  readonly #store: Store;
  readonly #settings: TenantSettings;
  readonly #vault: SecretStore;

  /** `home` holds the encryption key when OZ0_SECRET_KEY is not set. */
  constructor(store: Store, home: string) {
    this.#store = store;
    this.#settings = new TenantSettings(store.db, store.clockSql);
    this.#vault = new SecretStore({ settings: this.#settings, home });
  }

  /** The secrets of `<plugin>/<tool>`, decrypted; none set reads as empty. */
  async get(tenant: string, plugin: string, tool: string): Promise<McpSecretValues> {
    const index = await this.index(tenant, plugin, tool);
    const read = async (kind: McpSecretKind, names: readonly string[]) =>
      Object.fromEntries(
        await Promise.all(
          names.map(async (name) => [name, await this.reveal(tenant, plugin, tool, kind, name)] as const),
        ),
      );
    return {
      env: await read("env", index.env),
      headers: await read("header", index.headers),
      oauth: await read("oauth", index.oauth ?? []),
    };
  }

  /** Sets (or replaces) one secret. */
  async set(
    tenant: string,
    plugin: string,
    tool: string,
    kind: McpSecretKind,
    name: string,
    value: string,
  ): Promise<void> {
    const problem = secretNameProblem(kind, name);
    if (problem !== undefined) {
      throw new Oz0Error("INVALID_INPUT", `${plugin}/${tool}: ${problem}.`, {
        data: { issues: [{ path: kind, message: problem }] },
      });
    }
    await this.#vault.set(tenant, vaultName(plugin, tool, kind, name), value);
    const index = await this.index(tenant, plugin, tool);
    const field = FIELDS[kind];
    const names = index[field] ?? [];
    if (!names.includes(name)) {
      await this.#settings.put(tenant, secretSettingKey(plugin, tool), {
        ...index,
        [field]: [...names, name].sort(),
      });
    }
  }

  /** Removes one secret, or all of the tool's when `which` is left out; true when something was removed. */
  async remove(
    tenant: string,
    plugin: string,
    tool: string,
    which?: { readonly kind: McpSecretKind; readonly name: string },
  ): Promise<boolean> {
    const index = await this.index(tenant, plugin, tool);
    const all: { kind: McpSecretKind; name: string }[] = [
      ...index.env.map((name) => ({ kind: "env" as const, name })),
      ...index.headers.map((name) => ({ kind: "header" as const, name })),
      ...(index.oauth ?? []).map((name) => ({ kind: "oauth" as const, name })),
    ];
    const going =
      which === undefined ? all : all.filter((one) => one.kind === which.kind && one.name === which.name);
    if (going.length === 0) return false;
    for (const one of going) await this.#vault.remove(tenant, vaultName(plugin, tool, one.kind, one.name));
    const left = all.filter((one) => !going.includes(one));
    if (left.length === 0) await this.#settings.delete(tenant, secretSettingKey(plugin, tool));
    else {
      await this.#settings.put(tenant, secretSettingKey(plugin, tool), {
        env: left.filter((one) => one.kind === "env").map((one) => one.name),
        headers: left.filter((one) => one.kind === "header").map((one) => one.name),
        oauth: left.filter((one) => one.kind === "oauth").map((one) => one.name),
      });
    }
    return true;
  }

  /** Every tool of the tenant with secrets, by name only; values never leave the store this way. */
  async list(tenant: string): Promise<McpSecretNames[]> {
    const rows = await this.#store.db
      .selectFrom("settings")
      .select(["key", "value"])
      .where("tenant", "=", tenant)
      .where("key", "like", `${KEY_PREFIX}%`)
      .orderBy("key")
      .execute();
    return rows.map((row) => {
      const index = JSON.parse(row.value) as SecretIndex;
      return {
        tool: row.key.slice(KEY_PREFIX.length),
        env: [...index.env],
        headers: [...index.headers],
        oauth: [...(index.oauth ?? [])],
      };
    });
  }

  /**
   * The vault of `<plugin>/<tool>`'s OAuth state (its client registration and tokens), kept
   * encrypted beside its other secrets and never listed with them.
   */
  oauthVault(tenant: string, plugin: string, tool: string): OAuthVault {
    const name = (part: string) => `mcp.${plugin}/${tool}.oauth.${part}`;
    return {
      read: (part) => this.#vault.get(tenant, name(part)),
      write: (part, value) => this.#vault.set(tenant, name(part), value),
      remove: (part) => this.#vault.remove(tenant, name(part)).then(() => undefined),
    };
  }

  private async index(tenant: string, plugin: string, tool: string): Promise<SecretIndex> {
    return (await this.#settings.get<SecretIndex>(tenant, secretSettingKey(plugin, tool))) ?? NONE;
  }

  private async reveal(
    tenant: string,
    plugin: string,
    tool: string,
    kind: McpSecretKind,
    name: string,
  ): Promise<string> {
    const what = `${kind} ${name} of ${plugin}/${tool}`;
    let value: string | undefined;
    try {
      value = await this.#vault.get(tenant, vaultName(plugin, tool, kind, name));
    } catch (error) {
      // The secret store speaks of model keys; say what it means for this server.
      const why = isOz0Error(error)
        ? (/cannot be read here: (.*?)\. Set/.exec(error.message)?.[1] ?? error.message)
        : String(error);
      throw new Oz0Error(
        "MCP_SERVER_ERROR",
        `the secret ${what} cannot be read here: ${why}. Set OZ0_SECRET_KEY to the same value in every oz0 process ` +
          `that shares this database, or set the secret again (oz0 mcp secret set ${plugin}/${tool} ${kind} ${name}).`,
        { data: { tool: `${plugin}/${tool}`, server: "", cause: why } },
      );
    }
    if (value === undefined) {
      throw new Oz0Error(
        "MCP_SERVER_ERROR",
        `the secret ${what} is listed but its value is gone; set it again.`,
        {
          data: { tool: `${plugin}/${tool}`, server: "", cause: "missing value" },
        },
      );
    }
    return value;
  }
}

/** Where the secret store keeps one value: `mcp.<plugin>/<tool>.<env|header|credential>.<NAME>`. */
function vaultName(plugin: string, tool: string, kind: McpSecretKind, name: string): string {
  // `oauth.` is the OAuth state's (oauthVault): credentials are kept apart from it.
  return `mcp.${plugin}/${tool}.${kind === "oauth" ? "credential" : kind}.${name}`;
}
