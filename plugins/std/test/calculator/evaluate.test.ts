// The calculator: precedence, functions and constants, and a clear error with a position for anything else.
import { describe, expect, it } from "vitest";
import { evaluate, MAX_DEPTH, MAX_EXPRESSION_LENGTH } from "../../src/calculator/index.js";
import { call, callError, loadStd } from "../helpers.js";

describe("calculator.evaluate", () => {
  it("evaluates the spec's example 2 + 3 * 4 with precedence", async () => {
    const host = await loadStd();
    expect(await call(host, "calculator.evaluate", { expression: "2 + 3 * 4" })).toEqual({ result: 14 });
  });

  it("refuses anything but arithmetic with a clear error, and never evaluates it as code", async () => {
    const host = await loadStd();
    const attempts = [
      "process.exit(1)",
      "constructor.constructor('return 1')()",
      "require('fs')",
      "x = 1",
      "'a' + 1",
      "1; 2",
    ];
    for (const expression of attempts) {
      const error = await callError(host, "calculator.evaluate", { expression });
      expect(error.code, expression).toBe("INVALID_INPUT");
      expect(error.message, expression).toMatch(/^expression: .* at position \d+/);
    }
  });
});

describe("evaluate", () => {
  it("applies + - * / % ^ with the usual precedence and associativity", () => {
    expect(evaluate("1 + 2 * 3 - 4 / 2")).toBe(5);
    expect(evaluate("10 - 4 - 3")).toBe(3);
    expect(evaluate("2 ^ 3 ^ 2")).toBe(512);
    expect(evaluate("2 ** 10")).toBe(1024);
    expect(evaluate("7 % 3 + 2 * (1 + 1)")).toBe(5);
  });

  it("gives unary minus less binding than a power, so -2^2 is -4 and 2^-1 is 0.5", () => {
    expect(evaluate("-2^2")).toBe(-4);
    expect(evaluate("(-2)^2")).toBe(4);
    expect(evaluate("2^-1")).toBe(0.5);
    expect(evaluate("--3")).toBe(3);
    expect(evaluate("-(1 + 2) * +4")).toBe(-12);
  });

  it("takes modulo with the divisor's sign", () => {
    expect(evaluate("-7 % 3")).toBe(2);
    expect(evaluate("7 % -3")).toBe(-2);
    expect(evaluate("7.5 % 2")).toBe(1.5);
  });

  it("reads numbers with decimals and exponents", () => {
    expect(evaluate("1.5 + .5")).toBe(2);
    expect(evaluate("1.5e3 + 2E-1")).toBe(1500.2);
    expect(evaluate("3.")).toBe(3);
  });

  it("offers sqrt, abs, min, max, round, floor, ceil, logs and trigonometry, and the constants pi and e", () => {
    expect(evaluate("sqrt(16) + abs(-3)")).toBe(7);
    expect(evaluate("min(4, 2, 8) + max(1, 9)")).toBe(11);
    expect(evaluate("round(2.567, 2)")).toBe(2.57);
    expect(evaluate("round(2.5) + round(-2.5)")).toBe(0);
    expect(evaluate("round(1.005, 2)")).toBe(1.01);
    expect(evaluate("round(1234.5, -2)")).toBe(1200);
    expect(evaluate("floor(2.7) + ceil(2.1)")).toBe(5);
    expect(evaluate("log(e) + ln(1) + log10(1000) + log2(8) + log(8, 2)")).toBe(10);
    expect(evaluate("sin(pi / 2) + cos(0)")).toBe(2);
    expect(evaluate("PI")).toBe(Number(Math.PI.toPrecision(15)));
  });

  it("gives fractions to 15 significant digits, so 0.1 + 0.2 is 0.3", () => {
    expect(evaluate("0.1 + 0.2")).toBe(0.3);
    expect(evaluate("1 / 3")).toBe(0.333333333333333);
    expect(evaluate("2 ^ 53 + 1")).toBe(2 ** 53);
  });

  it("accepts the signs × ÷ − a person types", () => {
    expect(evaluate("6 × 7 ÷ 2 − 1")).toBe(20);
  });

  it("refuses division and modulo by zero, naming the operator's position", () => {
    expect(() => evaluate("1 + 4 / (2 - 2)")).toThrow("expression: division by zero at position 7.");
    expect(() => evaluate("4 % 0")).toThrow("expression: modulo by zero at position 3.");
  });

  it("refuses overflow and results outside a function's domain", () => {
    expect(() => evaluate("10 ^ 400")).toThrow("'^' at position 4 is too large (overflow).");
    expect(() => evaluate("sqrt(-1)")).toThrow("sqrt(-1) at position 1 is undefined (outside its domain).");
    expect(() => evaluate("ln(0)")).toThrow("ln(0) at position 1 is too large (overflow).");
  });

  it("refuses a stray character, an unknown name, a missing parenthesis and a missing operator, each with its position", () => {
    expect(() => evaluate("2 + $")).toThrow("expression: unexpected character '$' at position 5.");
    expect(() => evaluate("2 * foo(3)")).toThrow("unknown name 'foo' at position 5. Functions: sqrt, abs");
    expect(() => evaluate("(1 + 2")).toThrow(
      "the expression ends too soon; expected ')' to close the '(' at position 1.",
    );
    expect(() => evaluate("2 3")).toThrow(
      "unexpected '3' at position 3; expected an operator or the end of the expression.",
    );
    expect(() => evaluate("2(3)")).toThrow("unexpected '(' at position 2");
    expect(() => evaluate("1 +")).toThrow("expected a number, a name or '('");
    expect(() => evaluate("")).toThrow("the expression is empty");
  });

  it("refuses a function without parentheses, a constant called as one, and the wrong number of arguments", () => {
    expect(() => evaluate("sqrt 4")).toThrow("expected '(' after sqrt at position 1: call it as sqrt(x)");
    expect(() => evaluate("pi(2)")).toThrow("pi at position 1 is a constant, not a function");
    expect(() => evaluate("round(1, 2, 3)")).toThrow("round at position 1 takes 1 or 2 arguments, not 3.");
    expect(() => evaluate("sqrt(1, 2)")).toThrow("sqrt at position 1 takes 1 argument, not 2.");
  });

  it(`refuses an expression longer than ${MAX_EXPRESSION_LENGTH} characters`, async () => {
    expect(() => evaluate("1+".repeat(600))).toThrow(expect.objectContaining({ code: "LIMIT_EXCEEDED" }));
    const host = await loadStd();
    const error = await callError(host, "calculator.evaluate", {
      expression: "1".repeat(MAX_EXPRESSION_LENGTH + 1),
    });
    expect(error.code).toBe("INVALID_INPUT");
  });

  it(`refuses nesting deeper than ${MAX_DEPTH} levels instead of overflowing the stack`, () => {
    const nested = `${"(".repeat(MAX_DEPTH + 1)}1${")".repeat(MAX_DEPTH + 1)}`;
    expect(() => evaluate(nested)).toThrow(expect.objectContaining({ code: "LIMIT_EXCEEDED" }));
    expect(() => evaluate(`${"-".repeat(MAX_DEPTH + 1)}1`)).toThrow(
      expect.objectContaining({ code: "LIMIT_EXCEEDED" }),
    );
    const fits = `${"(".repeat(MAX_DEPTH - 1)}1${")".repeat(MAX_DEPTH - 1)}`;
    expect(evaluate(fits)).toBe(1);
  });
});
