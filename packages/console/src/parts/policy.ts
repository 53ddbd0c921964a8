// Which tool policy rule decides a call (docs/policy.md): the rules whose pattern covers the
// function's address, the most specific first, deny over ask over allow between equals.

export interface Rule {
  readonly pattern: string;
  readonly action: string;
}

/** How specific a pattern is: 3 for one function, 2 for a tool's wildcard, 1 for a plugin's. */
function specificity(pattern: string): number {
  if (!pattern.endsWith("*")) return 3;
  return pattern.endsWith(".*") ? 2 : 1;
}

export function covers(pattern: string, address: string): boolean {
  if (!pattern.endsWith("*")) return pattern === address;
  return address.startsWith(pattern.slice(0, -1));
}

const STRENGTH: Record<string, number> = { deny: 3, ask: 2, allow: 1 };

/** The rule that decides a call of `address`, or undefined when none covers it (its grant decides). */
export function decidingRule(rules: readonly Rule[], address: string): Rule | undefined {
  return rules
    .filter((rule) => covers(rule.pattern, address))
    .sort(
      (a, b) =>
        specificity(b.pattern) - specificity(a.pattern) ||
        (STRENGTH[b.action] ?? 0) - (STRENGTH[a.action] ?? 0),
    )[0];
}
