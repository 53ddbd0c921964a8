// Which model an agent runs on: its `model: { use }` (or its plugin's), read as a tenant's
// alias (`default`, `fast`, …, set with `oz0 model set`) or as `provider:model`. The alias
// `default` falls back to the offline test provider when the tenant set nothing, so the
// embedded runtime runs every agent without a key or a network.
import { readFile } from "node:fs/promises";
import { Oz0Error } from "@oz0/sdk";
import { resolveInPlugin } from "../plugin-dir/index.js";
import { parseTestScript, TEST_PROVIDER, testModel } from "./test-provider.js";
import type { LanguageModel } from "./types.js";

/** `model:` of an agent or plugin. */
export interface ModelChoice {
  readonly use: string;
  /** A test provider script, a path in the plugin. */
  readonly script?: string | undefined;
}

/** The alias used when neither the agent nor its plugin chooses a model. */
export const DEFAULT_MODEL_ALIAS = "default";

/** The tenant setting that maps an alias to `provider:model`. */
export function modelSettingKey(alias: string): string {
  return `model.${alias}`;
}

export interface ModelContext {
  readonly tenant: string;
  /** The folder of the plugin whose agent runs: a script is a path in it. */
  readonly pluginDir: string;
  /** A tenant setting's value, `undefined` when it is not set. */
  readonly setting: (key: string) => Promise<string | undefined>;
}

/** Builds a model of one provider; `model` is what follows `provider:`. */
export type ProviderFactory = (
  model: string,
  choice: ModelChoice,
  context: ModelContext,
) => Promise<LanguageModel>;

/** The providers this oz0 knows by ID; the test provider is always there. */
export const BUILTIN_PROVIDERS: ReadonlyMap<string, ProviderFactory> = new Map([
  [TEST_PROVIDER, testProvider],
]);

/** Resolves a model choice to a model the loop can call. */
export type ModelResolver = (choice: ModelChoice, context: ModelContext) => Promise<LanguageModel>;

/**
 * The model resolver over a set of providers.
 * @example const model = await modelResolver()({ use: "test" }, context);
 */
export function modelResolver(
  providers: ReadonlyMap<string, ProviderFactory> = BUILTIN_PROVIDERS,
): ModelResolver {
  return async (choice, context) => {
    const target = await providerAndModel(choice.use, context);
    const factory = providers.get(target.provider);
    if (factory === undefined) {
      const known = [...providers.keys()].join(", ");
      throw new Oz0Error(
        "MODEL_NOT_CONFIGURED",
        `model ${target.text}${target.via === undefined ? "" : ` (alias ${target.via})`} names provider ` +
          `'${target.provider}', which this oz0 does not have (it has: ${known}). Install a plugin that ` +
          `provides it, or map the alias to another model with oz0 model set ${target.via ?? "<alias>"} <provider>:<model>.`,
        { data: { alias: target.via ?? choice.use, provider: target.provider } },
      );
    }
    return factory(target.model, choice, context);
  };
}

interface Target {
  readonly provider: string;
  readonly model: string;
  /** The whole `provider:model` text. */
  readonly text: string;
  /** The alias it was reached through. */
  readonly via?: string;
}

async function providerAndModel(use: string, context: ModelContext): Promise<Target> {
  const direct = splitProvider(use);
  if (direct !== undefined) return direct;
  if (use === TEST_PROVIDER) return { provider: TEST_PROVIDER, model: "auto", text: use };
  const stored = await context.setting(modelSettingKey(use));
  if (stored !== undefined) {
    const mapped = splitProvider(stored);
    if (mapped !== undefined) return { ...mapped, via: use };
    if (stored === TEST_PROVIDER) return { provider: TEST_PROVIDER, model: "auto", text: stored, via: use };
  }
  if (use === DEFAULT_MODEL_ALIAS)
    return { provider: TEST_PROVIDER, model: "auto", text: TEST_PROVIDER, via: use };
  throw new Oz0Error(
    "MODEL_NOT_CONFIGURED",
    `model alias '${use}' is not set in tenant ${context.tenant}: map it with oz0 model set ${use} <provider>:<model>, ` +
      "or choose the default alias (model: { use: default }).",
    { data: { alias: use } },
  );
}

function splitProvider(text: string): Target | undefined {
  const at = text.indexOf(":");
  if (at <= 0) return undefined;
  return { provider: text.slice(0, at), model: text.slice(at + 1), text };
}

async function testProvider(
  _model: string,
  choice: ModelChoice,
  context: ModelContext,
): Promise<LanguageModel> {
  if (choice.script === undefined) return testModel();
  const path = await resolveInPlugin(context.pluginDir, choice.script, {
    file: choice.script,
    field: "model.script",
  });
  return testModel({ script: parseTestScript(await readFile(path, "utf8"), choice.script) });
}
