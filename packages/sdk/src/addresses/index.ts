// Addresses name a plugin's parts across plugins: `<plugin>/<tool>.<function>`, `<plugin>/<tool>`,
// `<plugin>/<agent|flow|skill>`, built-ins as `oz.<function>`, and patterns with `*`.

export { bareName, formatAddress } from "./format.js";
export type { ExpectedForm } from "./forms.js";
export { notOwnedMessage } from "./owner.js";
export {
  type AddressOf,
  type FunctionPattern,
  type PatternFor,
  parseAddress,
  parseFunctionAddress,
  parsePartAddress,
  parsePattern,
  parseToolAddress,
  type Resolved,
  resolvePattern,
  resolveReference,
  type SkillPattern,
} from "./parse.js";
export { PATTERN_SPECIFICITY, patternCovers, patternSpecificity } from "./patterns.js";
export type {
  Address,
  AddressForm,
  AddressPattern,
  BuiltinAddress,
  BuiltinWildcard,
  FunctionAddress,
  PartAddress,
  PartKind,
  PatternOf,
  PluginWildcard,
  ToolAddress,
  ToolWildcard,
} from "./types.js";
