// A job's events as server-sent events: each event's id is its seq, so a client that
// reconnects with Last-Event-ID gets exactly what came after; the stream follows the job until
// it ends, then closes with an `end` event carrying the job.
import type { JobEvent, JobView } from "@oz0/runtime";
import type { Context } from "hono";
import { streamSSE } from "hono/streaming";

const ENDED = new Set(["succeeded", "failed", "cancelled", "dead"]);

/** How long a quiet stream goes before a comment line keeps proxies from closing it. */
const KEEPALIVE_MS = 15_000;

interface EventsPage {
  readonly job: JobView;
  readonly events: readonly JobEvent[];
}

/** Whether the client asked for an event stream rather than JSON. */
export function wantsEventStream(accept: string | undefined): boolean {
  return accept !== undefined && /(^|,)\s*text\/event-stream\s*(;|,|$)/i.test(accept);
}

/** The seq a Last-Event-ID header names: undefined when absent, null when it is not a seq. */
export function lastEventId(header: string | undefined): number | undefined | null {
  if (header === undefined || header.trim() === "") return undefined;
  const text = header.trim();
  if (!/^\d{1,15}$/.test(text)) return null;
  return Number(text);
}

/**
 * Streams `start.page`'s events, then reads the job's next ones every `pollMs` until it has ended
 * and every event up to its end was sent. The job is read after its events, so an ended job's
 * last events are always among those read with it.
 */
export function followEvents(
  c: Context,
  start: { readonly after: number; readonly page: EventsPage },
  next: (afterSeq: number) => Promise<EventsPage>,
  pollMs: number,
): Response {
  return streamSSE(c, async (stream) => {
    let page = start.page;
    let after = start.after;
    let quiet = 0;
    for (;;) {
      for (const entry of page.events) {
        await stream.writeSSE({ id: String(entry.seq), event: entry.kind, data: JSON.stringify(entry) });
        after = entry.seq;
      }
      if (ENDED.has(page.job.status)) {
        await stream.writeSSE({ event: "end", data: JSON.stringify({ job: page.job }) });
        return;
      }
      if (stream.aborted || stream.closed) return;
      await stream.sleep(pollMs);
      quiet = page.events.length === 0 ? quiet + pollMs : 0;
      if (quiet >= KEEPALIVE_MS) {
        await stream.write(": keepalive\n\n");
        quiet = 0;
      }
      page = await next(after);
    }
  });
}
