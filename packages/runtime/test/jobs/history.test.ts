// Histories written by released versions stay readable: a frozen history of each version is
// replayed and taken up by today's engine. Add a fixture for every release that changes what
// jobs record; never edit one.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { replay } from "../../src/jobs/history.js";
import type { JobEvent } from "../../src/jobs/index.js";
import type { JobRow } from "../../src/store/index.js";
import { type Harness, harness, ofKind } from "./helpers.js";

interface Frozen {
  readonly job: JobRow;
  readonly events: JobEvent[];
}

function frozen(name: string): Frozen {
  return JSON.parse(
    readFileSync(new URL(`../fixtures/jobs/histories/${name}`, import.meta.url), "utf8"),
  ) as Frozen;
}

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

describe("histories of 0.1.0", () => {
  const { job, events } = frozen("0.1.0-asker-waiting.json");

  it("replays to the conversation and the pending call the job was waiting on", () => {
    const history = replay(events);
    expect(history.steps).toBe(1);
    expect(history.conversation.messages.map((message) => message.role)).toEqual([
      "system",
      "user",
      "assistant",
    ]);
    expect([...history.pending.keys()]).toEqual(["1.1"]);
    expect(history.pending.get("1.1")?.started).toMatchObject({ key: `${job.id}:1.1`, attempt: 1 });
  });

  it("is taken up by today's engine once answered", async () => {
    // Times are the database's at the write; the wall-time limit counts from the job's start, so
    // the frozen job starts now.
    const now = await h.store.now();
    await h.store.db
      .insertInto("jobs")
      .values({ ...job, created_at: now, updated_at: now })
      .execute();
    await h.store.db
      .insertInto("job_events")
      .values(
        events.map((entry) => ({
          job_id: job.id,
          seq: entry.seq,
          kind: entry.kind,
          at: entry.at,
          data: JSON.stringify(entry.data),
        })),
      )
      .execute();
    const engine = h.engine();
    await engine.answer(job.id, "billing", "ivy", { tenant: "default" });
    const done = await engine.run(job.id, { tenant: "default" });
    expect(done).toMatchObject({ status: "succeeded", output: "assigned as asked" });
    expect(ofKind(await engine.events(job.id, { tenant: "default" }), "context_assembled")).toHaveLength(1);
  });
});
