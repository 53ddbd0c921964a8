// The http tool: outbound requests with SSRF protection, a response limit in decoded bytes,
// and a deadline for the whole exchange.
export { addressProblem, DENIED_RANGES } from "./addresses.js";
export { ACCEPT_ENCODING, MAX_RESPONSE_BYTES, presentBody, readBody } from "./body.js";
export { type ResolvedAddress, type Resolver, refusedAddress, systemResolver } from "./resolve.js";
export {
  checkTarget,
  effectivePort,
  hostProblem,
  SSRF_CONTRACT,
  ssrfRefusal,
  type Target,
} from "./target.js";
export {
  DEFAULT_TIMEOUT_SECONDS,
  type HttpOptions,
  httpInfo,
  httpTool,
  MAX_REDIRECTS,
  MAX_REQUEST_BODY_CHARS,
  MAX_TIMEOUT_SECONDS,
} from "./tool.js";
