// Splits an arithmetic expression into tokens by hand, so nothing a model writes is ever
// evaluated as code; every token keeps its 1-based position for error messages.
import { badArgument } from "../errors.js";

export type Token =
  | { readonly kind: "number"; readonly value: number; readonly text: string; readonly position: number }
  | { readonly kind: "name"; readonly text: string; readonly position: number }
  | { readonly kind: "symbol"; readonly text: SymbolText; readonly position: number }
  | { readonly kind: "end"; readonly text: ""; readonly position: number };

export type SymbolText = "+" | "-" | "*" | "/" | "%" | "^" | "(" | ")" | ",";

/** Other spellings a person or a model types, mapped to ours. */
const ALIASES: Readonly<Record<string, SymbolText>> = {
  "**": "^",
  "×": "*",
  "·": "*",
  "÷": "/",
  "−": "-",
};
const SYMBOLS = new Set<string>(["+", "-", "*", "/", "%", "^", "(", ")", ","]);
const NUMBER = /(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/y;
const NAME = /[A-Za-z_π][A-Za-z0-9_]*/y;
const SPACE = /\s/;

/** The tokens of `source`, ending with an `end` token; throws INVALID_INPUT at a stray character. */
export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const char = source[i]!;
    const position = i + 1;
    if (SPACE.test(char)) {
      i++;
      continue;
    }
    const alias = ALIASES[source.slice(i, i + 2)] ?? ALIASES[char];
    if (alias !== undefined) {
      tokens.push({ kind: "symbol", text: alias, position });
      i += source.startsWith("**", i) ? 2 : 1;
      continue;
    }
    if (SYMBOLS.has(char)) {
      tokens.push({ kind: "symbol", text: char as SymbolText, position });
      i++;
      continue;
    }
    const number = match(NUMBER, source, i);
    if (number !== undefined) {
      tokens.push({ kind: "number", value: Number(number), text: number, position });
      i += number.length;
      continue;
    }
    const name = match(NAME, source, i);
    if (name !== undefined) {
      tokens.push({ kind: "name", text: name, position });
      i += name.length;
      continue;
    }
    throw badArgument(
      "expression",
      `unexpected character '${char}' at position ${position}. Use numbers, + - * / % ^, parentheses and the functions and constants listed in the description.`,
    );
  }
  tokens.push({ kind: "end", text: "", position: source.length + 1 });
  return tokens;
}

function match(pattern: RegExp, source: string, at: number): string | undefined {
  pattern.lastIndex = at;
  return pattern.exec(source)?.[0];
}
