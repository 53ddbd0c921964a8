// Class-based authoring: the contract taxonomy, the `@plugin` decorator, ToolContract,
// SurfaceAdapter, PolicyViolation and ContextPart. The spec's snake_case names map to
// camelCase here; contracts/plugin.ts lists the mapping.
export {
  BudgetContract,
  CapabilityContract,
  ContextContract,
  ContractBase,
  type ContractClass,
  type ContractFamily,
  ControlContract,
  DelegationContract,
  DesignPatternContract,
  ExecutionSessionContract,
  GatewayContract,
  GovernanceContract,
  LLMContract,
  MessageContract,
  ModelAccessContract,
  OrchestrationContract,
  PromptContract,
  RecorderContract,
  RoutingContract,
  SensorContract,
  SessionContract,
  SharedContextContract,
  TransportContract,
  WorkflowContract,
} from "./base.js";
export { ContextPart, type ContextPartInit } from "./context-part.js";
export { MemoryContract } from "./memory.js";
export {
  type ComposedContracts,
  collectContractIds,
  inferPluginId,
  isPluginClass,
  PLUGIN_ID_PATTERN,
  type PluginInfo,
  type PluginOptions,
  plugin,
  pluginIdName,
  pluginInfo,
  withContracts,
} from "./plugin.js";
export { PolicyViolation, type PolicyViolationInit } from "./policy-violation.js";
export {
  SurfaceAdapter,
  type SurfaceAttachment,
  SurfaceEnvelope,
  type SurfaceEnvelopeInit,
  type SurfaceResponse,
  type SurfaceStartContext,
} from "./surface.js";
export { CONTRACT_TAXONOMY, type ContractInfo } from "./taxonomy.js";
export { contractFunction, ToolContract } from "./tool-contract.js";
