// The governance plugin: the spec's budget and rate limit as governance contracts on the hook
// bus, configured per tenant. Each check registers its handlers only when its config sets a
// ceiling or a limit, so an unconfigured tenant sees no governance events at all; a config
// that does not parse refuses every model call until it is fixed, rather than letting calls
// through unchecked.
import {
  definePlugin,
  type HookHandlers,
  type JsonSchemaObject,
  type PluginObject,
  PolicyViolation,
} from "@oz0/sdk";
import { z } from "zod";
import { BudgetGovernance } from "./budget.js";
import { configIssues, configSchema, DEFAULT_CONFIG, type GovernanceConfig, readConfig } from "./config.js";
import { RateLimitGovernance } from "./rate-limit.js";

export interface GovernancePluginOptions {
  /** The clock budgets and rate limits read; `Date.now` when left out. */
  readonly now?: () => number;
}

/**
 * The governance plugin object; the package's default export is `createGovernancePlugin()`.
 * @example const host = await loadPluginForTest(createGovernancePlugin({ now: () => 0 }), { pluginId: "governance" });
 */
export function createGovernancePlugin(options: GovernancePluginOptions = {}): PluginObject {
  return definePlugin({
    setup(host) {
      host.addAdmin({
        name: "config",
        defaultConfig: DEFAULT_CONFIG,
        schema: z.toJSONSchema(configSchema) as JsonSchemaObject,
        validate: (config) => configIssues(config),
      });
      host.addHook({
        name: "budget",
        build: (ctx) => configured(ctx.config, "budget", (config) => budgetHandlers(config, options)),
      });
      host.addHook({
        name: "rate_limit",
        build: (ctx) => configured(ctx.config, "rate_limit", (config) => rateLimitHandlers(config, options)),
      });
    },
  });
}

function budgetHandlers(config: GovernanceConfig, options: GovernancePluginOptions): HookHandlers {
  const budget = new BudgetGovernance(config.budget, options);
  return budget.active ? { pre_llm_call: (payload) => budget.on_pre_llm_call(payload) } : {};
}

function rateLimitHandlers(config: GovernanceConfig, options: GovernancePluginOptions): HookHandlers {
  const { calls_per_minute: calls, tool_calls_per_minute: toolCalls } = config.rate_limit;
  const limit = new RateLimitGovernance({
    ...(calls === undefined ? {} : { maxCallsPerMinute: calls }),
    ...(toolCalls === undefined ? {} : { maxToolCallsPerMinute: toolCalls }),
    ...(options.now === undefined ? {} : { now: options.now }),
  });
  return {
    ...(calls === undefined ? {} : { pre_llm_call: (payload) => limit.on_pre_llm_call(payload) }),
    ...(toolCalls === undefined ? {} : { pre_tool_call: (payload) => limit.on_pre_tool_call(payload) }),
  };
}

/** The handlers a valid config calls for; with an invalid one, a handler refusing every model call. */
function configured(
  config: unknown,
  contractId: string,
  handlers: (config: GovernanceConfig) => HookHandlers,
): HookHandlers {
  let read: GovernanceConfig;
  try {
    read = readConfig(config);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      pre_llm_call: () => {
        throw new PolicyViolation(contractId, reason, { issues: configIssues(config) });
      },
    };
  }
  return handlers(read);
}
