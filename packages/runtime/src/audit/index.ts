// The audit log: who changed what in a tenant and when, for `oz0 audit list` and the API; any
// service's change events reach it through `Audit.onChange`.
export {
  Audit,
  type AuditableChange,
  type AuditEntry,
  type AuditFilter,
  type AuditRecord,
  type AuthFailureRecord,
  HOOK_RECORDS_ACTION,
  type HookRecordsEntry,
  mask,
  UNAUTHENTICATED_ACTOR,
} from "./audit.js";
