import { describe, expect, it } from "vitest";
import { parseAgentList, parseDuration, withinScope } from "../../src/identity/index.js";

describe("--agents", () => {
  it("takes every agent when left out", () => {
    expect(parseAgentList(undefined)).toEqual(["*"]);
  });

  it("reads addresses, tags and * separated by commas, without repeats", () => {
    expect(parseAgentList("hr/onboarding, tag:hr,hr/onboarding")).toEqual(["hr/onboarding", "tag:hr"]);
    expect(parseAgentList("*")).toEqual(["*"]);
  });

  it("refuses bad entries with a clear error naming the entry", () => {
    const cases: [string, string][] = [
      ["onboarding", "--agents entry 'onboarding': "],
      [
        "tag:HR",
        "--agents entry 'tag:HR': tag name 'HR' must be lowercase letters, digits, '.', '_' and '-'",
      ],
      ["hr/a/b", "--agents entry 'hr/a/b': "],
      ["hr/*", "--agents entry 'hr/*': "],
      ["hr/x,,hr/y", "--agents entry '': an entry is empty (two commas in a row, or one at an end)"],
      ["", "--agents entry '': an entry is empty"],
      ["*,hr/x", "--agents entry '*': * already covers every agent; give * alone"],
    ];
    for (const [text, message] of cases) {
      let thrown: unknown;
      try {
        parseAgentList(text);
      } catch (error) {
        thrown = error;
      }
      expect(thrown, text).toMatchObject({ code: "INVALID_INPUT" });
      expect((thrown as Error).message, text).toContain(message);
      expect((thrown as Error).message, text).toContain(
        "each entry is an agent's address (<plugin>/<agent>), tag:<tag>, or * for every agent.",
      );
    }
  });

  it("lets a scoped caller hand on only what it holds", () => {
    expect(withinScope(["*"], ["tag:hr"])).toBe(true);
    expect(withinScope(["tag:hr"], ["tag:hr"])).toBe(true);
    expect(withinScope(["tag:hr"], ["*"])).toBe(false);
    expect(withinScope(["tag:hr"], ["hr/onboarding"])).toBe(false);
  });
});

describe("--expires", () => {
  it("reads minutes, hours, days and weeks", () => {
    expect(parseDuration("90m", "--expires")).toBe(90 * 60_000);
    expect(parseDuration("12h", "--expires")).toBe(12 * 3_600_000);
    expect(parseDuration("30d", "--expires")).toBe(30 * 86_400_000);
    expect(parseDuration("2w", "--expires")).toBe(14 * 86_400_000);
  });

  it("refuses a duration without a unit, of zero, or past ten years", () => {
    for (const text of ["30", "0d", "1.5d", "3651d", "1y", "-1d"]) {
      expect(() => parseDuration(text, "--expires"), text).toThrow(
        `--expires ${text}: it takes a whole number and a unit`,
      );
    }
  });
});
