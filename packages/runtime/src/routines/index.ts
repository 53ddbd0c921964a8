// Routines: schedules (cron with seconds, time zones, croner) and events (a signed webhook, a
// job of another agent ending) that start an agent's or flow's job as the routine's identity,
// with its tools and limits. Each tick fires once across every process (a unique fire row in
// the job's transaction); missed ticks and overlapping runs follow the routine's policies.
export { type RoutineDef, routineActor, tenantRoutines } from "./definitions.js";
export { type FireResult, inScope, routineCaller } from "./fire.js";
export { nextTick, ticksBetween } from "./schedule.js";
export { RoutineScheduler, SCHEDULER_DEFAULTS, type SchedulerOptions } from "./scheduler.js";
export { type Sensed, sensedWebhook } from "./sensor.js";
export { type FireView, Routines, type RoutinesOptions, type RoutineView } from "./service.js";
export {
  newWebhookSecret,
  signWebhook,
  verifyWebhook,
  WEBHOOK_WINDOW_MS,
  type WebhookRequest,
  webhookInput,
} from "./webhook.js";
