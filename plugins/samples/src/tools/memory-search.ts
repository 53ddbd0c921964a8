// memory_search: full-text search over the notes memory, best match first (stemmed, so
// "museums" finds "museum"; a note matches when it has any of the query's words).
import { notes, type ToolHandler } from "./handler.js";

export const search: ToolHandler<{ query: string; limit?: number }> = async (args, _call, ctx) => {
  const memory = await notes(ctx);
  const hits = await memory.search(args.query, { limit: args.limit ?? 5 });
  return {
    query: args.query,
    hits: hits.map((hit) => ({
      key: hit.key,
      content: hit.content,
      metadata: hit.metadata,
      score: Math.round(hit.score * 1000) / 1000,
    })),
  };
};
