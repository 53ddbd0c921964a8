// Migration 18: channels. `channel_messages` is each message a channel received and the answer
// it gets, one row from arrival to delivery: `inbound` (verified and stored before the sender is
// answered), `answering` (its job or chat turn runs), `delivering` (the answer is fixed in the
// row and sent through the channel's deliver, retried with backoff), then `delivered` or
// `failed`. A worker claims a row with a lease (`lease_owner`, `lease_until`), so two nodes never
// work one row at once. `event_key` is unique per channel: a replayed event is stored once.
// `channel_threads` is the conversation a thread is: the chat job its messages are turns of.
import type { Migration } from "./types.js";

export const channels: Migration = {
  version: 18,
  name: "channels",
  async up(db) {
    await db.schema
      .createTable("channel_messages")
      .addColumn("id", "text", (column) => column.primaryKey())
      .addColumn("tenant", "text", (column) => column.notNull().references("tenants.name"))
      .addColumn("plugin", "text", (column) => column.notNull())
      .addColumn("channel", "text", (column) => column.notNull())
      .addColumn("event_key", "text", (column) => column.notNull())
      .addColumn("thread_key", "text")
      .addColumn("envelope", "text", (column) => column.notNull())
      .addColumn("state", "text", (column) => column.notNull())
      .addColumn("job", "text")
      .addColumn("after_seq", "integer", (column) => column.notNull().defaultTo(0))
      .addColumn("response", "text")
      .addColumn("attempts", "integer", (column) => column.notNull().defaultTo(0))
      .addColumn("next_at", "bigint", (column) => column.notNull())
      .addColumn("lease_owner", "text")
      .addColumn("lease_until", "bigint")
      .addColumn("last_error", "text")
      .addColumn("created_at", "bigint", (column) => column.notNull())
      .addColumn("updated_at", "bigint", (column) => column.notNull())
      .execute();
    await db.schema
      .createIndex("channel_messages_event")
      .on("channel_messages")
      .columns(["tenant", "plugin", "channel", "event_key"])
      .unique()
      .execute();
    await db.schema
      .createIndex("channel_messages_due")
      .on("channel_messages")
      .columns(["state", "next_at"])
      .execute();
    await db.schema
      .createTable("channel_threads")
      .addColumn("tenant", "text", (column) => column.notNull().references("tenants.name"))
      .addColumn("plugin", "text", (column) => column.notNull())
      .addColumn("channel", "text", (column) => column.notNull())
      .addColumn("thread_key", "text", (column) => column.notNull())
      .addColumn("job", "text", (column) => column.notNull())
      .addColumn("updated_at", "bigint", (column) => column.notNull())
      .addPrimaryKeyConstraint("channel_threads_pkey", ["tenant", "plugin", "channel", "thread_key"])
      .execute();
  },
};
