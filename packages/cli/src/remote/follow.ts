// Following a job the server's worker runs, by its event stream (GET …/events with Accept:
// text/event-stream): each job event goes to the same listeners an embedded run calls, each
// `delta` frame's text to onText, and a dropped connection is taken up again with Last-Event-ID
// where it broke. It stops where an embedded run stops: the job ended, or it waits for a person
// (an answer, an approval, the next chat message); a job that waits for its child job has the
// child followed too, as an embedded run runs it.
import type { JobEvent, JobView } from "@oz0/runtime";
import { Oz0Error } from "@oz0/sdk";
import type { CliServices } from "../context.js";
import type { ServerApi } from "./http.js";
import { answeredError } from "./http.js";

/** What a run's caller listens to: its events, the model's text, and the Ctrl-C that stops the follow. */
export type RunWatch = NonNullable<Parameters<CliServices["jobs"]["run"]>[2]>;

const ENDED = new Set(["succeeded", "failed", "cancelled", "dead"]);

/** How many times in a row a stream may break without bringing an event before the follow gives up. */
const RECONNECTS = 5;

/** One frame of a server-sent event stream. */
export interface Frame {
  readonly id: string | undefined;
  readonly event: string;
  readonly data: string;
}

/**
 * Follows job `id` from the event after seq `after` until it ends or waits for a person;
 * answers the job as it then stands. At `watch.signal` it stops and answers the job as it is:
 * the server's worker goes on with it.
 */
export async function followJob(
  api: ServerApi,
  id: string,
  after: number,
  watch: RunWatch,
): Promise<JobView> {
  let seen = after;
  let broken = 0;
  for (;;) {
    try {
      const outcome = await followOnce(api, id, seen, watch, (seq) => {
        seen = seq;
        broken = 0;
      });
      if (outcome !== undefined) return outcome;
    } catch (error) {
      if (watch.signal?.aborted === true) return jobView(api, id);
      if (!(error instanceof Oz0Error) || error.code !== "NETWORK_ERROR") throw error;
      if (++broken >= RECONNECTS) throw error;
    }
    if (watch.signal?.aborted === true) return jobView(api, id);
  }
}

/** One connection: the job where the follow stops, or undefined when the stream broke first. */
async function followOnce(
  api: ServerApi,
  id: string,
  after: number,
  watch: RunWatch,
  onSeq: (seq: number) => void,
): Promise<JobView | undefined> {
  const path = api.tenantPath("jobs", id, "events");
  const response = await api.send("GET", path, {
    headers: { accept: "text/event-stream", "last-event-id": String(after) },
    signal: watch.signal,
  });
  if (!response.ok) throw answeredError("GET", path, response.status, await response.text());
  if (response.body === null) return undefined;
  // The steps whose text came as deltas; a step's text that did not (a server that sends no
  // deltas, or a stream taken up after them) is given whole, before its step's line.
  const streamed = new Set<unknown>();
  for await (const frame of frames(response.body, `${api.url}${path}`)) {
    if (frame.event === "end") return (JSON.parse(frame.data) as { job: JobView }).job;
    if (frame.event === "delta" && frame.id === undefined) {
      const delta = JSON.parse(frame.data) as { step?: unknown; text?: unknown };
      streamed.add(delta.step);
      if (typeof delta.text === "string") watch.onText?.(delta.text);
      continue;
    }
    if (frame.id === undefined) {
      throw new Oz0Error(
        "NETWORK_ERROR",
        `the event stream of job ${id} sent a frame this oz0 does not know (${frame.event}); is the server a newer oz0?`,
        { data: { url: api.url, cause: `unknown frame ${frame.event}` } },
      );
    }
    const entry = JSON.parse(frame.data) as JobEvent;
    onSeq(entry.seq);
    if (
      entry.kind === "model_call" &&
      !streamed.has(entry.data.step) &&
      typeof entry.data.text === "string"
    ) {
      watch.onText?.(entry.data.text);
    }
    watch.onEvent?.(entry);
    if (entry.kind !== "job_waiting") continue;
    const waitingFor = (entry.data as { for?: { kind?: string; job?: string } }).for;
    if (waitingFor?.kind === "child" && waitingFor.job !== undefined) {
      // As an embedded run does, the child is followed, and the parent goes on once it ended.
      const child = await followJob(api, waitingFor.job, 0, watch);
      if (ENDED.has(child.status)) continue;
      return jobView(api, id);
    }
    const view = await jobView(api, id);
    if (view.status === "waiting") return view;
  }
  return undefined;
}

function jobView(api: ServerApi, id: string): Promise<JobView> {
  return api.get<JobView>(api.tenantPath("jobs", id));
}

/** The frames of an event stream, as the EventSource standard reads them. */
export async function* frames(body: ReadableStream<Uint8Array>, url: string): AsyncGenerator<Frame> {
  const decoder = new TextDecoder();
  let buffer = "";
  let id: string | undefined;
  let event = "";
  let data: string[] = [];
  try {
    for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      for (;;) {
        const end = buffer.search(/\r\n|\r|\n/);
        if (end === -1) break;
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + (buffer.startsWith("\r\n", end) ? 2 : 1));
        if (line === "") {
          if (data.length > 0 || event !== "")
            yield { id, event: event === "" ? "message" : event, data: data.join("\n") };
          id = undefined;
          event = "";
          data = [];
          continue;
        }
        if (line.startsWith(":")) continue;
        const colon = line.indexOf(":");
        const field = colon === -1 ? line : line.slice(0, colon);
        const value = colon === -1 ? "" : line.slice(colon + 1).replace(/^ /, "");
        if (field === "id") id = value;
        else if (field === "event") event = value;
        else if (field === "data") data.push(value);
      }
    }
  } catch (error) {
    const cause = (error as Error).message;
    throw new Oz0Error("NETWORK_ERROR", `the event stream broke: ${cause}`, {
      data: { url, cause },
      cause: error,
    });
  }
}
