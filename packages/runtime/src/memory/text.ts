// What the full-text index reads from a stored value, and the words a search looks for. Both
// engines index the same text, and a query is reduced to plain words before either sees it,
// so no query can be a syntax error in FTS5's or PostgreSQL's query language.

/** At most this many distinct words of a query are searched for. */
export const MAX_QUERY_WORDS = 32;

/**
 * Every string in `value`, in document order, one per line: a string is itself, an object or
 * list contributes the strings inside it (not its keys), numbers and booleans nothing.
 * @example searchableText({ content: "Tram 28", metadata: { tags: ["lisbon"] } }) // "Tram 28\nlisbon"
 */
export function searchableText(value: unknown): string {
  const found: string[] = [];
  const visit = (item: unknown) => {
    if (typeof item === "string") found.push(item);
    else if (Array.isArray(item)) item.forEach(visit);
    else if (typeof item === "object" && item !== null) Object.values(item).forEach(visit);
  };
  visit(value);
  return found.join("\n");
}

/** The distinct words of a query, lowercased: runs of letters and digits. */
export function queryWords(query: string): string[] {
  const words = query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words)].slice(0, MAX_QUERY_WORDS);
}
