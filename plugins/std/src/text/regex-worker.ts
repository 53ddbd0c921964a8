// The worker thread that runs a model's regular expression. It is its own module with no
// imports of ours, because Node loads it by file; the main thread kills it at the deadline.
import { type MessagePort, workerData } from "node:worker_threads";

/** Find every match (search, extract), or replace every match. */
export type RegexJob =
  | {
      readonly op: "match";
      readonly source: string;
      readonly flags: string;
      readonly text: string;
      /** Keep at most this many matches; count them all. */
      readonly maxMatches: number;
    }
  | {
      readonly op: "replace";
      readonly source: string;
      readonly flags: string;
      readonly text: string;
      readonly replacement: string;
    };

/** One match, with offsets in UTF-16 code units as JavaScript counts them. */
export interface FoundMatch {
  readonly match: string;
  readonly start: number;
  readonly end: number;
  /** Each capture group's text, null when the group did not take part. */
  readonly groups: readonly (string | null)[];
  readonly named?: Readonly<Record<string, string | null>>;
}

export interface MatchOutcome {
  readonly op: "match";
  /** Every match found, also those past `maxMatches`. */
  readonly count: number;
  readonly matches: readonly FoundMatch[];
}

export interface ReplaceOutcome {
  readonly op: "replace";
  readonly result: string;
}

export type RegexOutcome = MatchOutcome | ReplaceOutcome;

/** The outcome a job of this kind gives. */
export type OutcomeOf<J extends RegexJob> = J extends { readonly op: "match" }
  ? MatchOutcome
  : ReplaceOutcome;

export type RegexReply =
  | { readonly ok: true; readonly outcome: RegexOutcome }
  | { readonly ok: false; readonly tooLarge: boolean; readonly message: string };

/** What the worker says on its port: that it began a job (the deadline runs from then), then the reply. */
export type WorkerMessage = { readonly started: true } | RegexReply;

/** Runs one job; exported so it can be read and reasoned about apart from the thread. */
export function runRegexJob(job: RegexJob): RegexOutcome {
  const regex = new RegExp(job.source, `${job.flags}g`);
  if (job.op === "replace") return { op: "replace", result: job.text.replace(regex, job.replacement) };
  let count = 0;
  const matches: FoundMatch[] = [];
  for (const found of job.text.matchAll(regex)) {
    count++;
    if (matches.length >= job.maxMatches) continue;
    const start = found.index;
    const groups = found.slice(1).map((group) => group ?? null);
    const named =
      found.groups === undefined
        ? undefined
        : Object.fromEntries(Object.entries(found.groups).map(([name, value]) => [name, value ?? null]));
    matches.push({ match: found[0], start, end: start + found[0].length, groups, ...(named && { named }) });
  }
  return { op: "match", count, matches };
}

function reply(job: RegexJob): RegexReply {
  try {
    return { ok: true, outcome: runRegexJob(job) };
  } catch (error) {
    // V8 throws RangeError "Invalid string length" for a result past its largest string.
    const tooLarge = error instanceof RangeError && error.message.includes("string length");
    return { ok: false, tooLarge, message: error instanceof Error ? error.message : String(error) };
  }
}

// Jobs and replies travel on the port the main thread made for this worker, which it can read
// synchronously when the deadline passes (a reply may be waiting behind a busy main thread).
const port = (workerData as { port?: MessagePort } | null)?.port;
port?.on("message", (job: RegexJob) => {
  port.postMessage({ started: true } satisfies WorkerMessage);
  port.postMessage(reply(job) satisfies WorkerMessage);
});
