export {
  ERASED,
  type Erasure,
  type HoldScope,
  RECORD_LIMITS,
  type RecordAddress,
  type RecordChange,
  type RecordChangeListener,
  type RecordHold,
  Records,
  type Retention,
  type TenantRecord,
} from "./records.js";
