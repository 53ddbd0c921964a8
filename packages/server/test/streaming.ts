// What the streaming tests share: an event stream read frame by frame as it comes, with its raw
// text, so a test can wait for a frame, stop reading, or read to the end.
import { join } from "node:path";
import { createParser, type EventSourceMessage } from "eventsource-parser";
import { FIXTURES } from "./helpers.js";

export const NARRATOR = join(FIXTURES, "narrator");

export interface OpenStream {
  readonly messages: EventSourceMessage[];
  /** Everything received so far, as sent. */
  readonly raw: () => string;
  /** Resolves with the first message (counting those already here) that `test` accepts. */
  until(test: (message: EventSourceMessage) => boolean): Promise<EventSourceMessage>;
  /** Resolves once the server ended the stream. */
  readonly ended: Promise<void>;
  /** Hangs up. */
  close(): void;
}

/** Reads `response`'s event stream in the background; `abort` is the request's controller. */
export function readEvents(response: Response, abort: AbortController): OpenStream {
  const messages: EventSourceMessage[] = [];
  let raw = "";
  const waiters: {
    test: (message: EventSourceMessage) => boolean;
    resolve: (m: EventSourceMessage) => void;
  }[] = [];
  const parser = createParser({
    onEvent: (message) => {
      messages.push(message);
      for (const waiter of [...waiters]) {
        if (waiter.test(message)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(message);
        }
      }
    },
  });
  const decoder = new TextDecoder();
  const ended = (async () => {
    try {
      for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
        const text = decoder.decode(chunk, { stream: true });
        raw += text;
        parser.feed(text);
      }
    } catch (error) {
      if (!abort.signal.aborted) throw error;
    }
  })();
  return {
    messages,
    raw: () => raw,
    until(test) {
      const found = messages.find(test);
      if (found !== undefined) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        waiters.push({ test, resolve });
        ended.then(() => reject(new Error(`the stream ended without the frame; it sent:\n${raw}`)), reject);
      });
    },
    ended,
    close: () => abort.abort(),
  };
}

export interface Delta {
  readonly step: number;
  readonly text: string;
}

/** The delta frames' data, in order. */
export function deltas(messages: readonly EventSourceMessage[]): Delta[] {
  return messages.filter((message) => message.event === "delta").map((message) => JSON.parse(message.data));
}

/** The raw frames (blocks between blank lines) that are `event: delta`. */
export function rawDeltaFrames(raw: string): string[] {
  return raw.split("\n\n").filter((block) => block.split("\n").includes("event: delta"));
}
