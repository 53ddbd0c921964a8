// Server-sent events read with fetch, so the session cookie goes along and every event kind,
// named or not, is seen: a job's events (GET …/jobs/<id>/events with Accept: text/event-stream),
// where a dropped stream is taken up again after the last event seen (Last-Event-ID), so no
// event is lost or repeated; and a chat's turn, the answer of a POST.
import { ApiError } from "./api";

export interface StreamEvent {
  readonly id: string | undefined;
  readonly event: string;
  readonly data: string;
}

/** Follows `url` until its `end` event, or until `signal` aborts. */
export async function follow(
  url: string,
  onEvent: (event: StreamEvent) => void,
  signal: AbortSignal,
): Promise<void> {
  let lastId: string | undefined;
  for (let attempt = 0; !signal.aborted; attempt++) {
    try {
      const response = await fetch(url, {
        headers: {
          accept: "text/event-stream",
          ...(lastId === undefined ? {} : { "last-event-id": lastId }),
        },
        credentials: "same-origin",
        signal,
      });
      if (!response.ok || response.body === null)
        throw new Error(`the event stream answered ${response.status}`);
      const ended = await read(response.body, (event) => {
        if (event.id !== undefined) lastId = event.id;
        onEvent(event);
        return event.event === "end";
      });
      if (ended) return;
    } catch (error) {
      if (signal.aborted) return;
      if (attempt > 20) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(5000, 250 * 2 ** Math.min(attempt, 4))));
  }
}

/**
 * Sends `body` to `url` as a POST that asks for an event stream (a chat's turn), giving each
 * event to `onEvent` until the stream ends. A server that answered as JSON instead (a turn over
 * before any text came) is told as one event named `json`. Not resumed when dropped: the POST
 * did something. A refusal is thrown as the ApiError it answered with.
 */
export async function postStream(
  url: string,
  body: unknown,
  headers: Record<string, string>,
  onEvent: (event: StreamEvent) => void,
): Promise<void> {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      accept: "text/event-stream, application/json;q=0.5",
      "content-type": "application/json",
      ...headers,
    },
    credentials: "same-origin",
    body: JSON.stringify(body),
  });
  if (!response.ok || response.body === null) {
    throw new ApiError(response.status, await response.json().catch(() => undefined));
  }
  if (!(response.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
    onEvent({ id: undefined, event: "json", data: await response.text() });
    return;
  }
  await read(response.body, (event) => {
    onEvent(event);
    return false;
  });
}

/** Reads events off `body` until it ends or `onEvent` says to stop; whether it said so. */
async function read(
  body: ReadableStream<BufferSource>,
  onEvent: (event: StreamEvent) => boolean,
): Promise<boolean> {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return false;
    buffer += value;
    let end = buffer.indexOf("\n\n");
    while (end !== -1) {
      const parsed = parseBlock(buffer.slice(0, end));
      buffer = buffer.slice(end + 2);
      if (parsed !== undefined && onEvent(parsed)) {
        await reader.cancel();
        return true;
      }
      end = buffer.indexOf("\n\n");
    }
  }
}

function parseBlock(block: string): StreamEvent | undefined {
  let id: string | undefined;
  let event = "message";
  const data: string[] = [];
  for (const line of block.split("\n")) {
    if (line === "" || line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (field === "id") id = value;
    else if (field === "event") event = value;
    else if (field === "data") data.push(value);
  }
  if (data.length === 0) return undefined;
  return { id, event, data: data.join("\n") };
}
