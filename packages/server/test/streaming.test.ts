// Model text over a job's event stream: while a step runs, its text streams as `delta` frames
// (no id, never stored) before the step's model_call event, adding up to its recorded text,
// redacted as everything a job gives out; the run is a worker's beside the server, and a chat
// turn streams the same way.
import type { JobWorker } from "@oz0/runtime";
import type { EventSourceMessage } from "eventsource-parser";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { LAB, type TestServer, testServer } from "./helpers.js";
import { deltas, NARRATOR, type OpenStream, rawDeltaFrames, readEvents } from "./streaming.js";

const TELLER_TEXT = 'Once upon a time\na worker told a story, word by word — ünïcode ✓ and "quotes".';
const SECRET = "sk-narrator-0123456789abcdef";

let test: TestServer;
let worker: JobWorker | undefined;

beforeAll(async () => {
  // No worker of the server's own: each test starts one once its stream listens, so the run's
  // text cannot be over before the stream opened.
  test = await testServer({ worker: false });
  await test.runtime.catalog.install(LAB, NARRATOR);
});
afterEach(async () => {
  await worker?.drain();
  worker = undefined;
});
afterAll(async () => {
  await test.close();
});

async function start(agent: string): Promise<string> {
  const response = await test.request(`/v1/t/${LAB}/jobs`, {
    method: "POST",
    key: "runner",
    body: JSON.stringify({ agent, input: "go" }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

async function open(id: string, headers: Record<string, string> = {}, key: "viewer" | "scoped" = "viewer") {
  const abort = new AbortController();
  const response = await test.request(`/v1/t/${LAB}/jobs/${id}/events`, {
    key,
    headers: { accept: "text/event-stream", ...headers },
    signal: abort.signal,
  });
  return { response, stream: readEvents(response, abort) };
}

/** A worker beside the server, as `oz0 serve`'s, started once `stream` has its first frame. */
async function runOnceListening(stream: OpenStream): Promise<void> {
  await stream.until(() => true);
  worker = test.runtime.worker({ pollMs: 20 });
  await worker.start();
}

const persisted = (messages: readonly EventSourceMessage[]) =>
  messages.filter((message) => message.event !== "delta" && message.event !== "end");

describe("model text over server-sent events", () => {
  it("streams a step's text as delta frames before its model_call event, adding up to the recorded text", async () => {
    const id = await start("narrator/teller");
    const { response, stream } = await open(id);
    expect(response.status).toBe(200);
    await runOnceListening(stream);
    await stream.ended;
    const { messages } = stream;
    const call = messages.findIndex((message) => message.event === "model_call");
    const streamed = deltas(messages);
    expect(streamed.length).toBeGreaterThan(3);
    expect(streamed.every((delta) => delta.step === 1)).toBe(true);
    expect(messages.findIndex((message) => message.event === "delta")).toBeLessThan(call);
    expect(messages.slice(call).some((message) => message.event === "delta")).toBe(false);
    const recorded = JSON.parse(messages[call]!.data) as { data: { text: string } };
    expect(recorded.data.text).toBe(TELLER_TEXT);
    expect(streamed.map((delta) => delta.text).join("")).toBe(TELLER_TEXT);
    expect(messages.at(-1)?.event).toBe("end");
  });

  it("sends delta frames with no id line, and every persisted event once with its seq", async () => {
    const id = await start("narrator/teller");
    const { stream } = await open(id);
    await runOnceListening(stream);
    await stream.ended;
    const frames = rawDeltaFrames(stream.raw());
    expect(frames.length).toBeGreaterThan(0);
    for (const frame of frames) {
      expect(frame.split("\n").filter((line) => !line.startsWith("data: "))).toEqual(["event: delta"]);
    }
    const stored = await test.runtime.jobs.events(id, { tenant: LAB });
    expect(persisted(stream.messages).map((message) => [message.id, message.event])).toEqual(
      stored.map((entry) => [String(entry.seq), entry.kind]),
    );
  });

  it("resumes with Last-Event-ID by persisted seq only: no event twice, none missing", async () => {
    const id = await start("narrator/teller");
    const first = await open(id);
    await runOnceListening(first.stream);
    // Hang up at the first delta, then come back after the last event seen.
    await first.stream.until((message) => message.event === "delta");
    first.stream.close();
    await first.stream.ended;
    const seen = persisted(first.stream.messages);
    const last = seen.at(-1)!.id!;
    const second = await open(id, { "last-event-id": last });
    await second.stream.ended;
    const stored = await test.runtime.jobs.events(id, { tenant: LAB });
    const ids = [...seen, ...persisted(second.stream.messages)].map((message) => message.id);
    expect(ids).toEqual(stored.map((entry) => String(entry.seq)));
    // A stream opened after the job ended has its text in the model_call event, and no deltas.
    const after = await open(id, { "last-event-id": "0" });
    await after.stream.ended;
    expect(deltas(after.stream.messages)).toEqual([]);
    expect(persisted(after.stream.messages).map((message) => message.id)).toEqual(
      stored.map((entry) => String(entry.seq)),
    );
  });

  it("redacts a tenant's secret in the streamed text as in the recorded one: it never leaves in clear", async () => {
    await test.runtime.models.setProvider(LAB, "openai", { apiKey: SECRET });
    try {
      const id = await start("narrator/leaker");
      const { stream } = await open(id);
      await runOnceListening(stream);
      await stream.ended;
      expect(stream.raw()).not.toContain(SECRET);
      expect(stream.raw()).not.toContain(SECRET.slice(0, 12));
      const text = deltas(stream.messages)
        .map((delta) => delta.text)
        .join("");
      expect(text).toBe("The key is [redacted], and nobody should see it.");
      const call = stream.messages.find((message) => message.event === "model_call")!;
      expect((JSON.parse(call.data) as { data: { text: string } }).data.text).toBe(text);
    } finally {
      await test.runtime.models.removeProvider(LAB, "openai");
    }
  });

  it("answers a key whose scope leaves the job out exactly as for a job that does not exist", async () => {
    const id = await start("narrator/teller");
    const outside = await open(id, {}, "scoped");
    const missing = await open("teller-nothing-here", {}, "scoped");
    expect(outside.response.status).toBe(404);
    expect(outside.response.status).toBe(missing.response.status);
    await Promise.all([outside.stream.ended, missing.stream.ended]);
    const body = (raw: string, job: string) => raw.replaceAll(job, "<job>");
    expect(body(outside.stream.raw(), id)).toEqual(body(missing.stream.raw(), "teller-nothing-here"));
    expect(outside.response.headers.get("content-type")).toBe(missing.response.headers.get("content-type"));
    // Nothing of the job went out: it is still queued, never followed.
    expect(outside.stream.raw()).not.toContain("event:");
    await test.request(`/v1/t/${LAB}/jobs/${id}/cancel`, { method: "POST", key: "runner" });
  });

  it("streams a chat turn's text the same way, on the chat's job", async () => {
    const opened = await test.request(`/v1/t/${LAB}/chats`, {
      method: "POST",
      key: "runner",
      body: JSON.stringify({ agent: "narrator/chatter", text: "hi" }),
    });
    expect(opened.status).toBe(201);
    const turn = (await opened.json()) as { job: { id: string }; answer: string };
    expect(turn.answer).toBe("Hello there, how can I help?");
    const id = turn.job.id;
    const stored = await test.runtime.jobs.events(id, { tenant: LAB });
    // From the event before the last: its frame shows the stream listens before the next message.
    const { stream } = await open(id, { "last-event-id": String(stored.at(-2)!.seq) });
    await stream.until((message) => message.id === String(stored.at(-1)!.seq));
    const said = await test.request(`/v1/t/${LAB}/chats/${id}/messages`, {
      method: "POST",
      key: "runner",
      body: JSON.stringify({ text: "thanks" }),
    });
    expect(said.status).toBe(200);
    expect(((await said.json()) as { answer: string }).answer).toBe("Glad to help again, goodbye.");
    const second = await stream.until(
      (message) => message.event === "model_call" && JSON.parse(message.data).data.step === 2,
    );
    const streamed = deltas(stream.messages);
    expect(streamed.map((delta) => delta.step)).toEqual(streamed.map(() => 2));
    expect(streamed.map((delta) => delta.text).join("")).toBe("Glad to help again, goodbye.");
    expect(stream.messages.indexOf(second)).toBeGreaterThan(
      stream.messages.findIndex((message) => message.event === "delta"),
    );
    stream.close();
    await stream.ended;
    await test.request(`/v1/t/${LAB}/chats/${id}/end`, { method: "POST", key: "runner" });
  });
});
