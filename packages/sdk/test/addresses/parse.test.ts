// The address forms of the spec's table, read and written back.
import { describe, expect, it } from "vitest";
import {
  bareName,
  formatAddress,
  parseAddress,
  parseFunctionAddress,
  parsePartAddress,
  parsePattern,
  parseToolAddress,
} from "../../src/addresses/index.js";

describe("function addresses", () => {
  it("reads github/oz0_github.get_pull_request as plugin github, tool oz0_github, function get_pull_request", () => {
    expect(parseFunctionAddress("github/oz0_github.get_pull_request")).toEqual({
      kind: "function",
      plugin: "github",
      tool: "oz0_github",
      function: "get_pull_request",
    });
  });

  it("accepts an address that reads twice, as github/oz0_github.get_file", () => {
    expect(parseFunctionAddress("github/oz0_github.get_file")).toEqual({
      kind: "function",
      plugin: "github",
      tool: "oz0_github",
      function: "get_file",
    });
  });

  it("keeps a function name's own form, capitals and dashes included", () => {
    expect(parseFunctionAddress("acme/tickets.getTicket-v2")).toMatchObject({ function: "getTicket-v2" });
  });

  it("reads a built-in as oz.<function> with no plugin", () => {
    expect(parseFunctionAddress("oz.delegate")).toEqual({
      kind: "builtin",
      tool: "oz",
      function: "delegate",
    });
  });

  it("writes a function address back as it was read", () => {
    expect(formatAddress(parseFunctionAddress("github/oz0_github.get_pull_request"))).toBe(
      "github/oz0_github.get_pull_request",
    );
    expect(formatAddress(parseFunctionAddress("oz.delegate"))).toBe("oz.delegate");
  });
});

describe("whole tool addresses", () => {
  it("reads github/oz0_github as a whole tool, for kill switches and the inventory", () => {
    expect(parseToolAddress("github/oz0_github")).toEqual({
      kind: "tool",
      plugin: "github",
      tool: "oz0_github",
    });
    expect(formatAddress(parseToolAddress("github/oz0_github"))).toBe("github/oz0_github");
  });
});

describe("agent, flow and skill addresses", () => {
  it("reads the agent pr-reviewer/pr-reviewer", () => {
    expect(parsePartAddress("pr-reviewer/pr-reviewer", "agent")).toEqual({
      kind: "agent",
      plugin: "pr-reviewer",
      name: "pr-reviewer",
    });
  });

  it("reads the flow merge-when-green/merge-when-green", () => {
    expect(parsePartAddress("merge-when-green/merge-when-green", "flow")).toEqual({
      kind: "flow",
      plugin: "merge-when-green",
      name: "merge-when-green",
    });
  });

  it("reads the skill web/research", () => {
    expect(parsePartAddress("web/research", "skill")).toEqual({
      kind: "skill",
      plugin: "web",
      name: "research",
    });
  });

  it("writes agent, flow and skill addresses back as they were read", () => {
    for (const [text, kind] of [
      ["pr-reviewer/pr-reviewer", "agent"],
      ["merge-when-green/merge-when-green", "flow"],
      ["web/research", "skill"],
    ] as const) {
      expect(formatAddress(parsePartAddress(text, kind))).toBe(text);
    }
  });

  it("reads any form through parseAddress given the form expected", () => {
    expect(parseAddress("github/oz0_github", "tool").kind).toBe("tool");
    expect(parseAddress("github/oz0_github.get_file", "function").kind).toBe("function");
    expect(parseAddress("github/oz0-github", "agent")).toEqual({
      kind: "agent",
      plugin: "github",
      name: "oz0-github",
    });
  });
});

describe("patterns", () => {
  it("reads github/oz0_github.* as every function of the tool oz0_github", () => {
    expect(parsePattern("github/oz0_github.*")).toEqual({
      kind: "tool-wildcard",
      plugin: "github",
      tool: "oz0_github",
    });
  });

  it("reads github/* as every function of every tool of github", () => {
    expect(parsePattern("github/*")).toEqual({ kind: "plugin-wildcard", plugin: "github", of: "function" });
  });

  it("reads an exact function as a pattern that covers only itself", () => {
    expect(parsePattern("github/oz0_github.get_pull_request")).toEqual(
      parseFunctionAddress("github/oz0_github.get_pull_request"),
    );
  });

  it("reads <plugin>/* as every skill of the plugin when the pattern is over skills", () => {
    expect(parsePattern("web/*", "skill")).toEqual({ kind: "plugin-wildcard", plugin: "web", of: "skill" });
    expect(parsePattern("web/research", "skill")).toEqual({ kind: "skill", plugin: "web", name: "research" });
  });

  it("reads oz.* as every built-in, and oz.delegate as one", () => {
    expect(parsePattern("oz.*")).toEqual({ kind: "builtin-wildcard", tool: "oz" });
    expect(parsePattern("oz.delegate")).toEqual({ kind: "builtin", tool: "oz", function: "delegate" });
  });

  it("writes every pattern back as it was read", () => {
    for (const text of [
      "github/oz0_github.*",
      "github/*",
      "github/oz0_github.get_pull_request",
      "oz.*",
      "oz.fail",
    ]) {
      expect(formatAddress(parsePattern(text))).toBe(text);
    }
    expect(formatAddress(parsePattern("web/*", "skill"))).toBe("web/*");
  });
});

describe("bare names", () => {
  it("gives the name the server stores once the owner is checked: the address without its plugin", () => {
    expect(bareName(parseFunctionAddress("github/oz0_github.get_file"))).toBe("oz0_github.get_file");
    expect(bareName(parseToolAddress("github/oz0_github"))).toBe("oz0_github");
    expect(bareName(parsePartAddress("pr-reviewer/pr-reviewer", "agent"))).toBe("pr-reviewer");
    expect(bareName(parseFunctionAddress("oz.delegate"))).toBe("oz.delegate");
  });
});
