// Evaluates arithmetic by recursive descent over the tokens, computing as it parses: no
// code is generated or run. Grammar, loosest binding first:
//   expression := term (("+" | "-") term)*
//   term       := unary (("*" | "/" | "%") unary)*
//   unary      := ("+" | "-") unary | power
//   power      := primary ("^" unary)?        (right-associative; -2^2 is -4)
//   primary    := number | constant | function "(" expression ("," expression)* ")" | "(" expression ")"
import { badArgument, limitExceeded } from "../errors.js";
import { type Token, tokenize } from "./tokenize.js";

/** At most this many characters of expression. */
export const MAX_EXPRESSION_LENGTH = 1_000;
/** At most this many nested parentheses, signs and powers. */
export const MAX_DEPTH = 50;

export const CONSTANTS: Readonly<Record<string, number>> = { pi: Math.PI, π: Math.PI, e: Math.E };

interface MathFunction {
  readonly arity: readonly [min: number, max: number];
  apply(args: readonly number[]): number;
}

const unary = (apply: (x: number) => number): MathFunction => ({
  arity: [1, 1],
  apply: (args) => apply(args[0]!),
});

export const FUNCTIONS: Readonly<Record<string, MathFunction>> = {
  sqrt: unary(Math.sqrt),
  abs: unary(Math.abs),
  min: { arity: [1, Number.POSITIVE_INFINITY], apply: (args) => Math.min(...args) },
  max: { arity: [1, Number.POSITIVE_INFINITY], apply: (args) => Math.max(...args) },
  round: { arity: [1, 2], apply: ([x, digits = 0]) => roundTo(x!, digits) },
  floor: unary(Math.floor),
  ceil: unary(Math.ceil),
  exp: unary(Math.exp),
  ln: unary(Math.log),
  log: {
    arity: [1, 2],
    apply: ([x, base]) => (base === undefined ? Math.log(x!) : Math.log(x!) / Math.log(base)),
  },
  log10: unary(Math.log10),
  log2: unary(Math.log2),
  sin: unary(Math.sin),
  cos: unary(Math.cos),
  tan: unary(Math.tan),
  asin: unary(Math.asin),
  acos: unary(Math.acos),
  atan: unary(Math.atan),
};

/**
 * The value of an arithmetic expression. Throws INVALID_INPUT naming the position of the
 * first problem, or LIMIT_EXCEEDED past the length or depth bound.
 * @example evaluate("2 + 3 * 4") // 14
 */
export function evaluate(expression: string): number {
  if (expression.length > MAX_EXPRESSION_LENGTH) {
    throw limitExceeded(
      `expression: ${expression.length} characters long; at most ${MAX_EXPRESSION_LENGTH} are allowed.`,
      { limit: "expression length", max: MAX_EXPRESSION_LENGTH, unit: "characters" },
    );
  }
  const tokens = tokenize(expression);
  if (tokens[0]?.kind === "end")
    throw badArgument("expression", "the expression is empty; write one such as 2 + 3 * 4.");
  const parser = new Parser(tokens);
  const value = parser.expression();
  parser.expectEnd();
  return tidy(value);
}

class Parser {
  private readonly tokens: readonly Token[];
  private index = 0;
  private depth = 0;

  constructor(tokens: readonly Token[]) {
    this.tokens = tokens;
  }

  expression(): number {
    let value = this.term();
    for (let op = this.peek(); op.text === "+" || op.text === "-"; op = this.peek()) {
      this.index++;
      const right = this.term();
      value = finite(op.text === "+" ? value + right : value - right, op);
    }
    return value;
  }

  private term(): number {
    let value = this.unary();
    for (let op = this.peek(); op.text === "*" || op.text === "/" || op.text === "%"; op = this.peek()) {
      this.index++;
      const right = this.unary();
      if (op.text !== "*" && right === 0) {
        const what = op.text === "/" ? "division" : "modulo";
        throw badArgument("expression", `${what} by zero at position ${op.position}.`);
      }
      // Modulo takes the divisor's sign, as in Python and in mathematics: -7 % 3 is 2.
      const result =
        op.text === "*"
          ? value * right
          : op.text === "/"
            ? value / right
            : value - right * Math.floor(value / right);
      value = finite(result, op);
    }
    return value;
  }

  private unary(): number {
    this.enter();
    const sign = this.peek();
    let value: number;
    if (sign.text === "-" || sign.text === "+") {
      this.index++;
      const operand = this.unary();
      value = sign.text === "-" ? -operand : operand;
    } else {
      value = this.power();
    }
    this.depth--;
    return value;
  }

  private power(): number {
    const base = this.primary();
    const op = this.peek();
    if (op.text !== "^") return base;
    this.index++;
    return finite(base ** this.unary(), op);
  }

  private primary(): number {
    const token = this.next();
    if (token.kind === "number") {
      if (!Number.isFinite(token.value))
        throw badArgument(
          "expression",
          `the number ${token.text} at position ${token.position} is too large.`,
        );
      return token.value;
    }
    if (token.text === "(") {
      const value = this.expression();
      this.expect(")", `to close the '(' at position ${token.position}`);
      return value;
    }
    if (token.kind === "name") return this.named(token);
    throw this.unexpected(token, "a number, a name or '('");
  }

  private named(token: Token): number {
    const name = token.text.toLowerCase();
    const constant = CONSTANTS[name];
    const fn = Object.hasOwn(FUNCTIONS, name) ? FUNCTIONS[name] : undefined;
    if (constant !== undefined) {
      if (this.peek().text === "(")
        throw badArgument(
          "expression",
          `${token.text} at position ${token.position} is a constant, not a function; write ${token.text}*(…) to multiply.`,
        );
      return constant;
    }
    if (fn === undefined) {
      throw badArgument(
        "expression",
        `unknown name '${token.text}' at position ${token.position}. Functions: ${Object.keys(FUNCTIONS).join(", ")}; constants: pi, e.`,
      );
    }
    this.expect("(", `after ${name} at position ${token.position}: call it as ${name}(x)`);
    const args = [this.expression()];
    while (this.peek().text === ",") {
      this.index++;
      args.push(this.expression());
    }
    this.expect(")", `to close ${name}( at position ${token.position}`);
    const [min, max] = fn.arity;
    if (args.length < min || args.length > max) {
      const takes =
        min === max ? `${min}` : max === Number.POSITIVE_INFINITY ? `at least ${min}` : `${min} or ${max}`;
      throw badArgument(
        "expression",
        `${name} at position ${token.position} takes ${takes} argument${max === 1 ? "" : "s"}, not ${args.length}.`,
      );
    }
    return finite(fn.apply(args), token, `${name}(${args.join(", ")})`);
  }

  expectEnd(): void {
    const token = this.peek();
    if (token.kind !== "end") throw this.unexpected(token, "an operator or the end of the expression");
  }

  private expect(text: string, why: string): void {
    const token = this.next();
    if (token.text !== text) throw this.unexpected(token, `'${text}' ${why}`);
  }

  private unexpected(token: Token, expected: string) {
    if (token.kind === "end")
      return badArgument("expression", `the expression ends too soon; expected ${expected}.`);
    return badArgument(
      "expression",
      `unexpected '${token.text}' at position ${token.position}; expected ${expected}.`,
    );
  }

  private enter(): void {
    if (++this.depth > MAX_DEPTH) {
      throw limitExceeded(
        `expression: nests more than ${MAX_DEPTH} levels of parentheses, signs and powers.`,
        {
          limit: "expression depth",
          max: MAX_DEPTH,
          unit: "levels",
        },
      );
    }
  }

  private peek(): Token {
    return this.tokens[this.index]!;
  }

  private next(): Token {
    const token = this.tokens[this.index]!;
    if (token.kind !== "end") this.index++;
    return token;
  }
}

/** `value`, or INVALID_INPUT when an operation gave infinity or no number. */
function finite(value: number, at: Token, what = `'${at.text}'`): number {
  if (Number.isFinite(value)) return value;
  const why = Number.isNaN(value) ? "is undefined (outside its domain)" : "is too large (overflow)";
  throw badArgument("expression", `${what} at position ${at.position} ${why}.`);
}

/** Rounds half away from zero to `digits` decimals, through decimal exponents so 1.005 rounds to 1.01. */
function roundTo(x: number, digits: number): number {
  if (!Number.isInteger(digits) || Math.abs(digits) > 15) return Number.NaN;
  const shift = (value: number, by: number): number => {
    const [mantissa, exponent = "0"] = String(value).split("e");
    return Number(`${mantissa}e${Number(exponent) + by}`);
  };
  return Math.sign(x) * shift(Math.round(shift(Math.abs(x), digits)), -digits);
}

/** Integers exactly; fractions to 15 significant digits, so 0.1 + 0.2 is 0.3. */
function tidy(value: number): number {
  if (Object.is(value, -0)) return 0;
  return Number.isInteger(value) ? value : Number(value.toPrecision(15));
}
