// The rules every name follows: parts, tool IDs, function names, tags and failure kinds.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isOz0Error } from "../../src/errors/index.js";
import {
  assertName,
  BUILTIN_TOOL_ID,
  FAILURE_LIMITS,
  isValidName,
  MAX_TAGS,
  type NameKind,
  nameProblem,
  PLATFORM_FAILURE_KINDS,
} from "../../src/names/index.js";

function accepts(kind: NameKind, names: string[]): void {
  for (const name of names) expect(nameProblem(kind, name), `${kind} '${name}'`).toBeUndefined();
}

function refuses(kind: NameKind, names: string[]): void {
  for (const name of names) expect(isValidName(kind, name), `${kind} '${name}'`).toBe(false);
}

describe("plugin, agent, flow, skill and routine names", () => {
  const slugKinds: NameKind[] = ["plugin", "agent", "flow", "skill", "routine"];

  it("accepts lowercase letters, digits and single dashes", () => {
    for (const kind of slugKinds) {
      accepts(kind, [
        "github",
        "pr-reviewer",
        "merge-when-green",
        "support-triage",
        "oz0-github",
        "a",
        "2fa",
      ]);
    }
  });

  it("refuses uppercase, underscores, dots, slashes, spaces and stray dashes", () => {
    for (const kind of slugKinds) {
      refuses(kind, ["GitHub", "oz0_github", "a.b", "a/b", "a b", "-a", "a-", "a--b", ""]);
    }
  });

  it("refuses letters outside ASCII, such as a Cyrillic look-alike", () => {
    refuses("plugin", ["\u0430cme", "caf\u00e9"]);
  });

  it("accepts at most 63 characters", () => {
    accepts("agent", ["a".repeat(63)]);
    expect(nameProblem("agent", "a".repeat(64))).toBe(
      `agent name '${"a".repeat(64)}' is 64 characters long; at most 63 are allowed`,
    );
  });
});

describe("tool IDs", () => {
  it("accepts a lowercase letter followed by letters, digits, dashes and single underscores", () => {
    accepts("tool", ["oz0_github", "tickets", "fs", "my-tool_v2", BUILTIN_TOOL_ID]);
  });

  it("refuses '__', '.', '/' and a leading or trailing '_', which would break <tool>__<function>", () => {
    refuses("tool", [
      "oz0__github",
      "oz0.github",
      "oz0/github",
      "_github",
      "github_",
      "0github",
      "GitHub",
      "",
    ]);
  });

  it("accepts at most 64 characters", () => {
    accepts("tool", [`t${"x".repeat(63)}`]);
    refuses("tool", [`t${"x".repeat(64)}`]);
  });
});

describe("function names", () => {
  it("accepts a letter followed by letters, digits, dashes and single underscores, capitals included", () => {
    accepts("function", ["get_pull_request", "getTicket", "list-runs", "v2"]);
  });

  it("refuses '__', '.', '/', a leading digit and a leading or trailing '_'", () => {
    refuses("function", ["get__file", "get.file", "get/file", "2get", "_get", "get_", ""]);
  });

  it("accepts at most 64 characters", () => {
    accepts("function", [`f${"x".repeat(63)}`]);
    refuses("function", [`f${"x".repeat(64)}`]);
  });
});

describe("tags", () => {
  it("accepts lowercase letters, digits, '.', '_' and '-'", () => {
    accepts("tag", ["hr", "team.platform", "tier_1", "on-call", "2024"]);
  });

  it("refuses other characters", () => {
    refuses("tag", ["HR", "tag:hr", "a b", "a/b", "caf\u00e9", ""]);
  });

  it("accepts at most 63 characters, and at most 16 tags on an agent", () => {
    accepts("tag", ["t".repeat(63)]);
    refuses("tag", ["t".repeat(64)]);
    expect(MAX_TAGS).toBe(16);
  });
});

describe("failure kinds", () => {
  it("accepts lowercase letters, digits and '_'", () => {
    accepts("failure kind", ["not_found", "rate_limited2"]);
  });

  it("refuses dashes, capitals and other characters", () => {
    refuses("failure kind", ["not-found", "NotFound", "not found", "a.b", ""]);
  });

  it("accepts at most 40 characters", () => {
    accepts("failure kind", ["k".repeat(40)]);
    refuses("failure kind", ["k".repeat(41)]);
  });

  it("allows at most 32 kinds with descriptions of at most 200 characters", () => {
    expect(FAILURE_LIMITS).toEqual({ maxKinds: 32, maxDescription: 200 });
  });

  it("lists the platform's own kinds, timeout and undeclared among them, each a valid kind name", () => {
    expect(PLATFORM_FAILURE_KINDS).toContain("timeout");
    expect(PLATFORM_FAILURE_KINDS).toContain("undeclared");
    accepts("failure kind", [...PLATFORM_FAILURE_KINDS]);
  });
});

describe("messages and errors", () => {
  it("says a name must not be empty with the right article", () => {
    expect(nameProblem("agent", "")).toBe("an agent name must not be empty");
    expect(nameProblem("plugin", "")).toBe("a plugin name must not be empty");
  });

  it("shortens a very long name in its message", () => {
    const problem = nameProblem("plugin", "a".repeat(10_000)) ?? "";
    expect(problem).toContain("is 10000 characters long; at most 63 are allowed");
    expect(problem.length).toBeLessThan(200);
  });

  it("throws INVALID_NAME from assertName with the kind and the name", () => {
    let caught: unknown;
    try {
      assertName("tool", "oz0__github");
    } catch (error) {
      caught = error;
    }
    expect(isOz0Error(caught, "INVALID_NAME")).toBe(true);
    expect(caught).toMatchObject({
      data: { kind: "tool", name: "oz0__github" },
      message: expect.stringContaining("tool name 'oz0__github' must be"),
    });
  });

  it("does not throw from assertName for a valid name", () => {
    expect(() => assertName("plugin", "github")).not.toThrow();
  });

  it("never throws from nameProblem, whatever the text", () => {
    const kinds: NameKind[] = ["plugin", "tool", "function", "tag", "failure kind"];
    fc.assert(
      fc.property(fc.constantFrom(...kinds), fc.string({ unit: "binary" }), (kind, text) => {
        const problem = nameProblem(kind, text);
        expect(problem === undefined || problem.length > 0).toBe(true);
      }),
    );
  });
});
