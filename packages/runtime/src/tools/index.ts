// Tools: the one dispatch path for function calls (argument checks, interceptors, the call with
// its idempotency key, recording), and resolving function addresses through the catalog.

export { type ArgumentIssue, argumentIssues, formatIssues } from "../schemas/index.js";
export { ToolCaller, type ToolCallerOptions, type ToolCallReport } from "./by-hand.js";
export {
  type McpCallHost,
  type McpElicitation,
  type McpElicitationAnswer,
  type McpLogMessage,
  type McpProgress,
  type McpSamplingReply,
  type McpSamplingRequest,
  mcpHostOf,
  withMcpHost,
} from "./call-host.js";
export { type ToolContextOptions, toolContext } from "./context.js";
export {
  type ArgumentChange,
  type ArgumentChanger,
  type CallContext,
  type CallError,
  type CallInterceptor,
  type CallOrigin,
  type CallOutcome,
  type CallRecorder,
  type CallRequest,
  callJob,
  type DispatchOptions,
  dispatchCall,
  OUTSIDE_CALL,
  prepareCall,
  type StepDecision,
} from "./dispatch.js";
export {
  type CallableFunction,
  disabledToolError,
  FunctionResolver,
  type FunctionResolverOptions,
  type ResolvedFunction,
} from "./functions.js";
export type { PartSource, SourcePart } from "./source.js";
