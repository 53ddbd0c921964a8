// A plugin's configuration in a tenant: its admin specs' defaults, overlaid by what an
// operator set (`oz0 plugin config`), checked against the admin spec's schema and validate()
// before it is stored, and shown only through its redact(). Tools, hooks and providers read it.
// What redact() masks, and every string its schema marks `writeOnly`, is secret and stored
// encrypted, as model keys are (secrets.ts).
import { type AdminIssue, Oz0Error, type PluginConfig } from "@oz0/sdk";
import { SecretStore, secretKey, TenantSettings } from "../models/index.js";
import type { LoadedPlugin } from "../plugin-dir/index.js";
import { argumentIssues, formatIssues } from "../schemas/index.js";
import type { Store } from "../store/index.js";
import { replaceAt, secretsOf, valueAt } from "./secrets.js";

/**
 * The tenant setting that holds a plugin's config (a JSON object) over its admin defaults, with
 * null in place of each secret.
 */
export function pluginConfigKey(plugin: string): string {
  return `plugin.${plugin}.config`;
}

/** The name, in the tenant's secret store, of the config secret at `pointer`: `plugin.<name>.config#/token`. */
function secretName(plugin: string, pointer: string): string {
  return `${pluginConfigKey(plugin)}#${pointer}`;
}

type WithCode = Pick<LoadedPlugin, "code">;

/**
 * The plugin's admin registrations it has not disabled: only these give defaults, a schema,
 * validation and status. redact() is applied for every one, disabled or not, so that disabling
 * an admin spec never shows a secret it masks.
 */
export function enabledAdmins(plugin: WithCode) {
  return (plugin.code?.registrations("admin") ?? []).filter((registration) => registration.enabled);
}

/** The defaults of the plugin's enabled admin specs, merged in registration order. */
export function adminDefaults(plugin: WithCode): Record<string, unknown> {
  const config: Record<string, unknown> = {};
  for (const registration of enabledAdmins(plugin)) {
    Object.assign(config, registration.spec.defaultConfig);
  }
  return config;
}

/** The config a plugin runs with: defaults, overlaid by `set` when it is an object. */
export function effectiveConfig(plugin: WithCode, set: unknown): PluginConfig {
  const overlay = typeof set === "object" && set !== null && !Array.isArray(set) ? set : {};
  return { ...adminDefaults(plugin), ...overlay };
}

export interface PluginConfigView {
  readonly plugin: string;
  /** The config the plugin runs with, through its admin spec's redact(). */
  readonly config: PluginConfig;
  /** Whether an operator set anything over the defaults. */
  readonly set: boolean;
  /**
   * The JSON Schema of the config, from the plugin's admin spec (the properties of each, when it
   * registers several), which the console draws its form from; null when no admin spec has one.
   */
  readonly schema: Readonly<Record<string, unknown>> | null;
}

/** The schema of a plugin's config: its one admin spec's, or the properties of several merged. */
export function adminSchema(plugin: WithCode): Readonly<Record<string, unknown>> | null {
  const schemas = enabledAdmins(plugin)
    .map((registration) => registration.spec.schema)
    .filter((schema) => schema !== undefined);
  if (schemas.length === 0) return null;
  if (schemas.length === 1) return schemas[0]!;
  const properties: Record<string, unknown> = {};
  for (const schema of schemas) Object.assign(properties, schema.properties);
  return { type: "object", properties };
}

export class PluginConfigs {
  readonly #store: Store;
  readonly #settings: TenantSettings;
  readonly #vault: SecretStore;
  readonly #load: (tenant: string, plugin: string) => Promise<LoadedPlugin>;

  /** `home` holds the encryption key when OZ0_SECRET_KEY is not set. */
  constructor(store: Store, home: string, load: (tenant: string, plugin: string) => Promise<LoadedPlugin>) {
    this.#store = store;
    this.#settings = new TenantSettings(store.db, store.clockSql);
    this.#vault = new SecretStore({ settings: this.#settings, home });
    this.#load = load;
  }

  /** The config `plugin` runs with in `tenant`, unredacted: for the plugin's own code. */
  async effective(tenant: string, plugin: string, loaded?: LoadedPlugin): Promise<PluginConfig> {
    const code = loaded ?? (await this.#load(tenant, plugin));
    return effectiveConfig(code, await this.#stored(tenant, plugin, code));
  }

  async show(tenant: string, plugin: string): Promise<PluginConfigView> {
    const loaded = await this.#load(tenant, plugin);
    const set = await this.#stored(tenant, plugin, loaded);
    return {
      plugin,
      config: redact(loaded, effectiveConfig(loaded, set)),
      set: set !== undefined,
      schema: adminSchema(loaded),
    };
  }

  /**
   * Stores `config` over the defaults after the admin spec's schema and validate() accept the
   * result; refused with every problem otherwise, and nothing is stored.
   */
  async set(tenant: string, plugin: string, config: unknown): Promise<PluginConfigView> {
    const loaded = await this.#load(tenant, plugin);
    if (typeof config !== "object" || config === null || Array.isArray(config)) {
      throw invalidConfig(plugin, ['the config is a JSON object, such as {"limit": 10}']);
    }
    const admins = enabledAdmins(loaded);
    if (admins.length === 0) {
      throw invalidConfig(plugin, [`${plugin} registers no admin spec, so it takes no config`]);
    }
    const merged = effectiveConfig(loaded, config);
    const problems: string[] = [];
    for (const { spec } of admins) {
      if (spec.schema !== undefined) {
        const issues = argumentIssues(spec.schema, merged);
        if (issues.length > 0) problems.push(formatIssues(issues));
      }
      for (const issue of (await spec.validate?.(merged)) ?? []) {
        problems.push(describeIssue(issue));
      }
    }
    if (problems.length > 0) throw invalidConfig(plugin, problems);
    const shown = await this.#put(tenant, plugin, loaded, config);
    return { plugin, config: shown, set: true, schema: adminSchema(loaded) };
  }

  /** Goes back to the defaults; whether anything was set. */
  async unset(tenant: string, plugin: string): Promise<boolean> {
    await this.#load(tenant, plugin);
    return this.#store.transaction(async (trx) => {
      const settings = new TenantSettings(trx, this.#store.clockSql);
      for (const [name] of await settings.list(tenant, secretKey(secretName(plugin, "")))) {
        await settings.delete(tenant, secretKey(secretName(plugin, name)));
      }
      return settings.delete(tenant, pluginConfigKey(plugin));
    });
  }

  /**
   * What an operator set, its secrets decrypted; undefined when nothing is. A secret still in
   * clear (stored before config secrets were encrypted, or a field redact() masks since the
   * plugin's update) is encrypted now.
   */
  async #stored(tenant: string, plugin: string, loaded: WithCode): Promise<unknown> {
    const row = await this.#settings.get<unknown>(tenant, pluginConfigKey(plugin));
    if (row === undefined) return undefined;
    const sealed = new Map(await this.#settings.list<unknown>(tenant, secretKey(secretName(plugin, ""))));
    const opened = new Map<string, string>();
    for (const [pointer, value] of sealed) {
      opened.set(
        pointer,
        await this.#vault.unseal(tenant, secretName(plugin, pointer), value, (why) =>
          unreadable(tenant, plugin, pointer, why),
        ),
      );
    }
    const set = replaceAt(row, [...opened.keys()], (pointer) => opened.get(pointer));
    const clear = secretsOf(set, redact(loaded, effectiveConfig(loaded, set))).some(
      (secret) => valueAt(row, secret.pointer) !== null,
    );
    if (clear) await this.#put(tenant, plugin, loaded, set);
    return set;
  }

  /** Stores `config` with each secret encrypted, in one transaction; what it shows through redact(). */
  async #put(tenant: string, plugin: string, loaded: WithCode, config: unknown): Promise<PluginConfig> {
    const shown = redact(loaded, effectiveConfig(loaded, config));
    const secrets = secretsOf(config, shown);
    const sealed = await Promise.all(
      secrets.map(async (secret) => ({
        name: secretName(plugin, secret.pointer),
        value: await this.#vault.seal(tenant, secretName(plugin, secret.pointer), secret.value),
      })),
    );
    const clear = replaceAt(
      config,
      secrets.map((secret) => secret.pointer),
      () => null,
    );
    await this.#store.transaction(async (trx) => {
      const settings = new TenantSettings(trx, this.#store.clockSql);
      for (const [name] of await settings.list(tenant, secretKey(secretName(plugin, "")))) {
        await settings.delete(tenant, secretKey(secretName(plugin, name)));
      }
      for (const one of sealed) await settings.put(tenant, secretKey(one.name), one.value);
      await settings.put(tenant, pluginConfigKey(plugin), clear);
    });
    return shown;
  }
}

/** What a schema-marked secret (`writeOnly: true`) shows as. */
export const SECRET_MASK = "[secret]";

/**
 * The config through each admin spec's redact(), and with each string a schema marks secret
 * (`writeOnly: true`, JSON Schema's word for a value that is never read back) masked.
 */
function redact(plugin: WithCode, config: PluginConfig): PluginConfig {
  let shown = config;
  for (const { spec } of plugin.code?.registrations("admin") ?? []) {
    if (spec.redact !== undefined) shown = spec.redact(shown);
  }
  for (const { spec } of plugin.code?.registrations("admin") ?? []) {
    if (spec.schema !== undefined) shown = maskWriteOnly(spec.schema, shown) as PluginConfig;
  }
  return shown;
}

/** `value` with each non-empty string under a `writeOnly: true` schema masked; objects and lists walked. */
function maskWriteOnly(schema: unknown, value: unknown): unknown {
  if (typeof schema !== "object" || schema === null) return value;
  const rule = schema as { writeOnly?: unknown; properties?: unknown; items?: unknown };
  if (rule.writeOnly === true && typeof value === "string" && value !== "") return SECRET_MASK;
  if (Array.isArray(value) && typeof rule.items === "object" && rule.items !== null) {
    return value.map((item) => maskWriteOnly(rule.items, item));
  }
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    const properties = rule.properties;
    if (typeof properties !== "object" || properties === null) return value;
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [
        key,
        Object.hasOwn(properties, key)
          ? maskWriteOnly((properties as Record<string, unknown>)[key], item)
          : item,
      ]),
    );
  }
  return value;
}

function describeIssue(issue: AdminIssue): string {
  return issue.path === "" ? issue.message : `${issue.path}: ${issue.message}`;
}

function unreadable(tenant: string, plugin: string, pointer: string, why: string): Oz0Error {
  return new Oz0Error(
    "INTERNAL",
    `the config secret ${pointer} of ${plugin} in tenant ${tenant} cannot be read here: ${why}. Set ` +
      "OZ0_SECRET_KEY to the same value in every oz0 process that shares this database, or set the config " +
      `again (oz0 plugin config ${plugin} --set JSON).`,
    { data: { cause: why } },
  );
}

function invalidConfig(plugin: string, problems: readonly string[]): Oz0Error {
  return new Oz0Error(
    "INVALID_INPUT",
    `the config of ${plugin} was not stored:\n${problems.map((problem) => `  - ${problem}`).join("\n")}`,
    { data: { issues: problems.map((message) => ({ path: "", message })) } },
  );
}
