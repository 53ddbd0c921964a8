// Resumable SSE streams for the Streamable HTTP transport: every message sent on a session's
// streams is kept (the last EVENTS_KEPT of them), so a client that lost its stream reconnects
// with `Last-Event-ID` and gets what it missed. One store per session, in memory: a session
// lives only as long as the `oz0 mcp serve` process that holds it.
import type { EventStore } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/** How many messages a session keeps for replay; older ones are gone for a late reconnect. */
export const EVENTS_KEPT = 1_000;

export class SessionEventStore implements EventStore {
  readonly #events = new Map<string, { readonly stream: string; readonly message: JSONRPCMessage }>();
  #next = 0;

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    this.#next += 1;
    const id = `${this.#next}@${streamId}`;
    this.#events.set(id, { stream: streamId, message });
    if (this.#events.size > EVENTS_KEPT) {
      const oldest = this.#events.keys().next().value;
      if (oldest !== undefined) this.#events.delete(oldest);
    }
    return id;
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return this.#events.get(eventId)?.stream;
  }

  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const last = this.#events.get(lastEventId);
    if (last === undefined) return "";
    let after = false;
    for (const [id, entry] of this.#events) {
      if (id === lastEventId) {
        after = true;
        continue;
      }
      if (after && entry.stream === last.stream) await send(id, entry.message);
    }
    return last.stream;
  }
}
