// Which model an agent runs on: its `model: { use }` (or its plugin's), read as a tenant's
// alias (`default`, `fast`, …, set with `oz0 model set`) or as `provider:model`, then built
// by the provider of that name: the offline `test` provider, a built-in one (openai,
// openai-chat, anthropic, openai-compatible, or a name the tenant configured with one of those
// types), or one a plugin registers with `addProvider`. The alias `default` falls back to the
// offline test provider when the tenant set nothing, so the embedded runtime runs every agent
// without a key or a network, and the job says so once. The alias's and the agent's request
// options are merged and checked against the provider here (options.ts).
import type { LanguageModelV4, SharedV4ProviderOptions } from "@ai-sdk/provider";
import {
  type AliasOptions,
  MODEL_NAME_LIMIT,
  type ModelOptions,
  Oz0Error,
  type ProviderSpec,
} from "@oz0/sdk";
import { YAML_LIMITS } from "@oz0/sdk/internal";
import { readInPlugin } from "../plugin-dir/index.js";
import { aiSdkModel } from "./ai-sdk.js";
import { metered } from "./metered.js";
import { callSettings, type MergedOptions, mergeOptions, type ProviderKind } from "./options.js";
import {
  BUILTIN_PROVIDERS,
  type Endpoint,
  isProviderType,
  PROVIDER_TYPES,
  type ProviderType,
} from "./providers.js";
import { redactorOf } from "./redact.js";
import { CALL_POLICY_DEFAULTS, type CallPolicy } from "./retry.js";
import { type Price, type ProviderConfig, providerKeySecret, SETTING_PREFIX } from "./settings.js";
import { keptTestScript, TEST_PROVIDER, testModel } from "./test-provider.js";
import type { LanguageModel } from "./types.js";

/** `model:` of an agent or plugin. */
export interface ModelChoice {
  readonly use: string;
  /** A test provider script, a path in the plugin. */
  readonly script?: string | undefined;
  /** The agent's (or its plugin's) request options, over the alias's. */
  readonly options?: ModelOptions | undefined;
}

/** An alias as stored: `provider:model`, or with options `{ model, options }`. */
export type StoredAlias = string | { readonly model: string; readonly options: AliasOptions };

/** The model and options of a stored alias. */
export function readAlias(stored: unknown): { model: string; options?: AliasOptions } | undefined {
  if (typeof stored === "string") return { model: stored };
  if (
    typeof stored === "object" &&
    stored !== null &&
    typeof (stored as { model?: unknown }).model === "string"
  ) {
    const { model, options } = stored as { model: string; options?: AliasOptions };
    return options === undefined ? { model } : { model, options };
  }
  return undefined;
}

/** The alias used when neither the agent nor its plugin chooses a model. */
export const DEFAULT_MODEL_ALIAS = "default";

/** The tenant setting that maps an alias to `provider:model`. */
export function modelSettingKey(alias: string): string {
  return `${SETTING_PREFIX.alias}${alias}`;
}

export interface ModelContext {
  readonly tenant: string;
  /** The folder of the plugin whose agent runs: a script is a path in it. */
  readonly pluginDir: string;
  /** A tenant setting's value (parsed JSON), `undefined` when it is not set. */
  readonly setting: (key: string) => Promise<unknown>;
}

/** Builds a model of one provider; `model` is what follows `provider:`. */
export type ProviderFactory = (
  model: string,
  choice: ModelChoice,
  context: ModelContext,
) => Promise<LanguageModel>;

/** What a provider's `build` gets: the plugin's config and its key. */
type ProviderContext = Parameters<ProviderSpec["build"]>[0];

/** A provider a plugin of the tenant registers with `addProvider`. */
export interface PluginProvider {
  readonly pluginId: string;
  readonly spec: ProviderSpec & { readonly pluginId: string };
  /** The plugin's config, for the provider's build. */
  readonly config: ProviderContext["config"];
}

/** What the resolver reads beyond the tenant's settings. */
export interface ModelSources {
  /** Factories by provider name, tried before any other provider (tests, embedders). */
  readonly providers?: ReadonlyMap<string, ProviderFactory>;
  /** The environment keys and base URLs are read from; `process.env` when left out. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** A key stored in the tenant, decrypted. */
  readonly secret?: (tenant: string, name: string) => Promise<string | undefined>;
  /** The providers the tenant's plugins register. */
  readonly pluginProviders?: (tenant: string) => Promise<readonly PluginProvider[]>;
  /** Retries and timeouts for every provider, under what the tenant set per provider. */
  readonly policy?: Partial<CallPolicy>;
  readonly fetch?: typeof globalThis.fetch;
}

/** Resolves a model choice to a model the loop can call. */
export type ModelResolver = (choice: ModelChoice, context: ModelContext) => Promise<LanguageModel>;

/**
 * The model resolver over the built-in providers and `sources`.
 * @example const model = await modelResolver()({ use: "test" }, context);
 */
export function modelResolver(sources: ModelSources = {}): ModelResolver {
  return async (choice, context) => {
    const target = await providerAndModel(choice.use, context);
    const notices: string[] = [];
    if (target.fallback) {
      notices.push(
        `model alias ${DEFAULT_MODEL_ALIAS} is not set in tenant ${context.tenant}, so this job runs on the offline ` +
          `test model; oz0 model set ${DEFAULT_MODEL_ALIAS} <provider>:<model> chooses a real one`,
      );
    }
    const model = await buildModel(target, choice, context, sources);
    let price = await priceOf(context, target.provider, target.model);
    if (price === undefined && target.provider === TEST_PROVIDER) price = { input: 0, output: 0 };
    if (price === undefined) {
      notices.push(
        `no price is set for ${target.text}, so its calls' cost is not recorded; ` +
          `oz0 model price ${target.text} --input USD_PER_MTOK --output USD_PER_MTOK sets one`,
      );
    }
    return metered(model, { price, notices });
  };
}

interface Target {
  readonly provider: string;
  readonly model: string;
  /** The whole `provider:model` text. */
  readonly text: string;
  /** The alias it was reached through. */
  readonly via?: string;
  /** The default alias, unset, fell back to the test provider. */
  readonly fallback?: boolean;
  /** The options set for the alias. */
  readonly aliasOptions?: AliasOptions | undefined;
}

async function providerAndModel(use: string, context: ModelContext): Promise<Target> {
  const found = targetOf(use, namesAlias(use) ? await context.setting(modelSettingKey(use)) : undefined);
  if (found !== undefined) return found;
  throw new Oz0Error(
    "MODEL_NOT_CONFIGURED",
    `model alias '${use}' is not set in tenant ${context.tenant}: map it with oz0 model set ${use} <provider>:<model>, ` +
      "or choose the default alias (model: { use: default }).",
    { data: { alias: use } },
  );
}

/** Whether `use` is an alias, which a tenant's setting maps, rather than `provider:model` or `test`. */
function namesAlias(use: string): boolean {
  return splitProvider(use) === undefined && use !== TEST_PROVIDER;
}

/**
 * What `use` names: `provider:model` or `test` as written, else what the alias's stored setting
 * maps it to (the default alias, unset, falling back to the test provider); `undefined` for
 * another alias not set.
 */
function targetOf(use: string, stored: unknown): Target | undefined {
  const direct = splitProvider(use);
  if (direct !== undefined) return direct;
  if (use === TEST_PROVIDER) return { provider: TEST_PROVIDER, model: "auto", text: use };
  const alias = readAlias(stored);
  if (alias !== undefined) {
    const aliasOptions = alias.options;
    const mapped = splitProvider(alias.model);
    if (mapped !== undefined) return { ...mapped, via: use, aliasOptions };
    if (alias.model === TEST_PROVIDER) {
      return { provider: TEST_PROVIDER, model: "auto", text: alias.model, via: use, aliasOptions };
    }
  }
  if (use === DEFAULT_MODEL_ALIAS) {
    return { provider: TEST_PROVIDER, model: "auto", text: TEST_PROVIDER, via: use, fallback: true };
  }
  return undefined;
}

/** Where a model choice leads by a tenant's settings: the provider that would serve it, and its type. */
export interface ModelRoute {
  /** `provider:model`. */
  readonly model: string;
  readonly provider: string;
  /** A built-in provider type, `test`, or undefined for a plugin's provider or a name not configured. */
  readonly type: ProviderType | typeof TEST_PROVIDER | undefined;
  /** The alias it was reached through. */
  readonly via?: string | undefined;
  /** The default alias is not set, so the offline test model would serve it. */
  readonly fallback?: boolean | undefined;
}

/**
 * The route of model choice `use` by the settings `setting` reads (a tenant's `model.<alias>`
 * and `provider.<name>`), without building anything; `undefined` for an alias not set other
 * than `default`. Lint reads it with no settings, so only `provider:model` and `test` decide there.
 * @example routeOf("openai:gpt-4.1", () => undefined) // { model: "openai:gpt-4.1", provider: "openai", type: "openai" }
 */
export function routeOf(use: string, setting: (key: string) => unknown): ModelRoute | undefined {
  const target = targetOf(use, namesAlias(use) ? setting(modelSettingKey(use)) : undefined);
  if (target === undefined) return undefined;
  const name = target.provider;
  const config = setting(`${SETTING_PREFIX.provider}${name}`) as ProviderConfig | undefined;
  const type =
    name === TEST_PROVIDER ? TEST_PROVIDER : (config?.type ?? (isProviderType(name) ? name : undefined));
  return { model: target.text, provider: name, type, via: target.via, fallback: target.fallback };
}

/** `openai:gpt-4.1` → provider `openai`, model `gpt-4.1`; a model may hold colons (`ollama:qwen2.5:7b`). */
export function splitProvider(text: string): Target | undefined {
  const at = text.indexOf(":");
  if (at <= 0) return undefined;
  return { provider: text.slice(0, at), model: text.slice(at + 1), text };
}

async function buildModel(
  target: Target,
  choice: ModelChoice,
  context: ModelContext,
  sources: ModelSources,
): Promise<LanguageModel> {
  const name = target.provider;
  const factory = sources.providers?.get(name);
  if (factory !== undefined) {
    // A factory gets the alias's and the agent's request options merged, as the choice's.
    const merged = optionsOf("plugin", target, choice, undefined);
    if (!merged.stream) {
      throw new Oz0Error(
        "MODEL_NOT_CONFIGURED",
        `model ${target.text}: provider ${name} is built by the embedder's factory, which decides how it calls; remove --no-stream from alias ${target.via ?? target.text}.`,
        { data: { alias: target.via ?? target.text, provider: name, option: "stream" } },
      );
    }
    return factory(target.model, { ...choice, options: merged.request }, context);
  }
  if (name === TEST_PROVIDER) {
    optionsOf("test", target, choice, undefined);
    return testProvider(choice, context);
  }
  const config = (await context.setting(`${SETTING_PREFIX.provider}${name}`)) as ProviderConfig | undefined;
  const type = config?.type ?? (isProviderType(name) ? name : undefined);
  if (type !== undefined) return builtinModel(type, target, choice, config, context, sources);
  const plugins = (await sources.pluginProviders?.(context.tenant)) ?? [];
  const matches = plugins.filter((entry) => entry.spec.name === name);
  if (matches.length === 1) return pluginModel(matches[0]!, target, choice, config, context, sources);
  if (matches.length > 1) {
    const owners = matches.map((entry) => entry.pluginId).join(" and ");
    throw new Oz0Error(
      "MODEL_NOT_CONFIGURED",
      `plugins ${owners} each register a model provider named ${name}, so neither is used. Remove one of the plugins, ` +
        `or map ${target.via ?? "the alias"} to another provider with oz0 model set.`,
      { data: { alias: target.via ?? target.text, provider: name } },
    );
  }
  const known = [TEST_PROVIDER, ...PROVIDER_TYPES, ...plugins.map((entry) => entry.spec.name)].join(", ");
  throw new Oz0Error(
    "MODEL_NOT_CONFIGURED",
    `model ${target.text}${target.via === undefined ? "" : ` (alias ${target.via})`} names provider ` +
      `'${name}', which this oz0 does not have (it has: ${known}). Install a plugin that provides it, configure it ` +
      `with oz0 provider set ${name} --type <type> --base-url <url>, or map the alias to another model with ` +
      `oz0 model set ${target.via ?? "<alias>"} <provider>:<model>.`,
    { data: { alias: target.via ?? target.text, provider: name } },
  );
}

/** The provider types OpenTelemetry's `gen_ai.provider.name` registry has a name for. */
const REGISTRY_NAMES: Partial<Record<ProviderType, string>> = {
  openai: "openai",
  "openai-chat": "openai",
  anthropic: "anthropic",
};

async function builtinModel(
  type: ProviderType,
  target: Target,
  choice: ModelChoice,
  own: ProviderConfig | undefined,
  context: ModelContext,
  sources: ModelSources,
): Promise<LanguageModel> {
  const kind = BUILTIN_PROVIDERS[type];
  const name = target.provider;
  // openai-chat is OpenAI's other API: it shares openai's settings unless it has its own.
  const configName = own === undefined && name === "openai-chat" ? "openai" : name;
  const config =
    own ??
    (configName === name
      ? undefined
      : ((await context.setting(`${SETTING_PREFIX.provider}${configName}`)) as ProviderConfig | undefined));
  // The standard variables configure the built-in names only: a key for OpenAI is never sent
  // to a server the tenant named otherwise.
  const env = sources.env ?? process.env;
  const standard = isProviderType(name) ? kind.env : undefined;
  const baseUrl = config?.baseUrl ?? nonEmpty(standard && env[standard.baseUrl]) ?? kind.defaultUrl;
  const apiKey = await keyOf(configName, config, context, sources, standard?.apiKey);
  if (apiKey === undefined && (kind.keyRequired || keyConfigured(config))) {
    throw noKey(name, target, config, standard?.apiKey);
  }
  if (baseUrl === undefined) {
    throw new Oz0Error(
      "MODEL_NOT_CONFIGURED",
      `provider ${name} (${kind.displayName}) has no base URL in tenant ${context.tenant}: set one with ` +
        `oz0 provider set ${name} --base-url http://localhost:11434/v1${standard === undefined ? "" : ` (or ${standard.baseUrl})`}.`,
      { data: { alias: target.via ?? target.text, provider: name } },
    );
  }
  const options = optionsOf(type, target, choice, config);
  const endpoint: Endpoint = {
    name,
    baseUrl,
    apiKey,
    fetch: sources.fetch,
    structuredOutputs: options.structuredOutput === "json_schema",
  };
  const { providerOptions: extra, ...settings } = callSettings(type, options.request);
  return aiSdkModel({
    id: target.text,
    model: await kind.build(endpoint, target.model),
    nameLimit: kind.nameLimit,
    policy: policyOf(config, sources),
    secrets: apiKey === undefined ? [] : [apiKey],
    providerOptions: mergeProviderOptions(kind.providerOptions, extra),
    keyHelp: keyHelp(configName, config, standard?.apiKey),
    settings,
    requestSettings: (own) =>
      callSettings(type, mergeOptions(type, target.text, { agentOptions: own }).request),
    optionsFrom: options.from,
    stream: options.stream,
    structuredOutput: options.structuredOutput,
    mediaParts: kind.mediaParts,
    wrapsErrors: kind.wrapsErrors,
    provider: { name: REGISTRY_NAMES[type] ?? name, url: baseUrl },
  });
}

async function pluginModel(
  found: PluginProvider,
  target: Target,
  choice: ModelChoice,
  config: ProviderConfig | undefined,
  context: ModelContext,
  sources: ModelSources,
): Promise<LanguageModel> {
  const name = target.provider;
  const options = optionsOf("plugin", target, choice, config);
  const apiKey = await keyOf(name, config, context, sources, undefined);
  if (apiKey === undefined && keyConfigured(config)) throw noKey(name, target, config, undefined);
  const baseUrl = config?.baseUrl ?? found.spec.meta.defaultUrl;
  const ctx: ProviderContext = {
    pluginId: found.pluginId,
    config: { ...found.config, ...(baseUrl === undefined ? {} : { baseUrl }) },
    // A provider has one key, the one set for it with oz0 provider set, whatever it calls it.
    secret: async () => apiKey,
  };
  const secrets = apiKey === undefined ? [] : [apiKey];
  let model: unknown;
  try {
    model = (await found.spec.build(ctx)).languageModel(target.model);
  } catch (error) {
    throw new Oz0Error(
      "MODEL_NOT_CONFIGURED",
      redactorOf(secrets).text(
        `provider ${name} of plugin ${found.pluginId} could not build model ${target.model}: ${error instanceof Error ? error.message : String(error)}`,
      ),
      { data: { alias: target.via ?? target.text, provider: name } },
    );
  }
  return aiSdkModel({
    id: target.text,
    model: await asV4(model, found, target),
    // A plugin's wire format is unknown here, so the strictest limit holds.
    nameLimit: MODEL_NAME_LIMIT,
    policy: policyOf(config, sources),
    secrets,
    keyHelp: keyHelp(name, config, undefined),
    settings: callSettings("plugin", options.request),
    requestSettings: (own) =>
      callSettings("plugin", mergeOptions("plugin", name, { agentOptions: own }).request),
    optionsFrom: options.from,
    stream: options.stream,
    provider: { name },
  });
}

/** The alias's, the provider's and the agent's options, merged and checked for the provider. */
function optionsOf(
  kind: ProviderKind,
  target: Target,
  choice: ModelChoice,
  config: ProviderConfig | undefined,
): MergedOptions {
  return mergeOptions(kind, target.text, {
    alias: target.via,
    aliasOptions: target.aliasOptions,
    agentOptions: choice.options,
    provider: {
      ...(config?.stream === undefined ? {} : { stream: config.stream }),
      ...(config?.structuredOutput === undefined ? {} : { structured_output: config.structuredOutput }),
    },
  });
}

/** A provider's fixed options with the request's, namespace by namespace. */
function mergeProviderOptions(
  fixed: SharedV4ProviderOptions,
  extra: SharedV4ProviderOptions | undefined,
): SharedV4ProviderOptions {
  if (extra === undefined) return fixed;
  const merged: Record<string, SharedV4ProviderOptions[string]> = { ...fixed };
  for (const [namespace, values] of Object.entries(extra))
    merged[namespace] = { ...merged[namespace], ...values };
  return merged;
}

/** An AI SDK language model of any specification version, as version 4. */
async function asV4(model: unknown, found: PluginProvider, target: Target): Promise<LanguageModelV4> {
  const version = (model as { specificationVersion?: unknown } | null)?.specificationVersion;
  if (version === "v4") return model as LanguageModelV4;
  if (version === "v3" || version === "v2") {
    // The AI SDK's own adapter from older provider specifications.
    const { resolveLanguageModel } = await import("ai/internal");
    return resolveLanguageModel(model as Parameters<typeof resolveLanguageModel>[0]);
  }
  throw new Oz0Error(
    "INVALID_PLUGIN",
    `provider ${found.spec.name} of plugin ${found.pluginId} returned something that is not an AI SDK language ` +
      `model for ${target.model} (specificationVersion ${JSON.stringify(version)}); languageModel(id) must return a ` +
      "LanguageModelV2, V3 or V4, as the @ai-sdk/* provider packages do.",
    { data: { plugin: found.pluginId, detail: "provider built no language model" } },
  );
}

async function keyOf(
  configName: string,
  config: ProviderConfig | undefined,
  context: ModelContext,
  sources: ModelSources,
  standardEnv: string | undefined,
): Promise<string | undefined> {
  const env = sources.env ?? process.env;
  if (config?.apiKeyStored === true && sources.secret !== undefined) {
    const stored = await sources.secret(context.tenant, providerKeySecret(configName));
    if (stored !== undefined) return stored;
  }
  if (config?.apiKeyEnv !== undefined) return nonEmpty(env[config.apiKeyEnv]);
  return standardEnv === undefined ? undefined : nonEmpty(env[standardEnv]);
}

/** The operator said where the key comes from: it missing is a fault, even for a server that needs none. */
function keyConfigured(config: ProviderConfig | undefined): boolean {
  return config?.apiKeyEnv !== undefined || config?.apiKeyStored === true;
}

function noKey(
  name: string,
  target: Target,
  config: ProviderConfig | undefined,
  standardEnv: string | undefined,
): Oz0Error {
  const where =
    config?.apiKeyEnv !== undefined
      ? `its key is read from ${config.apiKeyEnv}, which is not set in this process`
      : config?.apiKeyStored === true
        ? "its stored key cannot be read here"
        : "it has no API key";
  return new Oz0Error(
    "MODEL_NOT_CONFIGURED",
    `model ${target.text}: provider ${name} cannot be called: ${where}. ${capitalize(keyHelp(name, config, standardEnv))}.`,
    { data: { alias: target.via ?? target.text, provider: name } },
  );
}

function keyHelp(name: string, config: ProviderConfig | undefined, standardEnv: string | undefined): string {
  const env = config?.apiKeyEnv ?? standardEnv;
  return `store a key with oz0 provider set ${name} --api-key-stdin${env === undefined ? "" : `, or set ${env}`}`;
}

function policyOf(config: ProviderConfig | undefined, sources: ModelSources): CallPolicy {
  return {
    ...CALL_POLICY_DEFAULTS,
    ...sources.policy,
    ...(config?.timeoutSeconds === undefined ? {} : { timeoutMs: config.timeoutSeconds * 1000 }),
    ...(config?.retries === undefined ? {} : { retries: config.retries }),
  };
}

/** The price of `provider:model`, else the provider's `provider:*` price. */
async function priceOf(context: ModelContext, provider: string, model: string): Promise<Price | undefined> {
  const exact = await context.setting(`${SETTING_PREFIX.price}${provider}:${model}`);
  if (exact !== undefined) return exact as Price;
  return (await context.setting(`${SETTING_PREFIX.price}${provider}:*`)) as Price | undefined;
}

async function testProvider(choice: ModelChoice, context: ModelContext): Promise<LanguageModel> {
  if (choice.script === undefined) return testModel();
  const text = await readInPlugin(context.pluginDir, choice.script, {
    where: { file: choice.script, field: "model.script" },
    maxBytes: YAML_LIMITS.maxBytes,
  });
  return testModel({ script: keptTestScript(text, choice.script) });
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === "" ? undefined : trimmed;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
