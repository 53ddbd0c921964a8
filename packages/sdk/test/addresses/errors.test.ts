// Every malformed address is refused with INVALID_ADDRESS, a message that quotes it, says what
// was wrong, and shows the form expected with a correct example.
import { describe, expect, it } from "vitest";
import {
  parseAddress,
  parseFunctionAddress,
  parsePartAddress,
  parsePattern,
  parseToolAddress,
} from "../../src/addresses/index.js";
import { isOz0Error, type Oz0Error } from "../../src/errors/index.js";

function refusal(read: () => unknown): Oz0Error {
  try {
    read();
  } catch (error) {
    if (isOz0Error(error, "INVALID_ADDRESS")) return error;
    throw error;
  }
  throw new Error("expected an INVALID_ADDRESS error, but the input was accepted");
}

const FUNCTION_FIX = "Write <plugin>/<tool>.<function>, such as github/oz0_github.get_pull_request.";

describe("malformed function addresses", () => {
  const cases: [title: string, input: string, problem: string][] = [
    ["refuses an address with two slashes", "github//oz0_github.get_file", "it has 2 '/'"],
    ["refuses an address with a slash inside a name", "git/hub/oz0_github.get_file", "it has 2 '/'"],
    [
      "refuses an address with no slash where one is required",
      "oz0_github.get_pull_request",
      "it has no '/'",
    ],
    ["refuses an empty address", "", "it is empty"],
    ["refuses an empty plugin", "/oz0_github.get_file", "the plugin before the '/' is empty"],
    ["refuses an address with nothing after the slash", "github/", "nothing follows the '/'"],
    ["refuses an empty tool ID", "github/.get_file", "the tool ID before the '.' is empty"],
    ["refuses an empty function name", "github/oz0_github.", "the function name after the '.' is empty"],
    ["refuses a function address that names no function", "github/oz0_github", "it names no function"],
    ["refuses a dot inside a tool ID or function name, as a/b.c.d", "a/b.c.d", "'b.c.d' has 2 '.'"],
    ["refuses a space inside an address", "github/ oz0_github.get_file", "whitespace"],
    ["refuses a trailing newline", "github/oz0_github.get_file\n", "whitespace"],
    ["refuses a tab", "github/oz0_github.get\tfile", "whitespace"],
    ["refuses uppercase in a plugin name", "GitHub/oz0_github.get_file", "plugin name 'GitHub' must be"],
    ["refuses uppercase in a tool ID", "github/OZ0_github.get_file", "tool name 'OZ0_github' must be"],
    ["refuses '__' in a tool ID", "github/oz0__github.get_file", "tool name 'oz0__github' must be"],
    ["refuses a function name starting with '_'", "github/oz0_github._get", "function name '_get' must be"],
    [
      "refuses a plugin name with a leading dash",
      "-github/oz0_github.get_file",
      "plugin name '-github' must be",
    ],
    ["refuses a '*' where a pattern is not allowed", "github/oz0_github.*", "'*' makes a pattern"],
    ["refuses a plugin wildcard where a pattern is not allowed", "github/*", "'*' makes a pattern"],
    ["refuses the built-in tool under a plugin", "github/oz.delegate", "belongs to no plugin"],
    ["refuses a built-in with no function", "oz.", "the function name after the '.' is empty"],
    ["refuses a built-in with two dots", "oz.a.b", "'oz.a.b' has 2 '.'"],
    ["refuses a Cyrillic look-alike letter in a plugin name", "g\u0456thub/oz0_github.get_file", "U+0456"],
    ["refuses a control character", "github/oz0_github.get\u0000file", "U+0000"],
    ["refuses a tool ID longer than 64 characters", `github/t${"x".repeat(64)}.f`, "65 characters long"],
  ];

  for (const [title, input, problem] of cases) {
    it(title, () => {
      const error = refusal(() => parseFunctionAddress(input));
      expect(error.message).toContain(problem);
      expect(error.message).toContain("is not a valid function address");
      expect(error.message.endsWith(FUNCTION_FIX)).toBe(true);
      expect(error.data).toEqual({ input, form: "function" });
    });
  }
});

describe("malformed tool addresses", () => {
  it("refuses a dot in the tool ID position of a whole tool", () => {
    const error = refusal(() => parseToolAddress("github/oz0_github.get_file"));
    expect(error.message).toBe(
      "'github/oz0_github.get_file' is not a valid tool address: 'oz0_github.get_file' holds a '.', which a tool ID never does; a whole tool is named without a function. Write <plugin>/<tool>, such as github/oz0_github.",
    );
  });

  it("refuses a tool address with no slash", () => {
    expect(refusal(() => parseToolAddress("oz0_github")).message).toContain("it has no '/'");
  });

  it("refuses the built-in tool as a plugin's tool", () => {
    expect(refusal(() => parseToolAddress("github/oz")).message).toContain("belongs to no plugin");
  });

  it("refuses a '*' in a tool address", () => {
    expect(refusal(() => parseToolAddress("github/oz0_*")).message).toContain("'*' makes a pattern");
  });
});

describe("malformed agent, flow and skill addresses", () => {
  it("refuses an agent name with an underscore, with the name rule and an example agent address", () => {
    const error = refusal(() => parsePartAddress("github/oz0_github", "agent"));
    expect(error.message).toBe(
      "'github/oz0_github' is not a valid agent address: agent name 'oz0_github' must be lowercase letters, digits and single dashes, not starting or ending with a dash. Write <plugin>/<agent>, such as pr-reviewer/pr-reviewer.",
    );
  });

  it("refuses an agent address with no slash", () => {
    const error = refusal(() => parsePartAddress("pr-reviewer", "agent"));
    expect(error.message).toContain("it has no '/'");
    expect(error.data).toEqual({ input: "pr-reviewer", form: "agent" });
  });

  it("refuses a flow address with two slashes, with an example flow address", () => {
    const error = refusal(() => parseAddress("a/b/c", "flow"));
    expect(error.message).toContain("such as merge-when-green/merge-when-green.");
  });

  it("says 'an agent address' when a '*' is in one", () => {
    expect(refusal(() => parsePartAddress("github/*", "agent")).message).toContain(
      "'*' makes a pattern, and an agent address names exactly one agent",
    );
    expect(refusal(() => parsePartAddress("github/*", "flow")).message).toContain(
      "'*' makes a pattern, and a flow address names exactly one flow",
    );
  });

  it("refuses a skill wildcard where only one skill may be named", () => {
    expect(refusal(() => parsePartAddress("web/*", "skill")).message).toContain("'*' makes a pattern");
  });

  it("refuses an uppercase skill name, with an example skill address", () => {
    const error = refusal(() => parsePartAddress("web/Research", "skill"));
    expect(error.message).toContain("skill name 'Research' must be");
    expect(error.message).toContain("such as web/research.");
  });
});

describe("malformed patterns", () => {
  const cases: [title: string, input: string, problem: string][] = [
    ["refuses a '*' inside a plugin name, as gi*thub/x", "gi*thub/x", "'*' cannot stand for a plugin"],
    ["refuses a '*' for the plugin", "*/oz0_github.get_file", "'*' cannot stand for a plugin"],
    [
      "refuses a '*' inside a tool ID, as github/oz0_*hub.x",
      "github/oz0_*hub.x",
      "'*' cannot stand for a tool ID",
    ],
    ["refuses a '*' for the tool ID", "github/*.get_file", "'*' cannot stand for a tool ID"],
    [
      "refuses a '*' inside a function name",
      "github/oz0_github.get_*",
      "write oz0_github.* for every function",
    ],
    ["refuses a pattern with no plugin", "*", "it has no '/'"],
    ["refuses a tool wildcard with no plugin", "oz0_github.*", "it has no '/'"],
    ["refuses a '**' wildcard", "github/**", "'*' stands alone after the '/', as github/*"],
    ["refuses a whole tool written as a function pattern", "github/oz0_github", "it names no function"],
  ];

  for (const [title, input, problem] of cases) {
    it(title, () => {
      const error = refusal(() => parsePattern(input));
      expect(error.message).toContain(problem);
      expect(error.message).toContain("is not a valid function pattern");
      expect(error.message).toContain("Write <plugin>/<tool>.<function>, <plugin>/<tool>.* or <plugin>/*");
      expect(error.data).toEqual({ input, form: "function pattern" });
    });
  }

  it("refuses a '*' inside a skill name", () => {
    const error = refusal(() => parsePattern("web/re*", "skill"));
    expect(error.message).toBe(
      "'web/re*' is not a valid skill pattern: '*' cannot stand for part of a name; write web/* for every skill of web. Write <plugin>/<skill> or <plugin>/*, such as web/*.",
    );
  });
});

describe("how a refused input is quoted", () => {
  it("quotes the input with its escapes when it holds control characters", () => {
    expect(refusal(() => parseFunctionAddress("a\u0007/b.c")).message.startsWith('"a\\u0007/b.c"')).toBe(
      true,
    );
  });

  it("shortens a very long input in the message but keeps it whole in the error's data", () => {
    const input = `${"a".repeat(500)}/b.c`;
    const error = refusal(() => parseFunctionAddress(input));
    expect(error.message.length).toBeLessThan(500);
    expect(error.data).toMatchObject({ input });
  });

  it("is a user error, not a platform fault", () => {
    expect(refusal(() => parseFunctionAddress("x")).side).toBe("user");
  });
});
