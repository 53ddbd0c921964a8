// The manifest module: zod schemas and types for every file a plugin author writes, and the
// safe parsers that read them from untrusted text.
export {
  AGENT_LIMIT_DEFAULTS,
  AGENT_LIMITS,
  type AgentDefinition,
  type AgentDefinitionInput,
  type AgentLimits,
  type AgentRuntime,
  agentDefinitionSchema,
  agentLimitsSchema,
  type Delegation,
  delegationSchema,
  type FailureDecl,
  failureDeclSchema,
  PLATFORM_PROPOSE_ARGUMENTS,
  parseAgentRuntime,
  type SkillProposal,
  type SkillsField,
  skillProposalSchema,
  skillRefProblem,
  skillsFieldSchema,
} from "./agent.js";
export {
  type AliasOptions,
  aliasOptionsSchema,
  type ModelChoice,
  type ModelOptions,
  modelChoiceSchema,
  modelOptionsSchema,
  normalizeVersionRange,
  REASONING_EFFORTS,
  STRUCTURED_OUTPUT_MODES,
} from "./fields.js";
export {
  type FlowDefinition,
  type FlowReference,
  type FlowStep,
  findFlowReferences,
  flowDefinitionSchema,
  flowStepSchema,
  parseFlowReference,
} from "./flow.js";
export {
  formatManifestIssue,
  formatManifestPath,
  type ManifestIssue,
  type ManifestPath,
} from "./issues.js";
export {
  type AgentFile,
  type ManifestParseOptions,
  parseAgentFile,
  parsePluginManifest,
  parseSkillFile,
  parseToolManifest,
  parseYamlWith,
} from "./parse.js";
export {
  CAPABILITY_KINDS,
  type CapabilityKind,
  cronProblem,
  type McpServer,
  mcpServerSchema,
  type PluginManifest,
  type PluginManifestInput,
  pluginManifestSchema,
  type Routine,
  routineSchema,
  type ToolDecl,
  toolDeclSchema,
  type UsesEntry,
  usesEntrySchema,
} from "./plugin.js";
export {
  FORBIDDEN_KEYS,
  parseSafeYaml,
  type SafeYamlDocument,
  type SafeYamlOptions,
  type SourcePosition,
  YAML_LIMITS,
} from "./safe-yaml.js";
export { SKILL_LIMITS, type SkillFile, type SkillFrontMatter, skillFrontMatterSchema } from "./skill.js";
export { type ToolManifest, toolManifestSchema } from "./tool-manifest.js";
export {
  formatToolRef,
  isToolRef,
  parseToolRef,
  TOOL_MANIFEST_DIR,
  type ToolRef,
  toolEntryField,
  toolRefProblem,
} from "./tool-ref.js";
