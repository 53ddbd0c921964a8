export {
  assertModelNameFits,
  fitsModelNameLimit,
  MODEL_NAME_LIMIT,
  MODEL_NAME_LIMITS,
  MODEL_NAME_SEPARATOR,
  type ModelNameFormat,
  modelVisibleName,
  parseModelVisibleName,
} from "./model-names.js";
export {
  assertName,
  BUILTIN_FUNCTIONS,
  BUILTIN_TOOL_ID,
  type BuiltinFunction,
  FAILURE_LIMITS,
  isBuiltinFunction,
  isValidName,
  MAX_TAGS,
  type NameKind,
  nameProblem,
  PLATFORM_FAILURE_KINDS,
  type PlatformFailureKind,
} from "./rules.js";
