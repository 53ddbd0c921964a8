// Memory: the store behind MemoryContext.db (JSON values by collection and key, with
// full-text search on SQLite and PostgreSQL) and the providers plugins register with addMemory.
export { MEMORY_LIMITS, type MemoryScope, StoreMemoryDatabase } from "./database.js";
export { MemoryProviders } from "./providers.js";
export { MAX_QUERY_WORDS, queryWords, searchableText } from "./text.js";
