// Models: the interface the agent loop calls, the resolution of `model: { use }` to a provider,
// and the offline `test` provider that is the embedded default when nothing is configured.
export {
  BUILTIN_PROVIDERS,
  DEFAULT_MODEL_ALIAS,
  type ModelChoice,
  type ModelContext,
  type ModelResolver,
  modelResolver,
  modelSettingKey,
  type ProviderFactory,
} from "./resolve.js";
export { sampleFromSchema } from "./sample.js";
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
