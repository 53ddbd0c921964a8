// The job's events as server-sent events (GET …/jobs/<id>/events with Accept:
// text/event-stream), read with fetch so the session cookie goes along and every event kind,
// named or not, is seen. A dropped stream is taken up again after the last event seen
// (Last-Event-ID), so no event is lost or repeated.

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
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let end = buffer.indexOf("\n\n");
        while (end !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const parsed = parseBlock(block);
          if (parsed !== undefined) {
            if (parsed.id !== undefined) lastId = parsed.id;
            onEvent(parsed);
            if (parsed.event === "end") return;
          }
          end = buffer.indexOf("\n\n");
        }
      }
    } catch (error) {
      if (signal.aborted) return;
      if (attempt > 20) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(5000, 250 * 2 ** Math.min(attempt, 4))));
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
