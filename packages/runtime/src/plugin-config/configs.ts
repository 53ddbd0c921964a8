// A plugin's configuration in a tenant: its admin specs' defaults, overlaid by what an
// operator set (`oz0 plugin config`), checked against the admin spec's schema and validate()
// before it is stored, and shown only through its redact(). Tools, hooks and providers read it.
import { type AdminIssue, Oz0Error, type PluginConfig } from "@oz0/sdk";
import { TenantSettings } from "../models/settings.js";
import type { LoadedPlugin } from "../plugin-dir/index.js";
import type { Store } from "../store/index.js";
import { argumentIssues, formatIssues } from "../tools/validate.js";

/** The tenant setting that holds a plugin's config (a JSON object) over its admin defaults. */
export function pluginConfigKey(plugin: string): string {
  return `plugin.${plugin}.config`;
}

type WithCode = Pick<LoadedPlugin, "code">;

/** The defaults of the plugin's admin specs, merged in registration order. */
export function adminDefaults(plugin: WithCode): Record<string, unknown> {
  const config: Record<string, unknown> = {};
  for (const registration of plugin.code?.registrations("admin") ?? []) {
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
}

export class PluginConfigs {
  readonly #settings: TenantSettings;
  readonly #load: (tenant: string, plugin: string) => Promise<LoadedPlugin>;

  constructor(store: Store, load: (tenant: string, plugin: string) => Promise<LoadedPlugin>) {
    this.#settings = new TenantSettings(store.db, store.clockSql);
    this.#load = load;
  }

  /** The config `plugin` runs with in `tenant`, unredacted: for the plugin's own code. */
  async effective(tenant: string, plugin: string, loaded?: LoadedPlugin): Promise<PluginConfig> {
    const set = await this.#settings.get<unknown>(tenant, pluginConfigKey(plugin));
    return effectiveConfig(loaded ?? (await this.#load(tenant, plugin)), set);
  }

  async show(tenant: string, plugin: string): Promise<PluginConfigView> {
    const loaded = await this.#load(tenant, plugin);
    const set = await this.#settings.get<unknown>(tenant, pluginConfigKey(plugin));
    return { plugin, config: redact(loaded, effectiveConfig(loaded, set)), set: set !== undefined };
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
    const admins = loaded.code?.registrations("admin") ?? [];
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
    await this.#settings.put(tenant, pluginConfigKey(plugin), config);
    return { plugin, config: redact(loaded, merged), set: true };
  }

  /** Goes back to the defaults; whether anything was set. */
  async unset(tenant: string, plugin: string): Promise<boolean> {
    await this.#load(tenant, plugin);
    return this.#settings.delete(tenant, pluginConfigKey(plugin));
  }
}

function redact(plugin: WithCode, config: PluginConfig): PluginConfig {
  let shown = config;
  for (const { spec } of plugin.code?.registrations("admin") ?? []) {
    if (spec.redact !== undefined) shown = spec.redact(shown);
  }
  return shown;
}

function describeIssue(issue: AdminIssue): string {
  return issue.path === "" ? issue.message : `${issue.path}: ${issue.message}`;
}

function invalidConfig(plugin: string, problems: readonly string[]): Oz0Error {
  return new Oz0Error(
    "INVALID_INPUT",
    `the config of ${plugin} was not stored:\n${problems.map((problem) => `  - ${problem}`).join("\n")}`,
    { data: { issues: problems.map((message) => ({ path: "", message })) } },
  );
}
