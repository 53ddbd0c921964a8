// Tool policy precedence, decided on compiled rules: the most specific pattern decides, and
// between equally specific rules deny beats ask beats allow. Names match exactly.
import { parseFunctionAddress } from "@oz0/sdk";
import { describe, expect, it } from "vitest";
import { CompiledPolicy, type PolicyRule } from "../../src/policy/index.js";

const decide = (rules: readonly PolicyRule[], address: string) =>
  CompiledPolicy.compile(rules).decide(parseFunctionAddress(address));

describe("tool policy precedence", () => {
  it("lets a rule on one function beat a rule on its tool, which beats a rule on its plugin", () => {
    const rules: PolicyRule[] = [
      { pattern: "github/*", action: "deny" },
      { pattern: "github/oz0_github.*", action: "ask" },
      { pattern: "github/oz0_github.get_pull_request", action: "allow" },
    ];
    expect(decide(rules, "github/oz0_github.get_pull_request")).toEqual({
      action: "allow",
      rule: "github/oz0_github.get_pull_request",
    });
    expect(decide(rules, "github/oz0_github.merge")).toEqual({ action: "ask", rule: "github/oz0_github.*" });
    expect(decide(rules, "github/oz0_admin.delete_repo")).toEqual({ action: "deny", rule: "github/*" });
  });

  it("lets a broader deny lose to a narrower allow, and a broader allow lose to a narrower deny", () => {
    expect(
      decide(
        [
          { pattern: "github/*", action: "allow" },
          { pattern: "github/oz0_github.merge", action: "deny" },
        ],
        "github/oz0_github.merge",
      ),
    ).toEqual({ action: "deny", rule: "github/oz0_github.merge" });
  });

  it("between equally specific rules, deny beats ask beats allow", () => {
    const address = "github/oz0_github.merge";
    const same = (actions: PolicyRule["action"][]) =>
      decide(
        actions.map((action) => ({ pattern: "github/oz0_github.*", action })),
        address,
      )?.action;
    expect(same(["allow", "ask", "deny"])).toBe("deny");
    expect(same(["deny", "allow", "ask"])).toBe("deny");
    expect(same(["allow", "ask"])).toBe("ask");
    expect(same(["ask", "allow"])).toBe("ask");
    expect(same(["allow"])).toBe("allow");
  });

  it("decides nothing where no rule covers the function, leaving it to the agent's grant", () => {
    const rules: PolicyRule[] = [{ pattern: "github/*", action: "deny" }];
    expect(decide(rules, "gitlab/oz0_gitlab.merge")).toBeUndefined();
    expect(decide([], "github/oz0_github.merge")).toBeUndefined();
  });

  it("never lets a rule of one plugin decide another plugin's function of the same tool ID", () => {
    const rules: PolicyRule[] = [{ pattern: "github/tickets.*", action: "deny" }];
    expect(decide(rules, "helpdesk/tickets.lookup")).toBeUndefined();
  });

  it("matches exact names only: no case folding", () => {
    const rules: PolicyRule[] = [{ pattern: "helpdesk/tickets.Lookup", action: "deny" }];
    expect(decide(rules, "helpdesk/tickets.lookup")).toBeUndefined();
    expect(decide(rules, "helpdesk/tickets.Lookup")?.action).toBe("deny");
  });

  it("lets a stored pattern that no longer parses cover nothing", () => {
    const rules: PolicyRule[] = [
      { pattern: "gіthub/*", action: "deny" },
      { pattern: "github/*", action: "ask" },
    ];
    expect(CompiledPolicy.compile(rules).size).toBe(1);
    expect(decide(rules, "github/oz0_github.merge")?.action).toBe("ask");
  });

  it("decides built-ins like functions: by oz.<function>, then oz.*", () => {
    const rules: PolicyRule[] = [
      { pattern: "oz.*", action: "ask" },
      { pattern: "oz.fail", action: "allow" },
    ];
    expect(decide(rules, "oz.delegate")).toEqual({ action: "ask", rule: "oz.*" });
    expect(decide(rules, "oz.fail")).toEqual({ action: "allow", rule: "oz.fail" });
    expect(decide([{ pattern: "github/*", action: "deny" }], "oz.delegate")).toBeUndefined();
  });

  it("decides with a few lookups, however many rules the tenant has", () => {
    const rules: PolicyRule[] = Array.from({ length: 10_000 }, (_, index) => ({
      pattern: `plugin-${index}/tool_${index}.*`,
      action: "deny" as const,
    }));
    rules.push({ pattern: "github/oz0_github.merge", action: "ask" });
    const policy = CompiledPolicy.compile(rules);
    expect(policy.size).toBe(10_001);
    expect(policy.decide(parseFunctionAddress("github/oz0_github.merge"))?.action).toBe("ask");
    expect(policy.decide(parseFunctionAddress("plugin-9999/tool_9999.x"))?.action).toBe("deny");
    expect(policy.decide(parseFunctionAddress("plugin-9999/tool_1.x"))).toBeUndefined();
  });
});
