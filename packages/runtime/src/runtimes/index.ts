// Agent runtimes: the interface a loop implements to run an agent's jobs, and the registry
// `runtime:` selects one from. oz0's own loop is the default; others register here.
import { harnessRuntime } from "./harness/index.js";
import { OZ0_RUNTIME } from "./oz0.js";
import { RuntimeRegistry } from "./registry.js";

export { ACP_TOOL_KINDS } from "./harness/kinds.js";
export { askProblem, harnessOptionProblems, type OptionProblem } from "./harness/options.js";
export { OZ0_RUNTIME } from "./oz0.js";
export { RuntimeRegistry } from "./registry.js";
export {
  type AgentRuntime,
  type HarnessSetting,
  type RuntimeCallResult,
  type RuntimeForeignStep,
  type RuntimeModelReply,
  type RuntimeModelRequest,
  type RuntimeNote,
  type RuntimeSession,
  RuntimeStop,
} from "./types.js";

/** The runtimes this oz0 has: lint, install and the job engine read it, and a runtime registers in it. */
export const agentRuntimes = new RuntimeRegistry(OZ0_RUNTIME);
// `harness:<name>`: the harness a plugin registers with host.addHarness.
agentRuntimes.registerFamily("harness:", harnessRuntime);
