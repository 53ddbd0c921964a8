// Model text over a job's event stream when the job runs in another process: a server with no
// worker serves the stream, a runtime of its own on the same PostgreSQL database runs the job
// (as `oz0 worker` on another node would), and its text still streams as delta frames, through
// NOTIFY, before the step's model_call event.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type JobWorker, Runtime } from "@oz0/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disposeFixtures, engineFixtures } from "../../runtime/test/store/engines.js";
import { type RunningServer, startServer } from "../src/index.js";
import { type KeyName, LAB, makeKeys } from "./helpers.js";
import { deltas, NARRATOR, rawDeltaFrames, readEvents } from "./streaming.js";

const TELLER_TEXT = 'Once upon a time\na worker told a story, word by word — ünïcode ✓ and "quotes".';
/** The server reads a stream's events only when told to: what it sent, it was told of. */
const HOUR_MS = 3_600_000;

const postgres = engineFixtures().filter((fixture) => fixture.engine === "postgres");
const homes: string[] = [];
let serving: Runtime;
let working: Runtime;
let server: RunningServer;
let keys: Record<KeyName, string>;
let worker: JobWorker | undefined;

beforeAll(async () => {
  const { databaseUrl } = await postgres[0]!.fresh();
  const home = async () => {
    const made = await mkdtemp(join(tmpdir(), "oz0-server-pg-"));
    homes.push(made);
    return made;
  };
  serving = await Runtime.open({ home: await home(), databaseUrl, defaultPlugins: [] });
  keys = await makeKeys(serving);
  await serving.catalog.install(LAB, NARRATOR);
  server = await startServer({
    runtime: serving,
    host: "127.0.0.1",
    port: 0,
    worker: false,
    eventPollMs: HOUR_MS,
  });
  working = await Runtime.open({ home: await home(), databaseUrl, defaultPlugins: [] });
});
afterAll(async () => {
  await worker?.drain();
  await server?.close();
  await working?.close();
  await serving?.close();
  await disposeFixtures(postgres);
  await Promise.all(homes.map((home) => rm(home, { recursive: true, force: true })));
});

function request(path: string, key: KeyName, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set("authorization", `Bearer ${keys[key]}`);
  if (typeof init.body === "string") headers.set("content-type", "application/json");
  return fetch(`${server.url}${path}`, { ...init, headers });
}

describe("model text of a job another process runs, on PostgreSQL", () => {
  it("streams as delta frames before the step's model_call event, adding up to the recorded text", async () => {
    const started = await request(`/v1/t/${LAB}/jobs`, "runner", {
      method: "POST",
      body: JSON.stringify({ agent: "narrator/teller", input: "go" }),
    });
    const id = ((await started.json()) as { id: string }).id;
    const abort = new AbortController();
    const response = await request(`/v1/t/${LAB}/jobs/${id}/events`, "viewer", {
      headers: { accept: "text/event-stream" },
      signal: abort.signal,
    });
    expect(response.status).toBe(200);
    const stream = readEvents(response, abort);
    await stream.until(() => true);
    // The worker is another runtime's, on the same database: nothing of its run is in this process.
    worker = working.worker({ pollMs: 50 });
    await worker.start();
    await stream.ended;
    const { messages } = stream;
    const call = messages.findIndex((message) => message.event === "model_call");
    expect(call, stream.raw()).toBeGreaterThan(0);
    expect(
      deltas(messages.slice(0, call))
        .map((delta) => delta.text)
        .join(""),
    ).toBe(TELLER_TEXT);
    expect(deltas(messages.slice(call))).toEqual([]);
    expect(rawDeltaFrames(stream.raw()).every((frame) => !frame.includes("\nid: "))).toBe(true);
    const stored = await serving.jobs.events(id, { tenant: LAB });
    expect(
      messages
        .filter((message) => message.event !== "delta" && message.event !== "end")
        .map((message) => message.id),
    ).toEqual(stored.map((entry) => String(entry.seq)));
    expect(messages.at(-1)?.event).toBe("end");
  });
});
