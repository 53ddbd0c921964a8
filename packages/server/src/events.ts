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

/** How much text is gathered before it is written even while more is ready (a long history). */
const BATCH_CHARS = 64 * 1024;
/** What `later()` resolves to: nothing came in this turn of the event loop. */
const LATER = Symbol("later");

/**
 * Writes what following the job gives as server-sent events until it ends; `stop` ends the
 * following when the client goes away. What is ready at once (a long job's history) is written
 * in batches rather than a write per event, which costs a 1,000-step job's stream more than
 * reading it does; anything that comes later (a live event, a delta) is written as it comes.
 */
export function followEvents(
  c: Context,
  items: AsyncGenerator<FollowItem, void, undefined>,
  stop: AbortController,
): Response {
  return streamSSE(c, async (stream) => {
    stream.onAbort(() => stop.abort());
    let gathered = "";
    const flush = async () => {
      if (gathered === "") return;
      const text = gathered;
      gathered = "";
      await stream.write(text);
    };
    try {
      let next = items.next();
      for (;;) {
        let result = await Promise.race([next, later()]);
        if (result === LATER) {
          await flush();
          if (stream.aborted || stream.closed) return;
          const waited = await quietFor(next, KEEPALIVE_MS);
          if (waited === "quiet") {
            await stream.write(": keepalive\n\n");
            continue;
          }
          result = waited;
        }
        if (result.done === true) {
          await flush();
          return;
        }
        gathered += sse(frame(result.value));
        if (gathered.length >= BATCH_CHARS) await flush();
        if (stream.aborted || stream.closed) return;
        next = items.next();
      }
    } finally {
      stop.abort();
      await items.return(undefined);
    }
  });
}

/** Resolves to LATER in the event loop's next turn: after whatever is already resolving. */
function later(): Promise<typeof LATER> {
  return new Promise((resolve) => setImmediate(() => resolve(LATER)));
}

/** One frame as text, as Hono's writeSSE writes it (the data's lines each a `data:` line). */
function sse(message: { id?: string; event: string; data: string }): string {
  const data = message.data
    .split(/\r\n|\r|\n/)
    .map((line) => `data: ${line}`)
    .join("\n");
  const id = message.id === undefined ? "" : `\nid: ${message.id}`;
  return `event: ${message.event}\n${data}${id}\n\n`;
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
