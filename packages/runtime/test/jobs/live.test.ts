// A running job's live feed: its model text reaches whoever follows the job while the step
// runs, wherever the job runs. In one process at once; across processes on PostgreSQL through
// NOTIFY, cut to its payload limit and redacted as the recorded text is; across processes on
// SQLite not at all, the step's text coming with its model_call event (docs/jobs.md).
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FollowItem, JobEngine } from "../../src/jobs/index.js";
import { LiveFeed, payloads } from "../../src/jobs/live.js";
import type { LanguageModel } from "../../src/models/index.js";
import { redactorOf } from "../../src/models/redact.js";
import { type Broadcast, openStore, type Store, type StoreOptions } from "../../src/store/index.js";
import { disposeFixtures, engineFixtures } from "../store/engines.js";
import { harness, TENANT, using } from "./helpers.js";

/** A poll no test waits out: what a follower read, it read because it was told to. */
const HOUR_MS = 3_600_000;

const SECRET = "sk-live-feed-0123456789abcdef";

describe("a live payload", () => {
  it("stays within the NOTIFY limit in UTF-8 bytes, cut between code points, with the end on the last", () => {
    const text = `${"plain words ".repeat(400)}${'ünïcödé ✓ 🙂 "quoted"\n'.repeat(300)}`;
    const out = payloads("origin", "tenant", "job-1", { step: 3, text, end: true }, 1_000);
    expect(out.length).toBeGreaterThan(10);
    for (const payload of out) expect(Buffer.byteLength(payload)).toBeLessThanOrEqual(1_000);
    const parsed = out.map(
      (payload) => JSON.parse(payload) as { x?: string; e?: number; s: number; j: string },
    );
    expect(parsed.map((entry) => entry.x ?? "").join("")).toBe(text);
    expect(parsed.every((entry) => entry.s === 3 && entry.j === "job-1")).toBe(true);
    expect(parsed.map((entry) => entry.e)).toEqual([...parsed.slice(1).map(() => undefined), 1]);
    // No piece starts or ends inside a surrogate pair.
    const lone = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
    for (const entry of parsed) expect(lone.test(entry.x ?? "")).toBe(false);
  });
});

describe("a live publisher", () => {
  it("holds the pieces given at once and the step's end for the write that records the step, and sends nothing for a step without text", async () => {
    const sent: string[] = [];
    const broadcast: Broadcast = {
      maxPayloadBytes: 7_900,
      send: async (_job, payload) => void sent.push(payload),
      follow: async () => async () => {},
      listen: async () => ({ close: async () => {} }),
    };
    const feed = new LiveFeed(broadcast);
    const heard: unknown[] = [];
    const stop = await feed.subscribe("t", "j", (message) => heard.push(message));
    const publisher = feed.publisher("t", "j");
    for (const piece of ["Once ", "upon ", "a time"]) publisher.text(1, piece);
    await publisher.endStep(1);
    // No message of its own: the write that records the step carries the text, then its word.
    expect(sent).toEqual([]);
    expect(JSON.parse(publisher.notice!).map((payload: string) => JSON.parse(payload))).toEqual([
      { o: expect.any(String), t: "t", j: "j", s: 1, x: "Once upon a time", e: 1 },
      { o: expect.any(String), t: "t", j: "j", s: 0, w: 1 },
    ]);
    // This process's followers hear each piece as it came.
    expect(heard).toEqual([
      { kind: "text", step: 1, text: "Once " },
      { kind: "text", step: 1, text: "upon " },
      { kind: "text", step: 1, text: "a time" },
      { kind: "step_end", step: 1 },
    ]);
    publisher.written(true);
    expect(publisher.notice).toBeUndefined();
    // A step without text (a reply of calls alone) sends nothing at its end.
    expect(publisher.endStep(2)).toBeUndefined();
    publisher.written();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(sent).toEqual([]);
    stop();
    await feed.close();
  });

  it("sends what it held with a write that could not carry it, then the write's word; a piece on its way at the step's end goes first", async () => {
    const sent: string[] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const broadcast: Broadcast = {
      maxPayloadBytes: 7_900,
      send: async (_job, payload) => {
        sent.push(payload);
        if (sent.length === 1) await gate;
      },
      follow: async () => async () => {},
      listen: async () => ({ close: async () => {} }),
    };
    const feed = new LiveFeed(broadcast);
    const publisher = feed.publisher("t", "j");
    publisher.text(1, "first ");
    await new Promise((resolve) => setImmediate(resolve));
    // "first " is on its way; what comes meanwhile is held at the step's end.
    publisher.text(1, "second");
    const ended = publisher.endStep(1)!;
    let done = false;
    void ended.then(() => {
      done = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(done).toBe(false);
    release();
    await ended;
    expect(sent.map((payload) => JSON.parse(payload).x)).toEqual(["first "]);
    publisher.written(false);
    for (let wait = 0; wait < 100 && sent.length < 3; wait++)
      await new Promise((resolve) => setTimeout(resolve, 5));
    expect(sent.slice(1).map((payload) => JSON.parse(payload))).toEqual([
      { o: expect.any(String), t: "t", j: "j", s: 1, x: "second", e: 1 },
      { o: expect.any(String), t: "t", j: "j", s: 0, w: 1 },
    ]);
    await feed.close();
  });
});

describe("a step's end", () => {
  it("gives the loop nothing to await when no process elsewhere waits for its text, and tells this process's followers", async () => {
    const alone = new LiveFeed(undefined);
    const heard: unknown[] = [];
    const stop = await alone.subscribe("t", "j", (message) => heard.push(message));
    const publisher = alone.publisher("t", "j");
    publisher.text(1, "hello");
    expect(publisher.endStep(1)).toBeUndefined();
    expect(heard).toEqual([
      { kind: "text", step: 1, text: "hello" },
      { kind: "step_end", step: 1 },
    ]);
    stop();
    const broadcast: Broadcast = {
      maxPayloadBytes: 7_900,
      send: async () => {},
      follow: async () => async () => {},
      listen: async () => ({ close: async () => {} }),
    };
    const wired = new LiveFeed(broadcast).publisher("t", "j");
    // A step of calls alone sent no text, so no end goes out for it either.
    expect(wired.endStep(1)).toBeUndefined();
    wired.text(2, "hello");
    const ending = wired.endStep(2);
    expect(ending).toBeInstanceOf(Promise);
    await ending;
  });
});

/** A model that streams `pieces`, holding after the first until `release()`. */
function streaming(pieces: readonly string[]) {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let entered: () => void = () => {};
  const called = new Promise<void>((resolve) => {
    entered = resolve;
  });
  const model: LanguageModel = {
    id: "test:streaming",
    async generate(request) {
      entered();
      request.onText?.(pieces[0]!);
      await held;
      for (const piece of pieces.slice(1)) request.onText?.(piece);
      return { text: pieces.join(""), calls: [], usage: { inputTokens: 1, outputTokens: 1 } };
    },
  };
  return { model, release: () => release(), called };
}

/** Collects a follow's items in the background; `until` waits for one. */
function collect(items: AsyncGenerator<FollowItem, void, undefined>) {
  const seen: FollowItem[] = [];
  const waiters: { test: (item: FollowItem) => boolean; resolve: () => void }[] = [];
  const done = (async () => {
    for await (const item of items) {
      seen.push(item);
      for (const waiter of [...waiters]) {
        if (waiter.test(item)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve();
        }
      }
    }
  })();
  return {
    seen,
    done,
    until: (test: (item: FollowItem) => boolean) =>
      seen.some(test) ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ test, resolve })),
  };
}

const deltaText = (items: readonly FollowItem[]) =>
  items.flatMap((item) => (item.kind === "delta" ? [item.text] : [])).join("");
const eventKinds = (items: readonly FollowItem[]) =>
  items.flatMap((item) => (item.kind === "event" ? [item.event.kind] : []));

const fixtures = engineFixtures().filter((fixture) => fixture.persistent);
afterAll(() => disposeFixtures(fixtures));

describe.each(fixtures)("a job run by another process's engine on $label", (fixture) => {
  let options: StoreOptions;
  let here: Store;
  let there: Store;
  let follower: JobEngine;
  beforeAll(async () => {
    options = await fixture.fresh();
    here = await openStore(options);
    there = await openStore(options);
    follower = (await harness(["helpdesk"], here)).engine();
  });
  afterAll(async () => {
    await follower.live.close();
    await there.close();
    await here.close();
  });

  async function runner(model: LanguageModel, secrets: readonly string[] = []): Promise<JobEngine> {
    return (await harness(["helpdesk"], there)).engine({
      models: using(model),
      redactor: async () => redactorOf(secrets),
    });
  }

  if (fixture.engine === "postgres") {
    it("streams the step's text to a follower here while it runs there, before its model_call event", async () => {
      const pieces = ["Once ", "upon ", "a time, ", "there ", "was ", "a worker."];
      const model = streaming(pieces);
      const jobs = await runner(model.model);
      const started = await follower.start({ tenant: TENANT, agent: "helpdesk/triage", input: "go" });
      const followed = collect(await follower.follow(started.id, { tenant: TENANT, pollMs: HOUR_MS }));
      await followed.until((item) => item.kind === "event");
      const run = jobs.run(started.id, { tenant: TENANT });
      // The first piece arrives while the model is still answering: no model_call exists yet.
      await followed.until((item) => item.kind === "delta");
      expect(eventKinds(followed.seen)).not.toContain("model_call");
      model.release();
      expect(await run).toMatchObject({ status: "succeeded", output: pieces.join("") });
      await followed.done;
      const items = followed.seen;
      const call = items.findIndex((item) => item.kind === "event" && item.event.kind === "model_call");
      expect(deltaText(items.slice(0, call))).toBe(pieces.join(""));
      expect(items.slice(call).some((item) => item.kind === "delta")).toBe(false);
      expect(items.at(-1)).toMatchObject({ kind: "end", job: { status: "succeeded" } });
      // Deltas are not events: the history has no trace of them.
      const stored = await follower.events(started.id, { tenant: TENANT });
      expect(eventKinds(items)).toEqual(stored.map((entry) => entry.kind));
      await jobs.live.close();
    });

    it("sends no secret over NOTIFY, even one that streams in two pieces", async () => {
      const listener = new pg.Client({ connectionString: options.databaseUrl });
      await listener.connect();
      const payloads: string[] = [];
      let wrote: () => void = () => {};
      // The word of the write after the text comes last, on this connection too.
      const lastHeard = new Promise<void>((resolve) => {
        wrote = resolve;
      });
      listener.on("notification", (message) => {
        if (message.channel !== "oz0_live") return;
        payloads.push(message.payload ?? "");
        if ((JSON.parse(message.payload ?? "{}") as { w?: number }).w === 1) wrote();
      });
      await listener.query("listen oz0_live");
      try {
        const model = streaming(["The key is sk-live-", "feed-0123456789abcdef, ", "not for you."]);
        const jobs = await runner(model.model, [SECRET]);
        const started = await follower.start({ tenant: TENANT, agent: "helpdesk/triage", input: "go" });
        const followed = collect(await follower.follow(started.id, { tenant: TENANT, pollMs: HOUR_MS }));
        await followed.until((item) => item.kind === "event");
        const run = jobs.run(started.id, { tenant: TENANT });
        await model.called;
        model.release();
        await run;
        await followed.done;
        await lastHeard;
        expect(deltaText(followed.seen)).toBe("The key is [redacted], not for you.");
        expect(payloads.length).toBeGreaterThan(0);
        for (const payload of payloads) {
          expect(payload).not.toContain("sk-live-");
          expect(payload).not.toContain("0123456789abcdef");
        }
        await jobs.live.close();
      } finally {
        await listener.end();
      }
    });

    it("tells a run here that follows the job there (oz0 run beside a worker) the text as it streams", async () => {
      const pieces = ["first ", "second ", "third"];
      const model = streaming(pieces);
      const jobs = await runner(model.model);
      const started = await follower.start({ tenant: TENANT, agent: "helpdesk/triage", input: "go" });
      const run = jobs.run(started.id, { tenant: TENANT });
      await model.called;
      const told: string[] = [];
      let waiting: () => void = () => {};
      const following = new Promise<void>((resolve) => {
        waiting = resolve;
      });
      const followed = follower.run(started.id, {
        tenant: TENANT,
        follow: true,
        onText: (text) => told.push(text),
        onLeaseWait: () => waiting(),
      });
      // It waits on the other lease, listening: what streams from now on reaches it.
      await following;
      model.release();
      await run;
      expect(await followed).toMatchObject({ status: "succeeded" });
      // The first piece left while it was joining: it may or may not have heard it.
      expect(["first second third", "second third"]).toContain(told.join(""));
      await jobs.live.close();
    });
  } else {
    it("gives a follower here the step's text in its model_call event, and no deltas", async () => {
      const pieces = ["Once ", "upon ", "a time."];
      const model = streaming(pieces);
      model.release();
      const jobs = await runner(model.model);
      const started = await follower.start({ tenant: TENANT, agent: "helpdesk/triage", input: "go" });
      const followed = collect(await follower.follow(started.id, { tenant: TENANT, pollMs: 20 }));
      await followed.until((item) => item.kind === "event");
      expect(await jobs.run(started.id, { tenant: TENANT })).toMatchObject({ status: "succeeded" });
      await followed.done;
      expect(followed.seen.some((item) => item.kind === "delta")).toBe(false);
      const call = followed.seen.find((item) => item.kind === "event" && item.event.kind === "model_call");
      expect(call).toMatchObject({ event: { data: { step: 1, text: "Once upon a time." } } });
      expect(followed.seen.at(-1)).toMatchObject({ kind: "end", job: { status: "succeeded" } });
    });
  }
});

describe("a live feed's marks", () => {
  it("marks a job followed once for all its followers here, sends its messages with the job, and ends the mark when the last follower stops or the feed closes", async () => {
    const marks: string[] = [];
    const sent: { job: string; payload: string }[] = [];
    const broadcast: Broadcast = {
      maxPayloadBytes: 7_900,
      send: async (job, payload) => void sent.push({ job, payload }),
      follow: async (job, follower) => {
        marks.push(`+${job}`);
        expect(follower).toMatch(/^[0-9a-f-]{36}$/);
        return async () => void marks.push(`-${job}`);
      },
      listen: async () => ({ close: async () => {} }),
    };
    const feed = new LiveFeed(broadcast);
    const first = await feed.subscribe("t", "j1", () => {});
    const second = await feed.subscribe("t", "j1", () => {});
    const other = await feed.subscribe("t", "j2", () => {});
    expect(marks).toEqual(["+j1", "+j2"]);
    first();
    expect(marks).toEqual(["+j1", "+j2"]);
    second();
    await new Promise((resolve) => setImmediate(resolve));
    expect(marks).toEqual(["+j1", "+j2", "-j1"]);
    const publisher = feed.publisher("t", "j2");
    publisher.text(1, "hi");
    await publisher.endStep(1);
    publisher.written(false);
    for (let wait = 0; wait < 100 && sent.length < 2; wait++)
      await new Promise((resolve) => setTimeout(resolve, 5));
    expect(sent.map((message) => message.job)).toEqual(["j2", "j2"]);
    await feed.close();
    expect(marks).toEqual(["+j1", "+j2", "-j1", "-j2"]);
    other();
    expect(marks).toHaveLength(4);
  });
});
