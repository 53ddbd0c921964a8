// oz0 as an MCP server: the served functions, each call a job on the dispatch path, over stdio
// or Streamable HTTP. What serving needs of the MCP SDK loads when a server opens (open.ts), not
// with the runtime.
export {
  CATALOG_CALLER,
  type CallJob,
  type CallJobScope,
  JOB_META_KEY,
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
export { openMcpServer } from "./open.js";
export type { McpServeDeps, McpServeOptions, OzMcpServer } from "./server.js";
export { serveStdio } from "./stdio.js";
