// Which addresses a pattern covers, and which covering pattern is the most specific.
import { describe, expect, it } from "vitest";
import {
  type Address,
  parseFunctionAddress,
  parsePartAddress,
  parsePattern,
  parseToolAddress,
  patternCovers,
  patternSpecificity,
} from "../../src/addresses/index.js";

const getPullRequest = parseFunctionAddress("github/oz0_github.get_pull_request");
const getFile = parseFunctionAddress("github/oz0_github.get_file");
const otherTool = parseFunctionAddress("github/oz0_actions.list_runs");
const otherPlugin = parseFunctionAddress("gitlab/oz0_github.get_pull_request");

function covered(pattern: string, addresses: Address[]): boolean[] {
  const parsed = parsePattern(pattern);
  return addresses.map((address) => patternCovers(parsed, address));
}

describe("patternCovers", () => {
  it("covers every function of every tool of github with github/*", () => {
    expect(covered("github/*", [getPullRequest, getFile, otherTool, otherPlugin])).toEqual([
      true,
      true,
      true,
      false,
    ]);
  });

  it("covers every function of the tool oz0_github, and only them, with github/oz0_github.*", () => {
    expect(covered("github/oz0_github.*", [getPullRequest, getFile, otherTool, otherPlugin])).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });

  it("covers only itself with an exact function pattern", () => {
    expect(
      covered("github/oz0_github.get_pull_request", [getPullRequest, getFile, otherTool, otherPlugin]),
    ).toEqual([true, false, false, false]);
  });

  it("covers the whole tool github/oz0_github with github/* and github/oz0_github.*, but not with one function", () => {
    const tool = parseToolAddress("github/oz0_github");
    expect(covered("github/*", [tool])).toEqual([true]);
    expect(covered("github/oz0_github.*", [tool])).toEqual([true]);
    expect(covered("github/oz0_github.get_file", [tool])).toEqual([false]);
    expect(covered("gitlab/*", [tool])).toEqual([false]);
  });

  it("covers built-ins only with oz.* or the built-in itself, never with a plugin's pattern", () => {
    const delegate = parseFunctionAddress("oz.delegate");
    expect(covered("oz.*", [delegate, getFile])).toEqual([true, false]);
    expect(covered("oz.delegate", [delegate, parseFunctionAddress("oz.fail")])).toEqual([true, false]);
    expect(covered("github/*", [delegate])).toEqual([false]);
  });

  it("covers every skill of web with web/*, and no function or agent of web", () => {
    const skills = parsePattern("web/*", "skill");
    expect(patternCovers(skills, parsePartAddress("web/research", "skill"))).toBe(true);
    expect(patternCovers(skills, parsePartAddress("news/research", "skill"))).toBe(false);
    expect(patternCovers(skills, parseFunctionAddress("web/fetch.get"))).toBe(false);
    expect(patternCovers(skills, parsePartAddress("web/research", "agent"))).toBe(false);
    expect(patternCovers(parsePattern("web/*"), parsePartAddress("web/research", "skill"))).toBe(false);
  });

  it("compares names exactly, with no case folding", () => {
    const pattern = parsePattern("acme/tickets.getTicket");
    expect(patternCovers(pattern, parseFunctionAddress("acme/tickets.getTicket"))).toBe(true);
    expect(patternCovers(pattern, parseFunctionAddress("acme/tickets.getticket"))).toBe(false);
  });

  it("never matches a Cyrillic '\u0430' against a Latin 'a', even in an address built by hand", () => {
    const lookAlike: Address = { kind: "function", plugin: "\u0430cme", tool: "tickets", function: "get" };
    expect(patternCovers(parsePattern("acme/*"), lookAlike)).toBe(false);
    expect(patternCovers(parsePattern("acme/tickets.get"), lookAlike)).toBe(false);
    expect(() => parseFunctionAddress("\u0430cme/tickets.get")).toThrow(/U\+0430/);
  });
});

describe("patternSpecificity", () => {
  it("ranks an exact function over a tool wildcard over a plugin wildcard", () => {
    const exact = patternSpecificity(parsePattern("github/oz0_github.get_pull_request"));
    const tool = patternSpecificity(parsePattern("github/oz0_github.*"));
    const plugin = patternSpecificity(parsePattern("github/*"));
    expect(exact).toBeGreaterThan(tool);
    expect(tool).toBeGreaterThan(plugin);
  });

  it("ranks built-ins and skills the same way", () => {
    expect(patternSpecificity(parsePattern("oz.delegate"))).toBeGreaterThan(
      patternSpecificity(parsePattern("oz.*")),
    );
    expect(patternSpecificity(parsePattern("web/research", "skill"))).toBeGreaterThan(
      patternSpecificity(parsePattern("web/*", "skill")),
    );
  });

  it("lets the most specific covering pattern win, as a policy engine picks a rule", () => {
    const rules = ["github/*", "github/oz0_github.*", "github/oz0_github.get_file"].map((text) =>
      parsePattern(text),
    );
    const winner = (address: Address) =>
      rules
        .filter((rule) => patternCovers(rule, address))
        .sort((a, b) => patternSpecificity(b) - patternSpecificity(a))[0];
    expect(winner(getFile)).toEqual(rules[2]);
    expect(winner(getPullRequest)).toEqual(rules[1]);
    expect(winner(otherTool)).toEqual(rules[0]);
    expect(winner(otherPlugin)).toBeUndefined();
  });
});
