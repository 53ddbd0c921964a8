// Jobs: the durable engine. A job is a row plus an append-only history of events; workers
// claim jobs under leases by the database's clock, run the agent loop step by step, record
// every step before its result is used, and any process can take a job up from its history.

export {
  JOB_EVENT_KINDS,
  type JobEvent,
  type JobEventData,
  type JobEventKind,
  type JobFailure,
  type NewEvent,
  type WaitingFor,
} from "../events/index.js";
export {
  type ApprovalDecision,
  type ApprovalFilter,
  Approvals,
  type DecisionReport,
} from "./approvals.js";
export { BUILTIN_FUNCTIONS, type BuiltinFunction } from "./builtins.js";
export {
  JOB_ENGINE_DEFAULTS,
  JobEngine,
  type JobEngineOptions,
  type RunOptions,
  type SearchFilter,
  type StartRequest,
  type TakenJob,
  type WorkOptions,
} from "./engine.js";
export { flowPlan } from "./flows/index.js";
export { FOLLOW_POLL_MS, type FollowItem, type FollowOptions } from "./follow.js";
export { childJobId, newJobId } from "./ids.js";
export type { RunListeners } from "./job-run.js";
export { LiveFeed, type LiveMessage } from "./live.js";
export { OUTPUT_RETRIES } from "./model-step.js";
export {
  checkedLabels,
  JOB_FORMAT,
  mapPool,
  type NodeServes,
  type Placement,
  type PoolMapping,
  parseStoredLabels,
  poolMappings,
  queueName,
  storedLabels,
  unmapPool,
} from "./queues.js";
export { readSchema } from "./setup.js";
export {
  isTerminal,
  JobStore,
  jobNotFound,
  type Lease,
  TERMINAL_STATUSES,
  type TenantRedactor,
} from "./store.js";
export { DELEGATION_DEFAULTS } from "./tool-step.js";
export { type JobView, jobView } from "./view.js";
export {
  clearDeadWorkers,
  JobWorker,
  listNodes,
  liveWorkers,
  type NodeView,
  OZ0_VERSION,
  servedBy,
  WORKER_DEFAULTS,
  type WorkerOptions,
  whyUnserved,
} from "./worker.js";
