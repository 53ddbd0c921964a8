// A bare name means a part of the plugin it is written in; an address names another plugin's.
import { describe, expect, it } from "vitest";
import { resolvePattern, resolveReference } from "../../src/addresses/index.js";
import { isOz0Error } from "../../src/errors/index.js";

describe("resolveReference", () => {
  it("reads a bare function inside plugin acme as acme's function", () => {
    expect(resolveReference("oz0_github.get_pull_request", { plugin: "acme", expect: "function" })).toEqual({
      address: { kind: "function", plugin: "acme", tool: "oz0_github", function: "get_pull_request" },
      bare: true,
    });
  });

  it("reads a bare agent name inside plugin acme as acme's agent", () => {
    expect(resolveReference("review", { plugin: "acme", expect: "agent" })).toEqual({
      address: { kind: "agent", plugin: "acme", name: "review" },
      bare: true,
    });
  });

  it("reads bare tools, flows and skills as the current plugin's", () => {
    expect(resolveReference("tickets", { plugin: "acme", expect: "tool" }).address).toEqual({
      kind: "tool",
      plugin: "acme",
      tool: "tickets",
    });
    expect(resolveReference("release", { plugin: "acme", expect: "flow" }).address).toMatchObject({
      plugin: "acme",
    });
    expect(resolveReference("research", { plugin: "acme", expect: "skill" }).address).toMatchObject({
      kind: "skill",
      plugin: "acme",
    });
  });

  it("keeps the plugin an address names, and says it was not bare", () => {
    expect(
      resolveReference("github/oz0_github.list_pull_requests", {
        plugin: "acme-release-notes",
        expect: "function",
      }),
    ).toEqual({
      address: { kind: "function", plugin: "github", tool: "oz0_github", function: "list_pull_requests" },
      bare: false,
    });
    expect(resolveReference("github/oz0-github", { plugin: "acme-release-notes", expect: "agent" })).toEqual({
      address: { kind: "agent", plugin: "github", name: "oz0-github" },
      bare: false,
    });
  });

  it("says a full address of the current plugin is not bare", () => {
    expect(resolveReference("acme/review", { plugin: "acme", expect: "agent" }).bare).toBe(false);
  });

  it("reads oz.delegate in an agent's tools as the built-in, never as the plugin's tool", () => {
    expect(resolveReference("oz.delegate", { plugin: "acme", expect: "function" })).toEqual({
      address: { kind: "builtin", tool: "oz", function: "delegate" },
      bare: false,
    });
  });

  it("refuses a bare whole tool named oz, the built-in tool no plugin defines", () => {
    expect(() => resolveReference("oz", { plugin: "acme", expect: "tool" })).toThrow(/belongs to no plugin/);
  });

  it("offers both ways of writing a reference when refusing one", () => {
    let message = "";
    try {
      resolveReference("oz0_github.get.file", { plugin: "acme", expect: "function" });
    } catch (error) {
      if (isOz0Error(error, "INVALID_ADDRESS")) message = error.message;
    }
    expect(message).toBe(
      "'oz0_github.get.file' is not a valid function address: 'oz0_github.get.file' has 2 '.', but tool IDs and function names hold none, so exactly one '.' separates them. Write <tool>.<function> for a part of this plugin or <plugin>/<tool>.<function> for another plugin's, such as oz0_github.get_pull_request or github/oz0_github.get_pull_request.",
    );
  });

  it("refuses a pattern where a reference names one part", () => {
    expect(() => resolveReference("oz0_github.*", { plugin: "acme", expect: "function" })).toThrow(
      /'\*' makes a pattern/,
    );
  });

  it("refuses an invalid current plugin as the caller's mistake", () => {
    expect(() => resolveReference("review", { plugin: "Acme", expect: "agent" })).toThrow(
      expect.objectContaining({ code: "INVALID_NAME" }),
    );
  });
});

describe("resolvePattern", () => {
  it("reads a bare skill in an agent's skills: as its own plugin's", () => {
    expect(resolvePattern("research", { plugin: "acme", of: "skill" })).toEqual({
      address: { kind: "skill", plugin: "acme", name: "research" },
      bare: true,
    });
  });

  it("reads <plugin>/* in an agent's skills: as every skill of that plugin", () => {
    expect(resolvePattern("web/*", { plugin: "acme", of: "skill" })).toEqual({
      address: { kind: "plugin-wildcard", plugin: "web", of: "skill" },
      bare: false,
    });
  });

  it("reads a bare tool wildcard under a uses: key as that plugin's tool", () => {
    expect(resolvePattern("oz0_github.*", { plugin: "github", of: "function" })).toEqual({
      address: { kind: "tool-wildcard", plugin: "github", tool: "oz0_github" },
      bare: true,
    });
  });

  it("refuses a bare '*', which names no plugin", () => {
    expect(() => resolvePattern("*", { plugin: "acme", of: "skill" })).toThrow(/a bare '\*' names no plugin/);
  });
});
