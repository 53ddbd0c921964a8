// The samples' memory provider: notes kept on oz0's store through MemoryContext.db, searched
// with the store's full-text index (SQLite FTS5 or PostgreSQL tsvector, stemmed), so
// "museum" finds "museums". A new tenant's memory starts with the seed notes.
import { randomUUID } from "node:crypto";
import type { MemorySpec } from "@oz0/sdk";
import { SEED_NOTES } from "./seed.js";

type MemoryContext = Parameters<MemorySpec["build"]>[0];
type MemoryDb = MemoryContext["db"];
/** What a memory provider offers, as the SDK's MemorySpec builds it. */
export type NotesProvider = Awaited<ReturnType<MemorySpec["build"]>>;

/** The provider's name, as tools ask for it: `ctx.memory("notes")`. */
export const NOTES_MEMORY = "notes";
const NOTES = "notes";
const META = "meta";
const DEFAULT_LIMIT = 5;

interface StoredNote {
  readonly content: string;
  readonly metadata: Record<string, unknown>;
}

export const notesMemory: MemorySpec = {
  name: NOTES_MEMORY,
  async build(ctx) {
    await seedOnce(ctx.db);
    return notesProvider(ctx.db);
  },
};

/** A provider over `db`'s `notes` collection. */
export function notesProvider(db: MemoryDb): NotesProvider {
  return {
    async store(entry) {
      const key = entry.key ?? `note/${randomUUID()}`;
      const note: StoredNote = { content: entry.content, metadata: { ...(entry.metadata ?? {}) } };
      await db.put(NOTES, key, note);
      return { key, ...note };
    },
    async get(key) {
      const note = (await db.get(NOTES, key)) as StoredNote | undefined;
      return note === undefined ? undefined : { key, content: note.content, metadata: note.metadata };
    },
    async search(query, options) {
      const hits = await db.search(NOTES, query, { limit: options?.limit ?? DEFAULT_LIMIT });
      return hits.map((hit) => {
        const note = hit.value as StoredNote;
        return { key: hit.key, content: note.content, metadata: note.metadata, score: hit.score };
      });
    },
    forget: (key) => db.delete(NOTES, key),
  };
}

/** Writes the seed notes the first time a tenant's memory is built; a later forget stays forgotten. */
async function seedOnce(db: MemoryDb): Promise<void> {
  if ((await db.get(META, "seeded")) !== undefined) return;
  for (const note of SEED_NOTES)
    await db.put(NOTES, note.key, { content: note.content, metadata: note.metadata });
  await db.put(META, "seeded", true);
}
