// Agent runtimes: the interface a loop implements to run an agent's jobs, and the registry
// `runtime:` selects one from. oz0's own loop is the default; others register here.

import { A2A_RUNTIME } from "./a2a/index.js";
import { ANTHROPIC_RUNTIME } from "./anthropic/index.js";
import { harnessRuntime } from "./harness/index.js";
import { OPENAI_AGENTS_RUNTIME } from "./openai-agents/index.js";
import { OZ0_RUNTIME } from "./oz0.js";
import { RuntimeRegistry } from "./registry.js";

export { A2A_OPTIONS, A2A_RUNTIME_NAME, ENDPOINTS_VARIABLE } from "./a2a/index.js";
export {
  AGENTS_URL_VARIABLE,
  ANTHROPIC_RUNTIME_NAME,
  REMOTE_AGENT_OPTIONS,
  TOOLSET_TOOLS,
} from "./anthropic/index.js";
export { ACP_TOOL_KINDS } from "./harness/kinds.js";
export { askProblem, harnessOptionProblems, type OptionProblem } from "./harness/options.js";
export { harnessWorkspace } from "./harness/workspace.js";
export { OZ0_RUNTIME } from "./oz0.js";
export { RuntimeRegistry } from "./registry.js";
export {
  type AgentModel,
  type AgentRuntime,
  type HarnessSetting,
  type RuntimeCallResult,
  type RuntimeForeignStep,
  type RuntimeModelReply,
  type RuntimeModelRequest,
  type RuntimeNote,
  type RuntimeRemoteCall,
  type RuntimeRemoteSend,
  type RuntimeRemoteTask,
  type RuntimeSession,
  RuntimeStop,
  type RuntimeToolUseResult,
} from "./types.js";

/** The runtimes this oz0 has: lint, install and the job engine read it, and a runtime registers in it. */
export const agentRuntimes = new RuntimeRegistry(OZ0_RUNTIME);
agentRuntimes.register(OPENAI_AGENTS_RUNTIME);
agentRuntimes.register(A2A_RUNTIME);
agentRuntimes.register(ANTHROPIC_RUNTIME);
// `harness:<name>`: the harness a plugin registers with host.addHarness.
agentRuntimes.registerFamily("harness:", harnessRuntime);
