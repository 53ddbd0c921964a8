// @oz0/sdk: what plugin authors import. No I/O, no model SDKs, no database drivers.
export { ERROR_CODES, type ErrorCode, type ErrorCodeInfo, type ErrorSide, isOz0Error, Oz0Error, toOz0Error } from "./errors/index.js";
export {
  assertModelNameFits,
  assertName,
  BUILTIN_TOOL_ID,
  FAILURE_LIMITS,
  fitsModelNameLimit,
  isValidName,
  MAX_TAGS,
  MODEL_NAME_LIMIT,
  MODEL_NAME_LIMITS,
  MODEL_NAME_SEPARATOR,
  type ModelNameFormat,
  modelVisibleName,
  type NameKind,
  nameProblem,
  PLATFORM_FAILURE_KINDS,
  type PlatformFailureKind,
  parseModelVisibleName,
} from "./names/index.js";
