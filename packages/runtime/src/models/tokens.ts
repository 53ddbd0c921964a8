// Token estimates for budgets and traces, without a tokenizer: about four characters a token,
// the rule of thumb for English text and JSON in the common tokenizers.
const CHARS_PER_TOKEN = 4;

/** Estimated tokens of a text. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/** Estimated tokens of any value as the model would read it (text as is, the rest as JSON). */
export function estimateValueTokens(value: unknown): number {
  if (value === undefined) return 0;
  return estimateTokens(typeof value === "string" ? value : (JSON.stringify(value) ?? ""));
}
