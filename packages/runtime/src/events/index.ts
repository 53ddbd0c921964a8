// Events: what a job's history holds. Each kind of event and its data, the failure a job ends
// with, and the governance events hooks and policy record; the engine appends them, every
// surface reads them.
export type { ArgumentChanger, CallError } from "./calls.js";
export {
  type CallDecider,
  event,
  JOB_EVENT_KINDS,
  type JobEvent,
  type JobEventData,
  type JobEventKind,
  type JobFailure,
  type ModelCallRecord,
  type NewEvent,
  type RoutineGrant,
  type WaitingFor,
} from "./events.js";
export { failureOf, SetupFailure } from "./failures.js";
export type {
  GovernanceEvent,
  GovernanceEventData,
  GovernanceEventKind,
  GovernanceSink,
} from "./governance.js";
