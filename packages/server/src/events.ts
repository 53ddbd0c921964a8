// A job's events as server-sent events: each event's id is its seq, so a client that
// reconnects with Last-Event-ID gets exactly what came after; between them, while a step runs,
// `delta` frames carry the model's text as it streams, with no id (they are not stored, and a
// resumed stream starts from a seq). The stream follows the job until it ends, then closes with
// an `end` event carrying the job. What to send, and when, is the runtime's
// (`runtime.services.jobs.follow`); this writes it.
import type { FollowItem } from "@oz0/runtime";
import type { Context } from "hono";
import { streamSSE } from "hono/streaming";

/** How long a quiet stream goes before a comment line keeps proxies from closing it. */
const KEEPALIVE_MS = 15_000;

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
 * Writes what following the job gives as server-sent events until it ends; `stop` ends the
 * following when the client goes away.
 */
export function followEvents(
  c: Context,
  items: AsyncGenerator<FollowItem, void, undefined>,
  stop: AbortController,
): Response {
  return streamSSE(c, async (stream) => {
    stream.onAbort(() => stop.abort());
    try {
      let next = items.next();
      for (;;) {
        const result = await quietFor(next, KEEPALIVE_MS);
        if (result === "quiet") {
          await stream.write(": keepalive\n\n");
          continue;
        }
        if (result.done === true) return;
        await stream.writeSSE(frame(result.value));
        if (stream.aborted || stream.closed) return;
        next = items.next();
      }
    } finally {
      stop.abort();
      await items.return(undefined);
    }
  });
}

function frame(item: FollowItem): { id?: string; event: string; data: string } {
  switch (item.kind) {
    case "event":
      return { id: String(item.event.seq), event: item.event.kind, data: JSON.stringify(item.event) };
    case "delta":
      return { event: "delta", data: JSON.stringify({ step: item.step, text: item.text }) };
    case "end":
      return { event: "end", data: JSON.stringify({ job: item.job }) };
  }
}

/** What `pending` resolves to, or "quiet" once `ms` pass first (it is still pending then). */
async function quietFor<T>(pending: Promise<T>, ms: number): Promise<T | "quiet"> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      pending,
      new Promise<"quiet">((resolve) => {
        timer = setTimeout(() => resolve("quiet"), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
