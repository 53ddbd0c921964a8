// Tool policy rules compiled for matching. A tenant's rules are read and compiled once per
// governance version (see governance.ts); deciding a call is then a few map lookups, however
// many rules the tenant has.
//
// Precedence, for the rules whose pattern covers a function:
// 1. the most specific pattern decides: an exact function (`github/oz0_github.get_file`, or
//    `oz.delegate`) over its tool (`github/oz0_github.*`, or `oz.*`) over its plugin (`github/*`);
// 2. between rules equally specific, deny beats ask beats allow.
// No rule: the agent's own grant decides (a function its `tools:` lists runs; no other is ever
// offered or called). A rule never widens a grant: `allow` on a function the agent does not
// list does not make it callable.
import {
  type BuiltinAddress,
  type FunctionAddress,
  type FunctionPattern,
  formatAddress,
  parsePattern,
  patternCovers,
  patternSpecificity,
} from "@oz0/sdk";
import type { PolicyAction } from "../store/index.js";

/** One rule as stored: a pattern over functions and what it says. */
export interface PolicyRule {
  readonly pattern: string;
  readonly action: PolicyAction;
}

/** The rule that decides a call, with what it says. */
export interface PolicyDecision {
  readonly action: PolicyAction;
  /** The pattern of the deciding rule, as stored. */
  readonly rule: string;
}

/** How strongly each action holds a call back; the stronger wins between equally specific rules. */
const STRENGTH: Readonly<Record<PolicyAction, number>> = { allow: 0, ask: 1, deny: 2 };

interface Compiled {
  readonly pattern: FunctionPattern;
  readonly specificity: number;
  readonly rule: PolicyRule;
}

/**
 * A tenant's rules, indexed by the text of their patterns: the patterns that can cover an
 * address are found by formatting its exact, tool and plugin forms.
 * @example
 * const policy = CompiledPolicy.compile([{ pattern: "github/*", action: "ask" }]);
 * policy.decide(parseFunctionAddress("github/oz0_github.get_file")) // { action: "ask", rule: "github/*" }
 */
export class CompiledPolicy {
  readonly size: number;
  readonly #byPattern: ReadonlyMap<string, readonly Compiled[]>;
  readonly #decided = new Map<string, PolicyDecision | undefined>();

  private constructor(byPattern: ReadonlyMap<string, readonly Compiled[]>, size: number) {
    this.#byPattern = byPattern;
    this.size = size;
  }

  /** Compiles stored rules; a pattern that no longer parses covers nothing. */
  static compile(rules: readonly PolicyRule[]): CompiledPolicy {
    const byPattern = new Map<string, Compiled[]>();
    let size = 0;
    for (const rule of rules) {
      let pattern: FunctionPattern;
      try {
        pattern = parsePattern(rule.pattern, "function");
      } catch {
        continue;
      }
      const key = formatAddress(pattern);
      const list = byPattern.get(key) ?? [];
      list.push({ pattern, specificity: patternSpecificity(pattern), rule });
      byPattern.set(key, list);
      size += 1;
    }
    return new CompiledPolicy(byPattern, size);
  }

  /** The rule that decides a call of `address`, or undefined when no rule covers it. */
  decide(address: FunctionAddress | BuiltinAddress): PolicyDecision | undefined {
    const text = formatAddress(address);
    if (this.#decided.has(text)) return this.#decided.get(text);
    let best: Compiled | undefined;
    for (const key of coveringKeys(address)) {
      for (const candidate of this.#byPattern.get(key) ?? []) {
        if (!patternCovers(candidate.pattern, address)) continue;
        if (best === undefined || beats(candidate, best)) best = candidate;
      }
    }
    const decision = best === undefined ? undefined : { action: best.rule.action, rule: best.rule.pattern };
    this.#decided.set(text, decision);
    return decision;
  }
}

function beats(candidate: Compiled, best: Compiled): boolean {
  if (candidate.specificity !== best.specificity) return candidate.specificity > best.specificity;
  return STRENGTH[candidate.rule.action] > STRENGTH[best.rule.action];
}

/** The text of every pattern that could cover `address`: itself, its tool's and its plugin's wildcards. */
function coveringKeys(address: FunctionAddress | BuiltinAddress): string[] {
  if (address.kind === "builtin") {
    return [formatAddress(address), formatAddress({ kind: "builtin-wildcard", tool: address.tool })];
  }
  const { plugin, tool } = address;
  return [
    formatAddress(address),
    formatAddress({ kind: "tool-wildcard", plugin, tool }),
    formatAddress({ kind: "plugin-wildcard", plugin, of: "function" }),
  ];
}

/**
 * The address a call's function is decided by: `<plugin>/<tool>.<function>`, or `oz.<function>`
 * for a built-in (which belongs to no plugin).
 */
export function callAddress(fn: {
  readonly plugin: string | undefined;
  readonly tool: string;
  readonly function: string;
}): FunctionAddress | BuiltinAddress {
  return fn.plugin === undefined
    ? { kind: "builtin", tool: "oz", function: fn.function }
    : { kind: "function", plugin: fn.plugin, tool: fn.tool, function: fn.function };
}
