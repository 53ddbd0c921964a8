// The shapes of a parsed address or pattern. Each is a discriminated union on `kind`, so a
// caller branches on what was named instead of re-reading the text.
import type { BUILTIN_TOOL_ID } from "../names/index.js";

/** `github/oz0_github.get_pull_request`: one function of one plugin's tool. */
export interface FunctionAddress {
  readonly kind: "function";
  readonly plugin: string;
  readonly tool: string;
  readonly function: string;
}

/** `github/oz0_github`: a whole tool, the unit of kill switches, the inventory and ownership. */
export interface ToolAddress {
  readonly kind: "tool";
  readonly plugin: string;
  readonly tool: string;
}

/** The parts other than tools that a plugin owns by name. */
export type PartKind = "agent" | "flow" | "skill";

/** `pr-reviewer/pr-reviewer`, `merge-when-green/merge-when-green`, `web/research`. */
export interface PartAddress<K extends PartKind = PartKind> {
  readonly kind: K;
  readonly plugin: string;
  readonly name: string;
}

/**
 * `oz.delegate`: a function of oz0's built-in tool. Built-ins belong to no plugin, so their
 * reference never has a `/`, reads the same in every plugin, and is never resolved as a bare name.
 */
export interface BuiltinAddress {
  readonly kind: "builtin";
  readonly tool: typeof BUILTIN_TOOL_ID;
  readonly function: string;
}

/** Anything an address names. */
export type Address = FunctionAddress | ToolAddress | PartAddress | BuiltinAddress;

/** The forms a caller can expect where one address is written. */
export type AddressForm = "function" | "tool" | PartKind;

/** `github/oz0_github.*`: every function of one tool. */
export interface ToolWildcard {
  readonly kind: "tool-wildcard";
  readonly plugin: string;
  readonly tool: string;
}

/** `github/*` (every function of every tool of github) or `web/*` (every skill of web). */
export interface PluginWildcard {
  readonly kind: "plugin-wildcard";
  readonly plugin: string;
  readonly of: PatternOf;
}

/** `oz.*`: every built-in function. */
export interface BuiltinWildcard {
  readonly kind: "builtin-wildcard";
  readonly tool: typeof BUILTIN_TOOL_ID;
}

/** What a pattern ranges over: functions (tool policy, grants) or skills (an agent's `skills:`). */
export type PatternOf = "function" | "skill";

/** A pattern is an exact address or a wildcard; exact ones cover only themselves. */
export type AddressPattern =
  | FunctionAddress
  | BuiltinAddress
  | PartAddress<"skill">
  | ToolWildcard
  | PluginWildcard
  | BuiltinWildcard;
