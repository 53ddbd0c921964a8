// `runtime: remote:a2a`, an outside agent over the A2A protocol (docs/runtimes.md#remote-agents).

export { ENDPOINTS_VARIABLE } from "./endpoints.js";
export { A2A_OPTIONS, readA2aOptions } from "./options.js";
export { A2A_RUNTIME, A2A_RUNTIME_NAME } from "./runtime.js";
