// Following a job: its events as they are written and its model text as it streams between
// them, until the job ends. Events are read from the store, at once when the job's live feed
// says the run wrote some (a run in this process), at the first text of each step, and else
// every poll; text comes from the live feed (live.ts). Each step's text is given before the
// step's model_call event and never after it: what comes too late is left out, since the
// event holds the step's whole text.
import type { JobEvent } from "../events/index.js";
import type { LiveFeed, LiveMessage } from "./live.js";
import { isTerminal } from "./store.js";
import type { JobView } from "./view.js";

/** What following a job gives, in order. */
export type FollowItem =
  /** An event of the job's history, as stored. */
  | { readonly kind: "event"; readonly event: JobEvent }
  /** Model text of step `step` (its model_call's step) as it streamed: never stored, no seq. */
  | { readonly kind: "delta"; readonly step: number; readonly text: string }
  /** The job ended: the last item. */
  | { readonly kind: "end"; readonly job: JobView };

export interface FollowOptions {
  readonly tenant: string;
  /** Only the events after this seq (a resumed stream's Last-Event-ID); 0 when left out. */
  readonly after?: number | undefined;
  /**
   * Of the events already written when following starts, only the newest this many (a long
   * job's page opens on its tail); every one written later is given.
   */
  readonly tail?: number | undefined;
  /** How often the job's events are read when nothing said to read them sooner. */
  readonly pollMs?: number | undefined;
  /** Ends the following: the iteration returns. */
  readonly signal?: AbortSignal | undefined;
}

/** What a follower reads: the engine. */
export interface FollowSource {
  readonly live: LiveFeed;
  events(id: string, options: { readonly tenant: string; readonly afterSeq: number }): Promise<JobEvent[]>;
  get(id: string, tenant: string): Promise<JobView>;
}

export const FOLLOW_POLL_MS = 100;

/**
 * How long a step's model_call waits for the rest of the step's text, once some came from
 * another process: the end of the text is sent before the event is written, but comes on
 * another connection.
 */
const STEP_END_WAIT_MS = 2_000;

/**
 * Follows job `id` of `tenant` until it ends (or `signal` aborts); the job is checked by the
 * caller. Resolves once listening to the job's live feed, so nothing said from then on is
 * missed; the feed is let go when the iteration ends, returns, or `signal` aborts.
 */
export async function followJob(
  source: FollowSource,
  id: string,
  options: FollowOptions,
): Promise<AsyncGenerator<FollowItem, void, undefined>> {
  const inbox = new Inbox();
  const stop = await source.live.subscribe(options.tenant, id, (message) => inbox.push(message));
  options.signal?.addEventListener("abort", stop, { once: true });
  return follow(source, id, options, inbox, stop);
}

async function* follow(
  source: FollowSource,
  id: string,
  options: FollowOptions,
  inbox: Inbox,
  stop: () => void,
): AsyncGenerator<FollowItem, void, undefined> {
  const { tenant, signal } = options;
  const pollMs = options.pollMs ?? FOLLOW_POLL_MS;
  try {
    let after = options.after ?? 0;
    let tail = options.tail;
    /** The last step whose model_call was given: its text is all out. */
    let recorded = 0;
    const begun = new Set<number>();
    const ended = new Set<number>();
    let held: { step: number; text: string }[] = [];
    let read = true;
    let nextRead = 0;
    const absorb = () => {
      for (const message of inbox.take()) {
        if (message.kind === "written") read = true;
        else if (message.kind === "step_end") ended.add(message.step);
        else if (message.step > recorded) {
          // A step's first text: the events before the step are read (and given) first.
          if (!begun.has(message.step)) {
            begun.add(message.step);
            read = true;
          }
          held.push({ step: message.step, text: message.text });
        }
      }
    };
    function* give(upTo: number): Generator<FollowItem> {
      const out = held.filter((delta) => delta.step <= upTo);
      held = held.filter((delta) => delta.step > upTo);
      for (const delta of out) {
        if (delta.step > recorded) yield { kind: "delta", step: delta.step, text: delta.text };
      }
    }
    for (;;) {
      if (aborted(signal)) return;
      absorb();
      if (read || Date.now() >= nextRead) {
        read = false;
        // The job before its events: a job that had ended then has all its events among them
        // (its end is written with its last ones), whereas one read after its events may have
        // ended since, with events that were not read.
        const job = await source.get(id, tenant);
        let events = await source.events(id, { tenant, afterSeq: after });
        if (tail !== undefined) {
          // The events left out are past: their steps' text is in their model_call events.
          const skipped = events.slice(0, Math.max(0, events.length - tail));
          for (const entry of skipped) {
            if (entry.kind === "model_call") recorded = Math.max(recorded, entry.data.step);
            after = entry.seq;
          }
          events = events.slice(skipped.length);
          tail = undefined;
        }
        for (const entry of events) {
          if (entry.kind === "model_call") {
            const step = entry.data.step;
            absorb();
            const until = Date.now() + STEP_END_WAIT_MS;
            while (begun.has(step) && !ended.has(step) && Date.now() < until && !aborted(signal)) {
              await inbox.wait(until - Date.now(), signal);
              absorb();
            }
            yield* give(step);
            recorded = Math.max(recorded, step);
          }
          yield { kind: "event", event: entry };
          after = entry.seq;
        }
        absorb();
        if (isTerminal(job.status)) {
          yield* give(Number.POSITIVE_INFINITY);
          yield { kind: "end", job };
          return;
        }
        nextRead = Date.now() + pollMs;
      }
      if (read) continue;
      yield* give(Number.POSITIVE_INFINITY);
      await inbox.wait(Math.max(0, nextRead - Date.now()), signal);
    }
  } finally {
    signal?.removeEventListener("abort", stop);
    stop();
  }
}

function aborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}

/** The live messages heard and not yet taken, and the one wait for the next. */
class Inbox {
  #messages: LiveMessage[] = [];
  #wake: (() => void) | undefined;

  push(message: LiveMessage): void {
    this.#messages.push(message);
    this.#wake?.();
  }

  take(): LiveMessage[] {
    const messages = this.#messages;
    this.#messages = [];
    return messages;
  }

  /** Resolves once a message is waiting, `ms` passed, or `signal` aborted. */
  wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
    if (this.#messages.length > 0 || signal?.aborted === true) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", done);
        this.#wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.#wake = done;
      signal?.addEventListener("abort", done, { once: true });
    });
  }
}
