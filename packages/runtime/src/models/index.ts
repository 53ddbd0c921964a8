// Models: the interface the agent loop calls, the resolution of `model: { use }` to a provider
// (the offline `test` provider, OpenAI, Anthropic, OpenAI-compatible servers, plugins'
// providers), the adapter over the AI SDK's provider layer with retries and timeouts, prices
// and costs, and the tenant's aliases, providers and encrypted keys.
export { aiSdkModel, keptPrefix, toPrompt, wireCallId } from "./ai-sdk.js";
export { costOf, MAX_FUNCTIONS_PER_REQUEST, metered } from "./metered.js";
export { BUILTIN_PROVIDERS, type BuiltinProvider, PROVIDER_TYPES, type ProviderType } from "./providers.js";
export { keyHint, MIN_SECRET_LENGTH, NO_SECRETS, REDACTED, type Redactor, redactorOf } from "./redact.js";
export {
  DEFAULT_MODEL_ALIAS,
  type ModelChoice,
  type ModelContext,
  type ModelResolver,
  type ModelRoute,
  type ModelSources,
  modelResolver,
  modelSettingKey,
  type PluginProvider,
  type ProviderFactory,
  routeOf,
} from "./resolve.js";
export { CALL_POLICY_DEFAULTS, type CallPolicy, retryAfterMs } from "./retry.js";
export { sampleFromSchema } from "./sample.js";
export { SECRET_KEY_FILE, type Sealed, SecretStore, secretKey } from "./secrets.js";
export {
  type AliasView,
  type KeyView,
  Models,
  type ModelsOptions,
  type PriceView,
  type ProviderChange,
  type ProviderView,
} from "./service.js";
export { type Price, type ProviderConfig, providerKeySecret, TenantSettings } from "./settings.js";
export {
  parseTestScript,
  TEST_PROVIDER,
  type TestScript,
  type TestTurn,
  testModel,
} from "./test-provider.js";
export { estimateTokens, estimateValueTokens } from "./tokens.js";
export type {
  LanguageModel,
  ModelCall,
  ModelFunction,
  ModelMessage,
  ModelReply,
  ModelRequest,
  ModelUsage,
} from "./types.js";
export { Conversation } from "./types.js";
