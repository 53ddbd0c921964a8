// `oz0 policy allow|ask|deny <pattern>`, `oz0 policy list`, `oz0 policy remove <pattern>`: the
// tenant's tool policy rules on address patterns. Precedence and patterns: docs/policy.md.
import type { PolicyChange, PolicyRuleView } from "@oz0/runtime";
import type { Command } from "commander";
import { withRuntime } from "../context.js";
import type { Output } from "../output.js";
import { table } from "./plugin.js";

const ACTIONS = {
  allow: "let calls of the functions the pattern covers run (within each agent's own grant)",
  ask: "make each call of the functions the pattern covers wait for a person's approval",
  deny: "refuse every call of the functions the pattern covers",
} as const;

export function registerPolicy(program: Command, out: Output): Command {
  const policy = program
    .command("policy")
    .description("the tenant's tool policy: allow, ask or deny calls by address pattern");

  for (const [action, description] of Object.entries(ACTIONS) as [keyof typeof ACTIONS, string][]) {
    policy
      .command(action)
      .description(description)
      .argument(
        "<pattern>",
        "<plugin>/<tool>.<function>, <plugin>/<tool>.*, <plugin>/*, oz.<function> or oz.*",
      )
      .action(async (pattern: string) => {
        const change = await withRuntime(out, ({ services, caller }) =>
          services.policy.set(caller, action, pattern),
        );
        out.result(change, drawChange);
      });
  }

  policy
    .command("list")
    .description("list the tenant's rules, the most specific first")
    .action(async () => {
      const rules = await withRuntime(out, ({ services, caller }) => services.policy.list(caller));
      out.result(rules, (list) => drawRules(out.options.tenant, list));
    });

  policy
    .command("remove")
    .description("remove the rule on a pattern")
    .argument("<pattern>", "the pattern, as oz0 policy list shows it")
    .action(async (pattern: string) => {
      const removed = await withRuntime(out, ({ services, caller }) =>
        services.policy.remove(caller, pattern),
      );
      out.result(removed, (rule) => `removed the rule ${rule.action} ${rule.pattern}`);
    });

  return policy;
}

function drawChange(change: PolicyChange): string {
  const { rule, previous } = change;
  if (previous === null) return `${rule.action} ${rule.pattern}`;
  if (previous === rule.action) return `${rule.action} ${rule.pattern} (unchanged)`;
  return `${rule.action} ${rule.pattern} (was ${previous})`;
}

function drawRules(tenant: string, rules: readonly PolicyRuleView[]): string {
  if (rules.length === 0) {
    return `tenant ${tenant} has no tool policy rules: each agent's own grant decides what it may call`;
  }
  return table([
    ["ACTION", "PATTERN", "COVERS"],
    ...rules.map((rule) => [rule.action, rule.pattern, rule.covers]),
  ]);
}
