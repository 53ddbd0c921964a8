// web_search: answers from the search results cached in data/web-cache.json, so tutorials and
// benchmarks get the same results every time, offline. A query not in the cache gets the
// cached query closest to it, or nothing.
import { readData } from "../data.js";
import { contentWords, coverage, round2 } from "../words.js";
import type { ToolHandler } from "./handler.js";

interface WebResult {
  readonly title: string;
  readonly url: string;
  readonly snippet: string;
}

interface WebCache {
  readonly fetched: string;
  readonly entries: readonly { readonly query: string; readonly results: readonly WebResult[] }[];
}

/** How much of a cached query a search must share to be answered with its results. */
const CLOSEST_AT_LEAST = 0.5;

export const search: ToolHandler<{ query: string; limit?: number }> = async (args) => {
  const cache = await readData<WebCache>("web-cache.json");
  const limit = args.limit ?? 5;
  const asked = contentWords(args.query);
  let best: { entry: WebCache["entries"][number]; score: number } | undefined;
  for (const entry of cache.entries) {
    const cached = contentWords(entry.query);
    // Both ways, so neither a longer nor a shorter query matches by itself.
    const score = Math.min(coverage(asked, cached), coverage(cached, asked));
    if (best === undefined || score > best.score) best = { entry, score };
  }
  if (best === undefined || best.score < CLOSEST_AT_LEAST) {
    return { query: args.query, match: "none", cached_query: null, fetched: cache.fetched, results: [] };
  }
  return {
    query: args.query,
    match: best.score === 1 ? "exact" : "closest",
    cached_query: best.entry.query,
    similarity: round2(best.score),
    fetched: cache.fetched,
    results: best.entry.results.slice(0, limit),
  };
};
