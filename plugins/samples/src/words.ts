// Plain word matching for the cached search and the fact checks: lowercase words with accents
// folded (so "Belem" finds "Belém"), and the small words that say nothing left out.

const STOP_WORDS = new Set(
  "a an and are as at be by for from has have in is it its of on or the to was were with what when where which who how does do did".split(
    " ",
  ),
);

/** The words of `text` that carry meaning: lowercase, accents folded, stop words dropped. */
export function contentWords(text: string): string[] {
  const folded = text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
  return (folded.match(/[\p{L}\p{N}]+/gu) ?? []).filter((word) => !STOP_WORDS.has(word));
}

/** The share of `reference`'s words that `text` has too, from 0 to 1. */
export function coverage(text: readonly string[], reference: readonly string[]): number {
  const have = new Set(text);
  const wanted = [...new Set(reference)];
  if (wanted.length === 0) return 0;
  return wanted.filter((word) => have.has(word)).length / wanted.length;
}

/** Numbers (and ordinals such as 16th) in a list of words: a claim about another number is another claim. */
export function numbersIn(words: readonly string[]): string[] {
  return words.filter((word) => /^\d/.test(word)).sort();
}

/** Two-decimal rounding, for scores a person reads. */
export function round2(value: number): number {
  return Math.round(value * 100) / 100;
}
