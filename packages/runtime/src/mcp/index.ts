// MCP: tools whose functions come from MCP servers (the manager, one connection per tenant and
// tool, results mapped faithfully, secrets redacted), and oz0's own functions served to MCP
// clients, every call on oz0's dispatch path and recorded as a job.
export {
  MCP_CLIENT_INFO,
  MCP_DEFAULTS,
  type McpConnectionState,
  type McpConnectionStatus,
  type McpFunction,
  type McpLeftOut,
  type McpListing,
  type McpTimings,
} from "./connection.js";
export { endpointOf, type HttpTransportSpec, type McpEndpoint, type StdioTransportSpec } from "./endpoint.js";
export {
  importMcpServers,
  type McpImport,
  type McpImportedTool,
  type McpImportOptions,
  type McpImportSecret,
  writeMcpImport,
} from "./import.js";
export { McpManager, type McpManagerOptions, type McpToolsChange } from "./manager.js";
export { type Authorizer, type Loopback, loopback, needsLogin } from "./oauth.js";
export { functionResult, type McpCallResult, type McpContentBlock } from "./results.js";
export {
  MCP_SECRET_KINDS,
  type McpSecretKind,
  type McpSecretNames,
  McpSecrets,
  type McpSecretValues,
  secretNameProblem,
  secretSettingKey,
} from "./secrets.js";
export {
  CATALOG_CALLER,
  cameBack,
  type HttpServeOptions,
  type HttpServing,
  JOB_META_KEY,
  MCP_HTTP_PATH,
  type McpServeDeps,
  type McpServeOptions,
  type OzMcpServer,
  openMcpServer,
  SessionEventStore,
  serveHttp,
  serveStdio,
  type WithdrawingSession,
  withdrawIfGone,
} from "./serve/index.js";
export { checkSecretKind, type McpToolRef, type McpToolReport, mcpToolAt, mcpToolReports } from "./tools.js";
