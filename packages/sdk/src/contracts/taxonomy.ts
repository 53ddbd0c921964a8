// The contract taxonomy as data, for docs, lint and the loader: every contract with its ID
// and family. Governance contracts of one's own (rate_limit, …) extend GovernanceContract.
import {
  BudgetContract,
  ContextContract,
  type ContractClass,
  type ContractFamily,
  ControlContract,
  DelegationContract,
  DesignPatternContract,
  ExecutionSessionContract,
  GatewayContract,
  LLMContract,
  MessageContract,
  ModelAccessContract,
  PromptContract,
  RecorderContract,
  RoutingContract,
  SensorContract,
  SessionContract,
  SharedContextContract,
  TransportContract,
  WorkflowContract,
} from "./base.js";
import { MemoryContract } from "./memory.js";
import { SurfaceAdapter } from "./surface.js";
import { ToolContract } from "./tool-contract.js";

export interface ContractInfo {
  readonly contractId: string;
  readonly className: string;
  readonly family: ContractFamily;
  readonly contract: ContractClass;
}

const row = (contract: ContractClass & { contractId: string }, family: ContractFamily): ContractInfo =>
  Object.freeze({ contractId: contract.contractId, className: contract.name, family, contract });

/** Every contract of the taxonomy, capability contracts first, in the specification's order. */
export const CONTRACT_TAXONOMY: readonly ContractInfo[] = Object.freeze([
  row(ToolContract, "capability"),
  row(PromptContract, "capability"),
  row(MemoryContract, "capability"),
  row(SensorContract, "capability"),
  row(SessionContract, "capability"),
  row(ExecutionSessionContract, "capability"),
  row(TransportContract, "capability"),
  row(MessageContract, "capability"),
  row(RecorderContract, "capability"),
  row(ControlContract, "capability"),
  row(SharedContextContract, "capability"),
  row(DelegationContract, "capability"),
  row(ModelAccessContract, "capability"),
  row(ContextContract, "capability"),
  row(LLMContract, "capability"),
  row(DesignPatternContract, "capability"),
  row(GatewayContract, "capability"),
  row(SurfaceAdapter, "capability"),
  row(WorkflowContract, "orchestration"),
  row(BudgetContract, "governance"),
  row(RoutingContract, "governance"),
]);
