// The names a model sees: `<tool>__<function>`, within each provider's limit, and mapping back
// to exactly one function.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isOz0Error } from "../../src/errors/index.js";
import {
  assertModelNameFits,
  fitsModelNameLimit,
  isValidName,
  MODEL_NAME_LIMIT,
  MODEL_NAME_LIMITS,
  MODEL_NAME_SEPARATOR,
  modelVisibleName,
  parseModelVisibleName,
} from "../../src/names/index.js";

describe("model-visible names", () => {
  it("shows a function as <tool>__<function>, never with its plugin", () => {
    expect(MODEL_NAME_SEPARATOR).toBe("__");
    expect(modelVisibleName("oz0_github", "get_pull_request")).toBe("oz0_github__get_pull_request");
  });

  it("shows a built-in such as oz.fail as oz__fail", () => {
    expect(modelVisibleName("oz", "fail")).toBe("oz__fail");
  });
});

describe("provider limits", () => {
  it("is 64 characters for OpenAI's formats and 128 for Anthropic's Messages API", () => {
    expect(MODEL_NAME_LIMITS).toEqual({ openai: 64, anthropic: 128 });
    expect(MODEL_NAME_LIMIT).toBe(64);
  });

  it("fits a name of exactly 64 characters for OpenAI, and not one of 65", () => {
    expect(fitsModelNameLimit("t".repeat(31), "f".repeat(31))).toBe(true);
    expect(fitsModelNameLimit("t".repeat(31), "f".repeat(32))).toBe(false);
  });

  it("fits a name of 65 to 128 characters for Anthropic, and not one of 129", () => {
    expect(fitsModelNameLimit("t".repeat(31), "f".repeat(32), "anthropic")).toBe(true);
    expect(fitsModelNameLimit("t".repeat(63), "f".repeat(63), "anthropic")).toBe(true);
    expect(fitsModelNameLimit("t".repeat(63), "f".repeat(64), "anthropic")).toBe(false);
  });

  it("throws MODEL_NAME_TOO_LONG for a name over the limit, saying which function and how to fix it", () => {
    const tool = "t".repeat(40);
    const fn = "f".repeat(40);
    let caught: unknown;
    try {
      assertModelNameFits(tool, fn);
    } catch (error) {
      caught = error;
    }
    expect(isOz0Error(caught, "MODEL_NAME_TOO_LONG")).toBe(true);
    expect(caught).toMatchObject({
      data: { name: `${tool}__${fn}`, length: 82, limit: 64 },
      message: expect.stringContaining("Shorten the tool ID or the function name."),
    });
    expect(() => assertModelNameFits(tool, fn, "anthropic")).not.toThrow();
  });
});

describe("parseModelVisibleName", () => {
  it("maps oz0_github__get_pull_request back to its tool and function", () => {
    expect(parseModelVisibleName("oz0_github__get_pull_request")).toEqual({
      tool: "oz0_github",
      function: "get_pull_request",
    });
  });

  it("gives undefined for a name with no '__', or nothing before or after it", () => {
    expect(parseModelVisibleName("get_pull_request")).toBeUndefined();
    expect(parseModelVisibleName("__get")).toBeUndefined();
    expect(parseModelVisibleName("oz0_github__")).toBeUndefined();
  });

  it("maps every model-visible name of valid names back to exactly the function it came from", () => {
    const tool = fc.stringMatching(/^[a-z][a-z0-9-]*(?:_[a-z0-9-]+)*$/).filter((t) => isValidName("tool", t));
    const fn = fc
      .stringMatching(/^[A-Za-z][A-Za-z0-9-]*(?:_[A-Za-z0-9-]+)*$/)
      .filter((f) => isValidName("function", f));
    fc.assert(
      fc.property(tool, fn, (t, f) => {
        expect(parseModelVisibleName(modelVisibleName(t, f))).toEqual({ tool: t, function: f });
      }),
    );
  });
});
