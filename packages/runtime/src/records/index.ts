export {
  ERASED,
  type Erasure,
  type HoldScope,
  RECORD_LIMITS,
  type RecordAddress,
  type RecordHold,
  Records,
  type Retention,
  type TenantRecord,
} from "./records.js";
