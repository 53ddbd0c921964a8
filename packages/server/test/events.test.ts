// A job's events over HTTP: as JSON, and as server-sent events that follow the job until it ends,
// resumable with Last-Event-ID (each event's id is its seq).
import { createParser, type EventSourceMessage } from "eventsource-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LAB, type TestServer, testServer, untilEnded } from "./helpers.js";

let test: TestServer;
beforeAll(async () => {
  test = await testServer();
});
afterAll(async () => {
  await test.close();
});

async function startTriage(): Promise<string> {
  const response = await test.request(`/v1/t/${LAB}/jobs`, {
    method: "POST",
    key: "runner",
    body: JSON.stringify({ agent: "helpdesk/triage", input: "ticket 7" }),
  });
  return ((await response.json()) as { id: string }).id;
}

/** Reads a whole event stream (the server ends it once the job has ended). */
async function readStream(response: Response): Promise<EventSourceMessage[]> {
  const messages: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (message) => messages.push(message) });
  const decoder = new TextDecoder();
  for await (const chunk of response.body as AsyncIterable<Uint8Array>)
    parser.feed(decoder.decode(chunk, { stream: true }));
  return messages;
}

function stream(id: string, headers: Record<string, string> = {}): Promise<Response> {
  return test.request(`/v1/t/${LAB}/jobs/${id}/events`, {
    key: "viewer",
    headers: { accept: "text/event-stream", ...headers },
  });
}

describe("job events", () => {
  it("lists a job's events as JSON, in seq order from 1", async () => {
    const id = await startTriage();
    await untilEnded(test, LAB, id);
    const response = await test.request(`/v1/t/${LAB}/jobs/${id}/events`, { key: "viewer" });
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      job: { status: string };
      events: { seq: number; kind: string }[];
    };
    expect(body.job.status).toBe("succeeded");
    expect(body.events.map((entry) => entry.seq)).toEqual(body.events.map((_, index) => index + 1));
    expect(body.events[0]?.kind).toBe("job_started");
    expect(body.events.at(-1)?.kind).toBe("job_succeeded");
  });

  it("streams a running job's events until it ends, each with its seq as id, then an end event", async () => {
    const id = await startTriage();
    const response = await stream(id);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const messages = await readStream(response);
    const end = messages.at(-1);
    expect(end?.event).toBe("end");
    expect((JSON.parse(end?.data ?? "{}") as { job: { status: string } }).job.status).toBe("succeeded");
    // Model text streams between them as delta frames (streaming.test.ts).
    const events = messages.slice(0, -1).filter((message) => message.event !== "delta");
    const stored = await test.runtime.jobs.events(id, { tenant: LAB });
    expect(events.map((message) => [message.id, message.event])).toEqual(
      stored.map((entry) => [String(entry.seq), entry.kind]),
    );
  });

  it("resumes with Last-Event-ID: exactly the events after it", async () => {
    const id = await startTriage();
    await untilEnded(test, LAB, id);
    const stored = await test.runtime.jobs.events(id, { tenant: LAB });
    expect(stored.length).toBeGreaterThan(3);
    const resumed = (await readStream(await stream(id, { "last-event-id": "3" }))).filter(
      (message) => message.event !== "end",
    );
    expect(resumed.map((message) => JSON.parse(message.data))).toEqual(
      JSON.parse(JSON.stringify(stored.filter((entry) => entry.seq > 3))),
    );
  });

  it("refuses a Last-Event-ID that is not a seq with 422", async () => {
    const id = await startTriage();
    const response = await stream(id, { "last-event-id": "abc" });
    expect(response.status).toBe(422);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("INVALID_INPUT");
  });

  it("answers the stream of a job that does not exist with 404 before any stream opens", async () => {
    const response = await stream("triage-nosuch");
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toContain("application/json");
  });

  it("gives only the newest events asked for with tail, as JSON and as a stream, but every one after a Last-Event-ID", async () => {
    const id = await startTriage();
    await untilEnded(test, LAB, id);
    const all = (
      (await (await test.request(`/v1/t/${LAB}/jobs/${id}/events`, { key: "viewer" })).json()) as {
        events: { seq: number }[];
      }
    ).events.map((entry) => entry.seq);
    expect(all.length).toBeGreaterThan(3);
    const page = (await (
      await test.request(`/v1/t/${LAB}/jobs/${id}/events?tail=2`, { key: "viewer" })
    ).json()) as {
      events: { seq: number }[];
    };
    expect(page.events.map((entry) => entry.seq)).toEqual(all.slice(-2));
    const tailed = await readStream(
      await test.request(`/v1/t/${LAB}/jobs/${id}/events?tail=2`, {
        key: "viewer",
        headers: { accept: "text/event-stream" },
      }),
    );
    expect(tailed.filter((message) => message.id !== undefined).map((message) => Number(message.id))).toEqual(
      all.slice(-2),
    );
    expect(tailed.at(-1)?.event).toBe("end");
    const resumed = await readStream(
      await test.request(`/v1/t/${LAB}/jobs/${id}/events?tail=1`, {
        key: "viewer",
        headers: { accept: "text/event-stream", "last-event-id": String(all[0]) },
      }),
    );
    expect(
      resumed.filter((message) => message.id !== undefined).map((message) => Number(message.id)),
    ).toEqual(all.slice(1));
  });
});
