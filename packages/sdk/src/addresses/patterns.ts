// Which addresses a pattern covers, and which of several covering patterns is the most specific,
// so a tool policy rule on one function beats a rule on its tool, which beats one on its plugin.
import type { Address, AddressPattern } from "./types.js";

/**
 * Whether `pattern` covers `address`. Names compare exactly: no case folding, no Unicode
 * normalisation (the name rules admit only ASCII, so a look-alike never parses anyway).
 *
 * A pattern covers a whole tool's address when it covers every function that tool has or may
 * gain: `github/*` and `github/oz0_github.*` cover `github/oz0_github`; an exact function does
 * not. Agents and flows have no patterns, so no pattern covers them.
 */
export function patternCovers(pattern: AddressPattern, address: Address): boolean {
  switch (pattern.kind) {
    case "function":
      return (
        address.kind === "function" &&
        address.plugin === pattern.plugin &&
        address.tool === pattern.tool &&
        address.function === pattern.function
      );
    case "builtin":
      return address.kind === "builtin" && address.function === pattern.function;
    case "skill":
      return address.kind === "skill" && address.plugin === pattern.plugin && address.name === pattern.name;
    case "tool-wildcard":
      return (
        (address.kind === "function" || address.kind === "tool") &&
        address.plugin === pattern.plugin &&
        address.tool === pattern.tool
      );
    case "builtin-wildcard":
      return address.kind === "builtin";
    case "plugin-wildcard":
      return pattern.of === "skill"
        ? address.kind === "skill" && address.plugin === pattern.plugin
        : (address.kind === "function" || address.kind === "tool") && address.plugin === pattern.plugin;
  }
}

/** The ranks `patternSpecificity` gives; a higher rank is more specific. */
export const PATTERN_SPECIFICITY = { exact: 3, tool: 2, plugin: 1 } as const;

/**
 * How specific a pattern is: an exact address (3) over a tool wildcard (2) over a plugin
 * wildcard (1). Two different patterns of one rank never cover the same address, so among the
 * patterns covering an address the highest rank picks exactly one.
 */
export function patternSpecificity(pattern: AddressPattern): number {
  switch (pattern.kind) {
    case "function":
    case "builtin":
    case "skill":
      return PATTERN_SPECIFICITY.exact;
    case "tool-wildcard":
    case "builtin-wildcard":
      return PATTERN_SPECIFICITY.tool;
    case "plugin-wildcard":
      return PATTERN_SPECIFICITY.plugin;
  }
}
