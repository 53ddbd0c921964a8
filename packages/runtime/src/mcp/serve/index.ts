// oz0 as an MCP server: the served functions, each call a job on the dispatch path, over stdio
// or Streamable HTTP.
export {
  CATALOG_CALLER,
  type CallJob,
  type CallJobScope,
  MCP_CALL_QUEUE,
  startCallJob,
} from "./call-jobs.js";
export { SessionEventStore } from "./event-store.js";
export { type ExposedFunctions, type ExposedScope, exposedFunctions, servedAgent } from "./exposed.js";
export {
  cameBack,
  type HttpServeOptions,
  type HttpServing,
  MCP_HTTP_PATH,
  serveHttp,
  type WithdrawingSession,
  withdrawIfGone,
} from "./http.js";
export { JOB_META_KEY, type McpServeDeps, type McpServeOptions, OzMcpServer } from "./server.js";
export { serveStdio } from "./stdio.js";
