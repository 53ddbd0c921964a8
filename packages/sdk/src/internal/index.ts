// What the oz0 runtime needs from the SDK beyond the author-facing entry: running a plugin's
// setup against a recording host, building what it registered, and the full manifest schemas.
// Plugin authors should not import this subpath; its names may change in any release.

export { collectContractIds, isPluginClass } from "../contracts/index.js";
export { checkHookHandlers, handlerMethodNames, hookHandlersOf, LIFECYCLE_HOOKS } from "../hooks/index.js";
export { deepFreeze } from "../host/freeze.js";
export {
  assertPluginObject,
  type BuiltFunction,
  type BuiltTool,
  buildHookHandlers,
  buildTool,
  capabilityMismatch,
  capabilityWords,
  checkFunction,
  createRecordingHost,
  inputJsonSchema,
  isZodSchema,
  parseArguments,
  REGISTRATION_KINDS,
  type RecordingHost,
  type Registration,
  type RegistrationKind,
} from "../host/index.js";
export {
  AGENT_LIMIT_DEFAULTS,
  CAPABILITY_KINDS,
  formatManifestIssue,
  formatManifestPath,
  formatToolRef,
  identityCovers,
  isToolRef,
  parseAgentRuntime,
  parseFlowReference,
  parseSafeYaml,
  parseToolRef,
  parseYamlWith,
  qualifyEntry,
  routineEvent,
  routineSchema,
  type SafeYamlDocument,
  type SourcePosition,
  TOOL_MANIFEST_DIR,
  type ToolRef,
  toolEntryCovered,
  toolRefProblem,
  YAML_LIMITS,
} from "../manifest/index.js";
export { closestWord, didYouMean, withArticle } from "../text/index.js";
export { Composer, CST, isScalar, Parser, parseYaml, stringifyYaml } from "./yaml.js";
