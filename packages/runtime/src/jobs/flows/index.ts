// Flows: a plugin's deterministic workflows, YAML steps or code registered with host.addFlow,
// run as jobs with the history, policy and trace of an agent's job.
export { type CodeFlow, type FlowContext, type FlowPlan, type FlowSteps, flowPlan } from "./plan.js";
export { type FlowScope, resolveReferences } from "./references.js";
export { flowInputProblem, runFlow } from "./run.js";
