// Migration 5: the storage memory providers get through MemoryContext.db: JSON values by
// collection and key, per tenant and plugin, with a full-text index over each value's text
// (SQLite FTS5 with the Porter stemmer; PostgreSQL's tsvector with the English configuration,
// which stems alike), so a provider's search runs in the database.
import { sql } from "kysely";
import type { Migration } from "./types.js";

export const memory: Migration = {
  version: 5,
  name: "memory",
  async up(db, { engine }) {
    if (engine === "postgres") {
      await sql`
        create table memory_items (
          tenant text not null references tenants (name),
          plugin text not null,
          collection text not null,
          key text not null,
          value text not null,
          text text not null,
          updated_at bigint not null,
          search tsvector generated always as (to_tsvector('english', text)) stored,
          constraint memory_items_pk primary key (tenant, plugin, collection, key)
        )`.execute(db);
      await sql`create index memory_items_search on memory_items using gin (search)`.execute(db);
      return;
    }
    // The integer id is the FTS index's row id: an explicit primary key keeps it stable
    // across VACUUM, which may renumber an implicit rowid.
    await sql`
      create table memory_items (
        id integer primary key,
        tenant text not null references tenants (name),
        plugin text not null,
        collection text not null,
        key text not null,
        value text not null,
        text text not null,
        updated_at bigint not null,
        constraint memory_items_key unique (tenant, plugin, collection, key)
      )`.execute(db);
    await sql`
      create virtual table memory_items_fts using fts5(
        text, content = 'memory_items', content_rowid = 'id',
        tokenize = 'porter unicode61 remove_diacritics 2'
      )`.execute(db);
    await sql`
      create trigger memory_items_fts_insert after insert on memory_items begin
        insert into memory_items_fts (rowid, text) values (new.id, new.text);
      end`.execute(db);
    await sql`
      create trigger memory_items_fts_delete after delete on memory_items begin
        insert into memory_items_fts (memory_items_fts, rowid, text) values ('delete', old.id, old.text);
      end`.execute(db);
    await sql`
      create trigger memory_items_fts_update after update on memory_items begin
        insert into memory_items_fts (memory_items_fts, rowid, text) values ('delete', old.id, old.text);
        insert into memory_items_fts (rowid, text) values (new.id, new.text);
      end`.execute(db);
  },
};
