// The indefinite article of a word in a message: "an agent address", "a flow address".

/**
 * `word` with "a" or "an" before it, by its first letter (the words messages use: part kinds,
 * registration labels, JavaScript type names).
 * @example withArticle("agent") // "an agent"
 */
export function withArticle(word: string): string {
  return `${/^[aeiou]/i.test(word) ? "an" : "a"} ${word}`;
}
