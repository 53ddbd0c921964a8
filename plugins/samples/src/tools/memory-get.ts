// memory_get: one note of the notes memory by its key, or `found: false`.
import { notes, type ToolHandler } from "./handler.js";

export const get: ToolHandler<{ key: string }> = async (args, _call, ctx) => {
  const memory = await notes(ctx);
  const entry = await memory.get(args.key);
  return entry === undefined
    ? { key: args.key, found: false }
    : { key: entry.key, found: true, content: entry.content, metadata: entry.metadata };
};
