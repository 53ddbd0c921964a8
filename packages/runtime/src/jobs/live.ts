// A running job's live feed: its model text as the model streams it (redacted, as every text a
// job gives out), the end of each step's text, and a word that the run wrote events, for
// whoever follows the job while it runs. Nothing on it is stored or counted as an event: the
// history holds each step's whole text in its model_call event.
//
// Followers in this process hear a run at once. On PostgreSQL the feed also goes to every other
// process on the database through the store's broadcast (NOTIFY, payloads cut to its limit),
// each message naming its tenant and job; a process skips its own. A process marks each job it
// follows (`Broadcast.follow`) and a job's messages go out only while one does, so a job nobody
// follows elsewhere sends none. On SQLite nothing leaves the process: a follower elsewhere
// reads a step's text in its model_call event, at its next poll.
import { randomUUID } from "node:crypto";
import type { Broadcast, Listening } from "../store/index.js";

/** What a job's live feed carries. */
export type LiveMessage =
  /** Model text of step `step` (the model_call event's step), as it streamed. */
  | { readonly kind: "text"; readonly step: number; readonly text: string }
  /** Step `step`'s text is all out: its model_call event comes next. */
  | { readonly kind: "step_end"; readonly step: number }
  /** The run wrote events: a follower in this process reads them now instead of at its next poll. */
  | { readonly kind: "written" };

export type LiveListener = (message: LiveMessage) => void;

/** One message as it crosses to another process: its origin, tenant, job, step, text, and end. */
interface WireMessage {
  readonly o: string;
  readonly t: string;
  readonly j: string;
  readonly s: number;
  readonly x?: string;
  readonly e?: 1;
  readonly w?: 1;
}

/** What waits to go to other processes: a step's text (and its end), or a word of a write. */
type Outgoing = { step: number; text: string; end: boolean } | { readonly written: true };

export class LiveFeed {
  readonly #broadcast: Broadcast | undefined;
  /** This feed's name on the broadcast, so it skips what it sent itself. */
  readonly #origin = randomUUID();
  readonly #subscribers = new Map<string, Set<LiveListener>>();
  /** The jobs this process marked followed on the broadcast, by key: what ends each mark. */
  readonly #following = new Map<string, Promise<(() => Promise<void>) | undefined>>();
  #listening: Promise<Listening> | undefined;
  #closed = false;

  constructor(broadcast: Broadcast | undefined) {
    this.#broadcast = broadcast;
  }

  /**
   * Hears job `job` of `tenant` from now on, wherever it runs (on SQLite, only in this
   * process). Resolves once listening; the function it gives stops it.
   */
  async subscribe(tenant: string, job: string, listener: LiveListener): Promise<() => void> {
    const key = keyOf(tenant, job);
    let listeners = this.#subscribers.get(key);
    if (listeners === undefined) {
      listeners = new Set();
      this.#subscribers.set(key, listeners);
    }
    // The same function subscribed twice is heard twice, stopped one at a time.
    const entry: LiveListener = (message) => listener(message);
    listeners.add(entry);
    const stop = () => {
      listeners.delete(entry);
      if (listeners.size === 0 && this.#subscribers.get(key) === listeners) {
        this.#subscribers.delete(key);
        this.#unfollow(key);
      }
    };
    try {
      // Listening first, then marked: a message sent once the mark is there is heard.
      await this.#listen();
      await this.#follow(key, job);
    } catch (error) {
      stop();
      throw error;
    }
    return stop;
  }

  /** Marks job `job` followed by this process, once for all its subscribers here. */
  async #follow(key: string, job: string): Promise<void> {
    const broadcast = this.#broadcast;
    if (broadcast === undefined || this.#closed) return;
    let marked = this.#following.get(key);
    if (marked === undefined) {
      marked = broadcast.follow(job, this.#origin);
      this.#following.set(key, marked);
      marked.catch(() => {
        if (this.#following.get(key) === marked) this.#following.delete(key);
      });
    }
    await marked;
  }

  #unfollow(key: string): void {
    const marked = this.#following.get(key);
    if (marked === undefined) return;
    this.#following.delete(key);
    // A mark left behind costs the job's messages, nothing more: a failure here is not the caller's.
    marked.then((end) => end?.()).catch(() => {});
  }

  /** What one run of job `job` sends on the feed. */
  publisher(tenant: string, job: string): LivePublisher {
    return new LivePublisher(this, tenant, job);
  }

  /** Stops listening to other processes. */
  async close(): Promise<void> {
    this.#closed = true;
    const marks = [...this.#following.values()];
    this.#following.clear();
    await Promise.all(marks.map((marked) => marked.then((end) => end?.()).catch(() => {})));
    const listening = this.#listening;
    this.#listening = undefined;
    await (await listening?.catch(() => undefined))?.close();
  }

  /** Events of `job` were written outside a run (a cancel, an answer, a message): its followers here read them now. */
  wrote(tenant: string, job: string): void {
    this.deliver(tenant, job, { kind: "written" });
  }

  /** Tells this process's followers of `job`. */
  deliver(tenant: string, job: string, message: LiveMessage): void {
    const listeners = this.#subscribers.get(keyOf(tenant, job));
    if (listeners === undefined) return;
    for (const listener of [...listeners]) {
      try {
        listener(message);
      } catch {
        // A follower's fault is its own: the run and the other followers go on.
      }
    }
  }

  /** The broadcast the feed crosses to other processes on, and this feed's name on it. */
  get wire(): { readonly broadcast: Broadcast; readonly origin: string } | undefined {
    return this.#broadcast === undefined || this.#closed
      ? undefined
      : { broadcast: this.#broadcast, origin: this.#origin };
  }

  async #listen(): Promise<void> {
    const broadcast = this.#broadcast;
    if (broadcast === undefined || this.#closed) return;
    this.#listening ??= broadcast.listen((payload) => this.#heard(payload));
    try {
      await this.#listening;
    } catch (error) {
      this.#listening = undefined;
      throw error;
    }
  }

  #heard(payload: string): void {
    const wire = parseWire(payload);
    if (wire === undefined || wire.o === this.#origin) return;
    if (wire.x !== undefined) this.deliver(wire.t, wire.j, { kind: "text", step: wire.s, text: wire.x });
    if (wire.e === 1) this.deliver(wire.t, wire.j, { kind: "step_end", step: wire.s });
    if (wire.w === 1) this.deliver(wire.t, wire.j, { kind: "written" });
  }
}

/**
 * One run's side of the feed. Followers in this process hear each piece as it comes; for other
 * processes, what comes while a message is being sent is joined into the next, so a model that
 * streams a token at a time costs a NOTIFY per round trip, not per token.
 */
export class LivePublisher {
  readonly #feed: LiveFeed;
  readonly #tenant: string;
  readonly #job: string;
  #waiting: Outgoing[] = [];
  #sending: Promise<void> | undefined;
  /** Whether text went out since the last write did: the write after a step's text is told too. */
  #streamed = false;
  /** The step whose text went to other processes last: only a step with text sends its end. */
  #sentStep: number | undefined;
  /**
   * What of a step's text no message took yet when the step's text ended, with its end: the
   * write that records the step sends it in its own statement (`notice`), else `written` does.
   */
  #held: Outgoing[] = [];

  constructor(feed: LiveFeed, tenant: string, job: string) {
    this.#feed = feed;
    this.#tenant = tenant;
    this.#job = job;
  }

  /** Step `step`'s next piece of text, redacted already. */
  text(step: number, text: string): void {
    if (text === "") return;
    this.#feed.deliver(this.#tenant, this.#job, { kind: "text", step, text });
    if (this.#feed.wire === undefined) return;
    this.#streamed = true;
    this.#sentStep = step;
    const last = this.#waiting.at(-1);
    if (last !== undefined && "step" in last && last.step === step && !last.end) last.text += text;
    else this.#waiting.push({ step, text, end: false });
    this.#send();
  }

  /**
   * Step `step`'s text is all out. Resolves once every message already on its way was sent;
   * what no message took yet, and the step's end, go with the write that records the step, so
   * other processes have all of the text and its end when its model_call is written, in that
   * write's commit and with no statement of their own. Undefined when no process elsewhere
   * waits for it (nothing to await).
   */
  endStep(step: number): Promise<void> | undefined {
    this.#feed.deliver(this.#tenant, this.#job, { kind: "step_end", step });
    // A step without text (a reply of calls alone) sends nothing: followers elsewhere wait for no end.
    if (this.#feed.wire === undefined || this.#sentStep !== step) return undefined;
    return this.#endHeld(step);
  }

  async #endHeld(step: number): Promise<void> {
    this.#sentStep = undefined;
    const last = this.#waiting.at(-1);
    if (last !== undefined && "step" in last && last.step === step && !last.end) last.end = true;
    else this.#waiting.push({ step, text: "", end: true });
    this.#held.push(...this.#waiting);
    this.#waiting = [];
    await this.#sending;
  }

  /**
   * The run wrote events. Followers elsewhere are told of the write that follows a step's text
   * (its model_call), and read the others at their next poll: a NOTIFY for every write would
   * cost every job on PostgreSQL a statement per step, followed or not.
   */
  written(sent = false): void {
    this.#feed.deliver(this.#tenant, this.#job, { kind: "written" });
    if (this.#feed.wire === undefined || !this.#streamed) return;
    this.#streamed = false;
    const held = this.#held;
    this.#held = [];
    if (sent) return;
    this.#waiting.push(...held, { written: true });
    this.#send();
  }

  /**
   * The messages `written` would send other processes after the next write (the text held at
   * its step's end, then the word of the write), as a JSON list, for the write to carry in its
   * own statement instead (PostgreSQL): heard at its commit, with no statement of their own.
   * Then `written(true)`.
   */
  get notice(): string | undefined {
    const wire = this.#feed.wire;
    if (wire === undefined || !this.#streamed) return undefined;
    return JSON.stringify([
      ...this.#held.flatMap((part) => this.#payloadsOf(part, wire)),
      writtenPayload(wire.origin, this.#tenant, this.#job),
    ]);
  }

  /** The messages `part` goes to other processes as. */
  #payloadsOf(part: Outgoing, wire: NonNullable<LiveFeed["wire"]>): string[] {
    return "written" in part
      ? [writtenPayload(wire.origin, this.#tenant, this.#job)]
      : payloads(wire.origin, this.#tenant, this.#job, part, wire.broadcast.maxPayloadBytes);
  }

  #send(): void {
    if (this.#sending === undefined) this.#sending = this.#drain();
  }

  async #drain(): Promise<void> {
    // Pieces given in one go (a model that hands its answer over at once) go as one message.
    await new Promise((resolve) => setImmediate(resolve));
    for (;;) {
      const wire = this.#feed.wire;
      const batch = this.#waiting;
      this.#waiting = [];
      // Cleared in the same turn as the last look, so a piece given after it starts another drain.
      if (wire === undefined || batch.length === 0) {
        this.#sending = undefined;
        return;
      }
      for (const part of batch) {
        for (const payload of this.#payloadsOf(part, wire)) {
          try {
            await wire.broadcast.send(this.#job, payload);
          } catch {
            // Live text is a courtesy: a follower that misses it gets the step's text with its event.
          }
        }
      }
    }
  }
}

/**
 * One step's text as payloads of at most `limit` bytes each, in order, the last carrying the
 * end when there is one; the text is cut between code points, never inside one.
 */
export function payloads(
  origin: string,
  tenant: string,
  job: string,
  part: { readonly step: number; readonly text: string; readonly end: boolean },
  limit: number,
): string[] {
  const base = { o: origin, t: tenant, j: job, s: part.step };
  const encode = (text: string, end: boolean): string =>
    JSON.stringify({ ...base, ...(text === "" ? {} : { x: text }), ...(end ? { e: 1 } : {}) });
  const budget = limit - Buffer.byteLength(encode("x", true)) + 1;
  if (budget < 4) return [];
  const out: string[] = [];
  let piece = "";
  let size = 0;
  for (const char of part.text) {
    const cost = Buffer.byteLength(JSON.stringify(char)) - 2;
    if (size + cost > budget) {
      out.push(encode(piece, false));
      piece = "";
      size = 0;
    }
    piece += char;
    size += cost;
  }
  if (piece !== "" || part.end) out.push(encode(piece, part.end));
  return out;
}

function writtenPayload(origin: string, tenant: string, job: string): string {
  return JSON.stringify({ o: origin, t: tenant, j: job, s: 0, w: 1 });
}

function parseWire(payload: string): WireMessage | undefined {
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  const wire = value as Partial<WireMessage>;
  if (typeof wire.o !== "string" || typeof wire.t !== "string" || typeof wire.j !== "string")
    return undefined;
  if (typeof wire.s !== "number" || !Number.isInteger(wire.s)) return undefined;
  if (wire.x !== undefined && typeof wire.x !== "string") return undefined;
  return wire as WireMessage;
}

function keyOf(tenant: string, job: string): string {
  return `${tenant}\u0000${job}`;
}
