// Usage: model-call totals per tenant, agent, model and hour, for budgets and reports.
export {
  type CallUsage,
  callsIn,
  countCall,
  dayOf,
  hourOf,
  JobUsage,
  modelCallUsage,
  sqliteCallCount,
  tenantUsage,
  type UsageQuery,
  type UsageRecord,
  type UsageTotals,
  usageRecords,
} from "./totals.js";
