// `runtime: remote:anthropic`, an agent at Claude Managed Agents (docs/runtimes.md#remoteanthropic-claude-managed-agents).

export { AGENTS_URL_VARIABLE } from "./endpoint.js";
export {
  anthropicModelProblem,
  REMOTE_AGENT_OPTIONS,
  readAnthropicOptions,
  TOOLSET_TOOLS,
} from "./options.js";
export { ANTHROPIC_RUNTIME, ANTHROPIC_RUNTIME_NAME } from "./runtime.js";
