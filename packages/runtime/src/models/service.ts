// The models of a runtime: the resolver the job engine calls, over the tenant's settings, its
// stored keys and its plugins' providers, and what operators do to them (`oz0 model` and
// `oz0 provider`): aliases, providers with their base URLs and keys, and prices. Everything is
// checked when it is set, not at the first call, and no key ever leaves here except to its
// provider: lists show a hint (`sk-…abcd`) or where the key comes from.
import { type AliasOptions, Oz0Error, type PluginConfig, STRUCTURED_OUTPUT_MODES } from "@oz0/sdk";
import type { LoadedPlugin } from "../plugin-dir/index.js";
import { type Store, tenantCacheOf } from "../store/index.js";
import { checkAliasOptions, mergeOptions, type ProviderKind, type StructuredOutput } from "./options.js";
import { BUILTIN_PROVIDERS, isProviderType, PROVIDER_TYPES, type ProviderType } from "./providers.js";
import { type Redactor, redactorOf } from "./redact.js";
import {
  DEFAULT_MODEL_ALIAS,
  type ModelResolver,
  modelResolver,
  type PluginProvider,
  readAlias,
  type StoredAlias,
  splitProvider,
} from "./resolve.js";
import type { CallPolicy } from "./retry.js";
import { SecretStore } from "./secrets.js";
import {
  type Price,
  type ProviderConfig,
  providerKeySecret,
  SETTING_PREFIX,
  TenantSettings,
} from "./settings.js";
import { TEST_PROVIDER } from "./test-provider.js";

export interface ModelsOptions {
  readonly store: Store;
  /** oz0's home: the embedded runtime's encryption key for stored keys lives there. */
  readonly home: string;
  /** Where keys and base URLs are read from; `process.env` when left out. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Loads an installed plugin, to find the providers it registers (the catalog's loadInstalled). */
  readonly loadPlugin?: (tenant: string, plugin: string) => Promise<LoadedPlugin>;
  /**
   * The config an installed plugin runs with in the tenant (the catalog's, with what an operator
   * set): what its providers' build(ctx) gets. Left out, its admin specs' defaults.
   */
  readonly pluginConfig?: (tenant: string, plugin: string, loaded: LoadedPlugin) => Promise<PluginConfig>;
  /** Refuses a tenant that does not exist (the catalog's check). */
  readonly requireTenant?: (tenant: string) => Promise<void>;
  /** Retries and timeouts under what each provider sets. */
  readonly policy?: Partial<CallPolicy>;
  readonly fetch?: typeof globalThis.fetch;
}

/** An alias as `oz0 model list` shows it. */
export interface AliasView {
  readonly alias: string;
  /** `provider:model`, or `test`. */
  readonly target: string;
  /** The default alias is not set and runs on the offline test model. */
  readonly fallback: boolean;
  /** The alias's request and server options (`oz0 model set … --temperature 0.2`); empty when none. */
  readonly options: AliasOptions;
}

/** A provider as `oz0 provider list` shows it: never its key. */
export interface ProviderView {
  readonly name: string;
  /** A built-in type, `plugin` for a plugin's provider, `test` for the offline model. */
  readonly type: ProviderType | "plugin" | "test";
  readonly displayName: string;
  /** `built-in`, `tenant` (configured with oz0 provider set), or `plugin <id>`. */
  readonly source: string;
  readonly baseUrl: string | null;
  /** Where the base URL comes from: `tenant`, `env <VAR>`, `default`, `plugin`. */
  readonly baseUrlFrom: string | null;
  readonly key: KeyView;
  readonly timeoutSeconds: number | null;
  readonly retries: number | null;
  /** False when its calls are made whole, not streamed; null when not set (they stream). */
  readonly stream: boolean | null;
  /** How an openai-compatible server is asked for structured answers; null when not set. */
  readonly structuredOutput: StructuredOutput | null;
}

/** Where a provider's key comes from, and whether it is there. */
export type KeyView =
  | { readonly state: "stored"; readonly hint: string | null }
  | { readonly state: "env"; readonly env: string; readonly set: boolean }
  | { readonly state: "none"; readonly required: boolean };

export interface PriceView extends Price {
  /** `provider:model`, or `provider:*` for every model of a provider. */
  readonly target: string;
}

/** What `oz0 provider set` changes; what is left out stays as it was. */
export interface ProviderChange {
  readonly type?: ProviderType;
  readonly baseUrl?: string;
  /** Read the key from this environment variable (drops a stored key). */
  readonly apiKeyEnv?: string;
  /** Store this key, encrypted (drops an environment variable set before). */
  readonly apiKey?: string;
  readonly timeoutSeconds?: number;
  readonly retries?: number;
  /** False: the server cannot stream, so its calls are made whole. */
  readonly stream?: boolean;
  /** openai-compatible only: `json_schema` when the server takes that response format, else `prompt`. */
  readonly structuredOutput?: StructuredOutput;
}

const ALIAS = /^[a-z0-9][a-z0-9._-]{0,63}$/;
const PROVIDER_NAME = /^[a-z][a-z0-9-]{0,63}$/;
const MODEL_TARGET = /^[A-Za-z0-9][A-Za-z0-9._:/-]*$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export class Models {
  /** What the job engine resolves `model: { use }` with. */
  readonly resolver: ModelResolver;
  readonly #settings: TenantSettings;
  readonly #secrets: SecretStore;
  readonly #options: ModelsOptions;
  readonly #env: Readonly<Record<string, string | undefined>>;
  /** The last redactor built from each kept answer of what a tenant stores, with the environment's values it read. */
  readonly #redactors = new WeakMap<object, { readonly env: string; readonly redactor: Redactor }>();

  constructor(options: ModelsOptions) {
    this.#options = options;
    this.#env = options.env ?? process.env;
    this.#settings = new TenantSettings(options.store.db, options.store.clockSql);
    this.#secrets = new SecretStore({ settings: this.#settings, home: options.home, env: this.#env });
    this.resolver = modelResolver({
      env: this.#env,
      secret: (tenant, name) => this.#secrets.get(tenant, name),
      pluginProviders: (tenant) => this.pluginProviders(tenant),
      ...(options.policy === undefined ? {} : { policy: options.policy }),
      ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    });
  }

  // ── Secrets ──────────────────────────────────────────────────────────────────────────────

  /**
   * The redactor of every secret value `tenant` has: those it stores (model keys, MCP servers'
   * secrets, plugin config secrets) and the keys its providers read from this process's
   * environment (each built-in name's variable, each provider's `--api-key-env`).
   */
  async redactor(tenant: string): Promise<Redactor> {
    // What the tenant stores is read and decrypted once per catalog version (every write of a
    // setting moves it on); the environment is read at every call, as it can change in-process,
    // and the redactor is built again only when what it holds would differ.
    const stored = await tenantCacheOf(this.#options.store.db).get(tenant, "redactor", async () => {
      const variables = new Set<string>(PROVIDER_TYPES.map((type) => BUILTIN_PROVIDERS[type].env.apiKey));
      for (const [, config] of await this.#settings.list<ProviderConfig>(tenant, SETTING_PREFIX.provider)) {
        if (config.apiKeyEnv !== undefined) variables.add(config.apiKeyEnv);
      }
      return { variables: [...variables], ...(await this.#secrets.values(tenant)) };
    });
    // A secret not decrypted here may be once the encryption key is (OZ0_SECRET_KEY set
    // in-process, the key file made elsewhere): while one is, every call decrypts again.
    const values = stored.unreadable ? (await this.#secrets.values(tenant)).values : stored.values;
    const fromEnv = stored.variables.map((name) => this.#env[name]?.trim());
    const env = fromEnv.join("\0");
    const kept = this.#redactors.get(stored);
    if (!stored.unreadable && kept !== undefined && kept.env === env) return kept.redactor;
    const redactor = redactorOf([...values, ...fromEnv]);
    if (!stored.unreadable) this.#redactors.set(stored, { env, redactor });
    return redactor;
  }

  // ── Aliases ──────────────────────────────────────────────────────────────────────────────

  /**
   * Maps `alias` to `provider:model` (or `test`) in the tenant, with its options; the provider
   * must exist and honour each option.
   * @example await models.setAlias("default", "default", "openai:gpt-4.1", { temperature: 0.2 });
   */
  async setAlias(tenant: string, alias: string, target: string, options: unknown = {}): Promise<AliasView> {
    await this.#tenant(tenant);
    if (!ALIAS.test(alias) || alias === TEST_PROVIDER) {
      throw invalid(
        "alias",
        alias === TEST_PROVIDER
          ? "test is the offline test provider itself and cannot be an alias; choose another name"
          : `'${alias}' is not an alias name: lowercase letters, digits, '.', '_' and '-', at most 64, such as default or fast`,
      );
    }
    const checked = checkAliasOptions(options);
    let provider: { kind: ProviderKind; config: ProviderConfig | undefined } = {
      kind: "test",
      config: undefined,
    };
    if (target !== TEST_PROVIDER) {
      const split = splitProvider(target);
      if (split === undefined || split.model === "" || !MODEL_TARGET.test(target) || target.length > 128) {
        throw invalid(
          "model",
          `'${target}' is not a model: write <provider>:<model>, such as openai:gpt-4.1, or test`,
        );
      }
      provider = await this.#requireProvider(tenant, split.provider, `oz0 model set ${alias} ${target}`);
    }
    mergeOptions(provider.kind, target, {
      alias,
      aliasOptions: checked,
      provider: {
        ...(provider.config?.stream === undefined ? {} : { stream: provider.config.stream }),
        ...(provider.config?.structuredOutput === undefined
          ? {}
          : { structured_output: provider.config.structuredOutput }),
      },
    });
    const stored: StoredAlias =
      Object.keys(checked).length === 0 ? target : { model: target, options: checked };
    await this.#settings.put(tenant, SETTING_PREFIX.alias + alias, stored);
    return { alias, target, fallback: false, options: checked };
  }

  async removeAlias(tenant: string, alias: string): Promise<void> {
    await this.#tenant(tenant);
    if (!(await this.#settings.delete(tenant, SETTING_PREFIX.alias + alias))) {
      throw notSet("alias", alias, tenant, "oz0 model list shows the aliases set");
    }
  }

  /** The tenant's aliases; `default` is always there, on the test model when not set. */
  async aliases(tenant: string): Promise<AliasView[]> {
    await this.#tenant(tenant);
    const set = await this.#settings.list<unknown>(tenant, SETTING_PREFIX.alias);
    const views: AliasView[] = [];
    for (const [alias, value] of set) {
      const stored = readAlias(value);
      if (stored !== undefined) {
        views.push({ alias, target: stored.model, fallback: false, options: stored.options ?? {} });
      }
    }
    if (!views.some((view) => view.alias === DEFAULT_MODEL_ALIAS)) {
      views.unshift({ alias: DEFAULT_MODEL_ALIAS, target: TEST_PROVIDER, fallback: true, options: {} });
    }
    return views;
  }

  // ── Providers ────────────────────────────────────────────────────────────────────────────

  /** Configures provider `name` in the tenant: a built-in, a plugin's, or a new name of a built-in type. */
  async setProvider(tenant: string, name: string, change: ProviderChange): Promise<ProviderView> {
    await this.#tenant(tenant);
    checkProviderName(name);
    const before = await this.#settings.get<ProviderConfig>(tenant, SETTING_PREFIX.provider + name);
    const type = change.type ?? before?.type;
    if (change.type !== undefined && !isProviderType(change.type)) {
      throw invalid(
        "type",
        `'${change.type}' is not a provider type; the types are ${PROVIDER_TYPES.join(", ")}`,
      );
    }
    if (isProviderType(name) && type !== undefined && type !== name) {
      throw invalid(
        "type",
        `${name} is a built-in provider of type ${name}; a provider of type ${type} needs another name`,
      );
    }
    if (type === undefined && !isProviderType(name)) {
      const plugins = await this.pluginProviders(tenant);
      if (!plugins.some((entry) => entry.spec.name === name)) {
        throw invalid(
          "type",
          `no plugin of tenant ${tenant} provides a provider named ${name}; a new provider needs --type (${PROVIDER_TYPES.join(", ")})`,
        );
      }
    }
    if (change.apiKey !== undefined && change.apiKeyEnv !== undefined) {
      throw invalid("key", "give the key one way: --api-key-env VAR or --api-key-stdin, not both");
    }
    const config: ProviderConfig = {
      ...before,
      ...(type === undefined || isProviderType(name) ? {} : { type }),
      ...(change.baseUrl === undefined ? {} : { baseUrl: checkUrl(change.baseUrl) }),
      ...(change.timeoutSeconds === undefined ? {} : { timeoutSeconds: checkTimeout(change.timeoutSeconds) }),
      ...(change.retries === undefined ? {} : { retries: checkRetries(change.retries) }),
      ...(change.stream === undefined ? {} : { stream: checkStream(change.stream) }),
      ...(change.structuredOutput === undefined
        ? {}
        : {
            structuredOutput: checkStructuredOutput(
              change.structuredOutput,
              type ?? (isProviderType(name) ? name : undefined),
              name,
            ),
          }),
    };
    let next: ProviderConfig = config;
    if (change.apiKeyEnv !== undefined) {
      if (!ENV_NAME.test(change.apiKeyEnv)) {
        throw invalid("api-key-env", `'${change.apiKeyEnv}' is not an environment variable name`);
      }
      await this.#secrets.remove(tenant, providerKeySecret(name));
      const { apiKeyStored: _dropped, ...rest } = config;
      next = { ...rest, apiKeyEnv: change.apiKeyEnv };
    }
    if (change.apiKey !== undefined) {
      const key = change.apiKey.trim();
      if (key === "" || /\s/.test(key)) {
        throw invalid("api-key", "the key read from stdin is empty or has spaces in it; pipe just the key");
      }
      await this.#secrets.set(tenant, providerKeySecret(name), key);
      const { apiKeyEnv: _dropped, ...rest } = config;
      next = { ...rest, apiKeyStored: true };
    }
    await this.#settings.put(tenant, SETTING_PREFIX.provider + name, next);
    const view = (await this.providers(tenant)).find((entry) => entry.name === name);
    return view!;
  }

  async removeProvider(tenant: string, name: string): Promise<void> {
    await this.#tenant(tenant);
    const removed = await this.#settings.delete(tenant, SETTING_PREFIX.provider + name);
    const key = await this.#secrets.remove(tenant, providerKeySecret(name));
    if (!removed && !key)
      throw notSet("provider", name, tenant, "oz0 provider list shows the providers configured");
  }

  /** Every provider the tenant can use: the built-ins, those it configured, and its plugins'. */
  async providers(tenant: string): Promise<ProviderView[]> {
    await this.#tenant(tenant);
    const configured = new Map(await this.#settings.list<ProviderConfig>(tenant, SETTING_PREFIX.provider));
    const plugins = await this.pluginProviders(tenant);
    const views: ProviderView[] = [
      {
        name: TEST_PROVIDER,
        type: "test",
        displayName: "oz0's offline test model",
        source: "built-in",
        baseUrl: null,
        baseUrlFrom: null,
        key: { state: "none", required: false },
        timeoutSeconds: null,
        retries: null,
        stream: null,
        structuredOutput: null,
      },
    ];
    for (const type of PROVIDER_TYPES) views.push(await this.#builtinView(tenant, type, type, configured));
    for (const [name, config] of configured) {
      if (isProviderType(name) || config.type === undefined) continue;
      views.push(await this.#builtinView(tenant, name, config.type, configured));
    }
    for (const entry of plugins) {
      const config = configured.get(entry.spec.name);
      const baseUrl = config?.baseUrl ?? entry.spec.meta.defaultUrl ?? null;
      views.push({
        name: entry.spec.name,
        type: "plugin",
        displayName: entry.spec.meta.displayName,
        source: `plugin ${entry.pluginId}`,
        baseUrl,
        baseUrlFrom: config?.baseUrl !== undefined ? "tenant" : baseUrl === null ? null : "plugin",
        key: await this.#keyView(tenant, entry.spec.name, config, undefined, false),
        timeoutSeconds: config?.timeoutSeconds ?? null,
        retries: config?.retries ?? null,
        stream: config?.stream ?? null,
        structuredOutput: null,
      });
    }
    return views;
  }

  async #builtinView(
    tenant: string,
    name: string,
    type: ProviderType,
    configured: ReadonlyMap<string, ProviderConfig>,
  ): Promise<ProviderView> {
    const kind = BUILTIN_PROVIDERS[type];
    const inherits = name === "openai-chat" && !configured.has(name);
    const configName = inherits ? "openai" : name;
    const config = configured.get(configName);
    const standard = isProviderType(name) ? kind.env : undefined;
    const envUrl = standard === undefined ? undefined : this.#env[standard.baseUrl]?.trim() || undefined;
    const baseUrl = config?.baseUrl ?? envUrl ?? kind.defaultUrl ?? null;
    const baseUrlFrom =
      config?.baseUrl !== undefined
        ? inherits
          ? "tenant (openai's)"
          : "tenant"
        : envUrl !== undefined
          ? `env ${standard?.baseUrl}`
          : baseUrl === null
            ? null
            : "default";
    return {
      name,
      type,
      displayName: kind.displayName,
      source: isProviderType(name) ? "built-in" : "tenant",
      baseUrl,
      baseUrlFrom,
      key: await this.#keyView(tenant, configName, config, standard?.apiKey, kind.keyRequired),
      timeoutSeconds: config?.timeoutSeconds ?? null,
      retries: config?.retries ?? null,
      stream: config?.stream ?? null,
      structuredOutput: config?.structuredOutput ?? null,
    };
  }

  async #keyView(
    tenant: string,
    name: string,
    config: ProviderConfig | undefined,
    standardEnv: string | undefined,
    required: boolean,
  ): Promise<KeyView> {
    if (config?.apiKeyStored === true) {
      const stored = await this.#secrets.describe(tenant, providerKeySecret(name));
      if (stored !== undefined) return { state: "stored", hint: stored.hint ?? null };
    }
    const env = config?.apiKeyEnv ?? standardEnv;
    if (env !== undefined) return { state: "env", env, set: (this.#env[env]?.trim() ?? "") !== "" };
    return { state: "none", required };
  }

  // ── Prices ───────────────────────────────────────────────────────────────────────────────

  /**
   * Sets the price of `provider:model` (or `provider:*`), in USD per million tokens.
   * @example await models.setPrice("default", "openai:gpt-4.1", { input: 2, output: 8, cached: 0.5 });
   */
  async setPrice(tenant: string, target: string, price: Price): Promise<PriceView> {
    await this.#tenant(tenant);
    const split = splitProvider(target);
    if (split === undefined || split.model === "" || !MODEL_TARGET.test(target.replace(/:\*$/, ":x"))) {
      throw invalid(
        "model",
        `'${target}' is not a model: write <provider>:<model>, or <provider>:* for all its models`,
      );
    }
    for (const [field, value] of Object.entries(price)) {
      if (value !== undefined && (!Number.isFinite(value) || value < 0)) {
        throw invalid(field, `--${field} is USD per million tokens, a number 0 or more; got ${value}`);
      }
    }
    const stored: Price = {
      input: price.input,
      output: price.output,
      ...(price.cached === undefined ? {} : { cached: price.cached }),
    };
    await this.#settings.put(tenant, SETTING_PREFIX.price + target, stored);
    return { target, ...stored };
  }

  async removePrice(tenant: string, target: string): Promise<void> {
    await this.#tenant(tenant);
    if (!(await this.#settings.delete(tenant, SETTING_PREFIX.price + target))) {
      throw notSet("price", target, tenant, "oz0 model prices shows the prices set");
    }
  }

  async prices(tenant: string): Promise<PriceView[]> {
    await this.#tenant(tenant);
    const rows = await this.#settings.list<Price>(tenant, SETTING_PREFIX.price);
    return rows.map(([target, price]) => ({ target, ...price }));
  }

  // ── Plugins' providers ──────────────────────────────────────────────────────────────────

  /** The providers the tenant's plugins register (only plugins that declare the capability are loaded). */
  async pluginProviders(tenant: string): Promise<PluginProvider[]> {
    const load = this.#options.loadPlugin;
    if (load === undefined) return [];
    const db = this.#options.store.db;
    // Which plugins declare the capability is kept while the tenant's catalog version stands.
    const names = await tenantCacheOf(db).get(tenant, "provider plugins", async () => {
      const rows = await db
        .selectFrom("plugins")
        .select(["name", "manifest"])
        .where("tenant", "=", tenant)
        .orderBy("name")
        .execute();
      return Object.freeze(
        rows
          .filter((row) => {
            const capabilities = (JSON.parse(row.manifest) as { capabilities?: unknown }).capabilities;
            return Array.isArray(capabilities) && capabilities.includes("provider");
          })
          .map((row) => row.name),
      );
    });
    const found: PluginProvider[] = [];
    for (const name of names) {
      const plugin = await load(tenant, name);
      const code = plugin.code;
      if (code === undefined) continue;
      const config: Record<string, unknown> = {
        ...((await this.#options.pluginConfig?.(tenant, name, plugin)) ??
          Object.assign(
            {},
            ...code
              .registrations("admin")
              .filter((admin) => admin.enabled)
              .map((admin) => admin.spec.defaultConfig ?? {}),
          )),
      };
      for (const registration of code.registrations("provider")) {
        if (!registration.enabled) continue;
        found.push({ pluginId: name, spec: registration.spec, config });
      }
    }
    return found;
  }

  /** The kind of provider `name` is in the tenant, with its settings; refuses a provider it does not have. */
  async #requireProvider(
    tenant: string,
    name: string,
    what: string,
  ): Promise<{ kind: ProviderKind; config: ProviderConfig | undefined }> {
    if (name === TEST_PROVIDER) return { kind: "test", config: undefined };
    const own = await this.#settings.get<ProviderConfig>(tenant, SETTING_PREFIX.provider + name);
    // openai-chat shares openai's settings until it has its own.
    const config =
      own ??
      (name === "openai-chat"
        ? await this.#settings.get<ProviderConfig>(tenant, `${SETTING_PREFIX.provider}openai`)
        : undefined);
    if (isProviderType(name)) return { kind: name, config };
    if (config?.type !== undefined) return { kind: config.type, config };
    if ((await this.pluginProviders(tenant)).some((entry) => entry.spec.name === name)) {
      return { kind: "plugin", config };
    }
    throw new Oz0Error(
      "MODEL_NOT_CONFIGURED",
      `${what}: tenant ${tenant} has no provider named ${name}. The providers are ${TEST_PROVIDER}, ${PROVIDER_TYPES.join(", ")}, ` +
        `those configured with oz0 provider set ${name} --type <type> --base-url <url>, and those of installed plugins ` +
        "(oz0 provider list).",
      { data: { alias: what, provider: name } },
    );
  }

  async #tenant(tenant: string): Promise<void> {
    await this.#options.requireTenant?.(tenant);
  }
}

function checkProviderName(name: string): void {
  if (name === TEST_PROVIDER)
    throw invalid("name", "test is the offline test provider; it takes no settings");
  if (!PROVIDER_NAME.test(name)) {
    throw invalid(
      "name",
      `'${name}' is not a provider name: lowercase letters, digits and dashes, starting with a letter`,
    );
  }
}

function checkStream(stream: unknown): boolean {
  if (typeof stream !== "boolean") throw invalid("stream", "stream is true or false");
  return stream;
}

function checkStructuredOutput(
  mode: unknown,
  type: ProviderType | undefined,
  name: string,
): StructuredOutput {
  if (!(STRUCTURED_OUTPUT_MODES as readonly unknown[]).includes(mode)) {
    throw invalid(
      "structured-output",
      `structured output is ${STRUCTURED_OUTPUT_MODES.join(" or ")}, not '${String(mode)}'`,
    );
  }
  if (type !== "openai-compatible") {
    throw invalid(
      "structured-output",
      `--structured-output applies to openai-compatible servers; ${name} is ${type === undefined ? "a plugin's provider" : `of type ${type}`}, which asks for the schema its own way`,
    );
  }
  return mode as StructuredOutput;
}

function checkUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalid("base-url", `'${text}' is not a URL; write it whole, such as http://localhost:11434/v1`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw invalid("base-url", `'${text}' is not an http or https URL`);
  }
  if (url.username !== "" || url.password !== "") {
    throw invalid("base-url", "a base URL carries no user or password; give the key with --api-key-stdin");
  }
  return text.replace(/\/+$/, "");
}

function checkTimeout(seconds: number): number {
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 3600) {
    throw invalid(
      "timeout",
      `--timeout is seconds without an answer before a call is tried again, more than 0 and at most 3600; got ${seconds}`,
    );
  }
  return seconds;
}

function checkRetries(retries: number): number {
  if (!Number.isInteger(retries) || retries < 0 || retries > 10) {
    throw invalid(
      "retries",
      `--retries is how many times a failed call is tried again, 0 to 10; got ${retries}`,
    );
  }
  return retries;
}

function invalid(path: string, message: string): Oz0Error {
  return new Oz0Error("INVALID_INPUT", `${message}.`, { data: { issues: [{ path, message }] } });
}

function notSet(kind: string, name: string, tenant: string, hint: string): Oz0Error {
  return new Oz0Error("NOT_FOUND", `no ${kind} ${name} is set in tenant ${tenant}; ${hint}.`, {
    data: { kind, name, tenant },
  });
}
