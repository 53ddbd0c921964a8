// Following a job over a history a test controls: every event is given once and in order
// before the end, even when the job ends between two reads, and model text is given before
// its step's model_call.
import { describe, expect, it } from "vitest";
import { type FollowItem, type FollowSource, followJob } from "../../src/jobs/follow.js";
import type { JobEvent, JobView } from "../../src/jobs/index.js";
import { LiveFeed } from "../../src/jobs/live.js";
import { harness, TENANT } from "./helpers.js";

const HOUR_MS = 3_600_000;

function view(status: JobView["status"]): JobView {
  return { id: "j", tenant: "t", status } as JobView;
}

function entry(seq: number, kind: string, data: Record<string, unknown> = {}): JobEvent {
  return { seq, at: seq, kind, data } as unknown as JobEvent;
}

/** A history whose reads call `afterRead` once the events were read. */
function history(initial: JobEvent[], afterRead: (read: number) => void = () => {}) {
  const events = [...initial];
  let status: JobView["status"] = "running";
  let reads = 0;
  const live = new LiveFeed(undefined);
  const source: FollowSource = {
    live,
    async get() {
      return view(status);
    },
    async events(_id, { afterSeq }) {
      const out = events.filter((event) => event.seq > afterSeq);
      afterRead(++reads);
      return out;
    },
  };
  return {
    source,
    live,
    append: (more: JobEvent[], ended = false) => {
      events.push(...more);
      if (ended) status = "succeeded";
    },
  };
}

async function all(items: AsyncGenerator<FollowItem, void, undefined>): Promise<FollowItem[]> {
  const out: FollowItem[] = [];
  for await (const item of items) out.push(item);
  return out;
}

describe("following a job", () => {
  it("gives every event before the end when the job ends just after its events were read", async () => {
    const h = history([entry(1, "job_started")], (read) => {
      // The job's last events and its end land between this read and the next look at the job.
      if (read === 1)
        h.append([entry(2, "model_call", { step: 1, text: "hi" }), entry(3, "job_succeeded")], true);
    });
    const items = await all(await followJob(h.source, "j", { tenant: "t", pollMs: 1 }));
    expect(items.map((item) => (item.kind === "event" ? item.event.seq : item.kind))).toEqual([
      1,
      2,
      3,
      "end",
    ]);
  });

  it("gives a step's text before its model_call", async () => {
    const h = history([entry(1, "job_started")]);
    const items = followJob(h.source, "j", { tenant: "t", pollMs: HOUR_MS });
    const publisher = h.live.publisher("t", "j");
    const followed = all(await items);
    publisher.text(1, "Hel");
    publisher.text(1, "lo");
    await publisher.endStep(1);
    h.append([entry(2, "model_call", { step: 1, text: "Hello" }), entry(3, "job_succeeded")], true);
    publisher.written();
    const out = await followed;
    expect(
      out.map((item) =>
        item.kind === "event" ? item.event.kind : item.kind === "delta" ? item.text : "end",
      ),
    ).toEqual(["job_started", "Hel", "lo", "model_call", "job_succeeded", "end"]);
  });

  it("reads at once what is written outside a run (a cancel), without waiting for its poll", async () => {
    const h = await harness();
    try {
      const engine = h.engine();
      const started = await engine.start({ tenant: TENANT, agent: "helpdesk/triage", input: "ticket 7" });
      const followed = all(await engine.follow(started.id, { tenant: TENANT, pollMs: HOUR_MS }));
      await engine.cancel(started.id, "user:ops", { tenant: TENANT });
      const out = await followed;
      expect(out.map((item) => (item.kind === "event" ? item.event.kind : item.kind))).toEqual([
        "job_started",
        "job_cancelled",
        "end",
      ]);
    } finally {
      await h.close();
    }
  });
});
