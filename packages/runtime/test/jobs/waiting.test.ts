// Waiting is a state in the store: for a person's answer, for a child job, for a chat's next
// message. Nothing is held in memory while a job waits, so any later engine takes it up.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isOz0Error } from "@oz0/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "../../src/store/index.js";
import { type Harness, harness, kinds, ofKind, scripted, TENANT } from "./helpers.js";

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

describe("waiting for a person (oz.ask_user)", () => {
  it("puts the job to waiting, gives its lease up, and goes on once answered", async () => {
    const { job } = await h.run("helpdesk/asker", "ticket 7");
    expect(job).toMatchObject({
      status: "waiting",
      attempts: 0,
      waitingFor: { kind: "answer", callId: "1.1", question: "Which queue?" },
    });
    const row = await h.store.db
      .selectFrom("jobs")
      .selectAll()
      .where("id", "=", job.id)
      .executeTakeFirstOrThrow();
    expect(row.lease_owner).toBeNull();
    // A different engine (another process, days later) answers and runs it.
    const later = h.engine();
    expect(await later.answer(job.id, "billing", "alice", { tenant: TENANT })).toMatchObject({
      status: "queued",
    });
    const done = await later.run(job.id, { tenant: TENANT });
    expect(done).toMatchObject({ status: "succeeded", output: "assigned as asked" });
    const events = await later.events(job.id, { tenant: TENANT });
    expect(ofKind(events, "answer_received")[0]?.data).toEqual({
      callId: "1.1",
      answer: "billing",
      by: "alice",
    });
    expect(kinds(events).filter((kind) => kind === "job_claimed")).toHaveLength(2);
  });

  it("survives a restart: a waiting job is taken up from a new store connection", async () => {
    const home = await mkdtemp(join(tmpdir(), "oz0-wait-"));
    try {
      const first = await harness(["helpdesk"], await openStore({ home }));
      const { job } = await first.run("helpdesk/asker", "ticket 7");
      await first.close();
      const second = await harness(["helpdesk"], await openStore({ home }));
      await second.engine().answer(job.id, "bugs", "bob", { tenant: TENANT });
      expect(await second.engine().run(job.id, { tenant: TENANT })).toMatchObject({ status: "succeeded" });
      await second.close();
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });

  it("refuses an answer for a job that waits for none", async () => {
    const { job } = await h.run("helpdesk/triage", "ticket 7");
    const error = await h
      .engine()
      .answer(job.id, "x", "alice", { tenant: TENANT })
      .catch((thrown: unknown) => thrown);
    expect(isOz0Error(error, "JOB_STATE_CONFLICT")).toBe(true);
    expect((error as Error).message).toBe(
      `job ${job.id} is not waiting for an answer to a question (oz.ask_user): it is succeeded.`,
    );
  });

  it("refuses to resume a job that waits for an answer, saying how to answer", async () => {
    const { job } = await h.run("helpdesk/asker", "ticket 7");
    await expect(h.engine().resume(job.id, { tenant: TENANT })).rejects.toThrow(
      `oz0 job answer ${job.id} TEXT`,
    );
  });
});

describe("waiting for a child job (oz.delegate)", () => {
  it("starts the child with an ID holding the parent's ID and the child's agent, and waits for it", async () => {
    const engine = h.engine();
    const { job: parent } = await h.run("helpdesk/boss", "ticket 7");
    const childId = `${parent.id}.triage-1-1`;
    expect(parent).toMatchObject({
      status: "waiting",
      waitingFor: { kind: "child", callId: "1.1", job: childId },
    });
    const child = await engine.get(childId, TENANT);
    expect(child).toMatchObject({
      agent: "helpdesk/triage",
      status: "queued",
      parent: parent.id,
      depth: 1,
      input: "ticket 7",
    });
    // Any worker runs the child; its end queues the parent.
    expect(await engine.run(childId, { tenant: TENANT })).toMatchObject({
      status: "succeeded",
      output: "billing",
    });
    expect(await engine.get(parent.id, TENANT)).toMatchObject({ status: "queued" });
    const done = await engine.run(parent.id, { tenant: TENANT });
    expect(done).toMatchObject({ status: "succeeded", output: "triage says billing" });
    const events = await engine.events(parent.id, { tenant: TENANT });
    expect(ofKind(events, "child_job_started")[0]?.data).toEqual({
      callId: "1.1",
      job: childId,
      agent: "helpdesk/triage",
    });
    expect(ofKind(events, "child_job_finished")[0]?.data).toMatchObject({
      job: childId,
      status: "succeeded",
      output: "billing",
    });
    expect(ofKind(events, "model_call")[1]?.data.step).toBe(2);
  });

  it("sends a delegation to an agent outside delegation.allow back to the model", async () => {
    const { job, events } = await h.run("helpdesk/boss", "x", {
      models: scripted([
        { call: { function: "oz__delegate", args: { agent: "auto", input: "x" } } },
        { text: "refused" },
      ]),
    });
    expect(job.status).toBe("succeeded");
    expect(ofKind(events, "tool_result")[0]?.data).toMatchObject({
      ok: false,
      error: { code: "INVALID_INPUT" },
    });
  });

  it("cancels the child with the parent", async () => {
    const engine = h.engine();
    const { job: parent } = await h.run("helpdesk/boss", "ticket 7");
    await engine.cancel(parent.id, "carol", { tenant: TENANT });
    expect(await engine.get(parent.id, TENANT)).toMatchObject({
      status: "cancelled",
      failure: { kind: "cancelled", message: "cancelled by carol" },
    });
    expect(await engine.get(`${parent.id}.triage-1-1`, TENANT)).toMatchObject({ status: "cancelled" });
  });
});

describe("chat", () => {
  it("answers each message as a step of one job, keeping the history, until the chat ends", async () => {
    const engine = h.engine();
    const streamed: string[] = [];
    const started = await engine.start({
      tenant: TENANT,
      agent: "helpdesk/chatty",
      input: "hello",
      mode: "chat",
    });
    const first = await engine.run(started.id, { tenant: TENANT, onText: (delta) => streamed.push(delta) });
    expect(first).toMatchObject({ status: "waiting", waitingFor: { kind: "chat" }, mode: "chat" });
    expect(streamed.join("")).toBe("Done (the offline test model answered without calling a function).");
    await engine.say(started.id, "and now?", "dave", { tenant: TENANT });
    const second = await engine.run(started.id, { tenant: TENANT });
    expect(second.status).toBe("waiting");
    const ended = await engine.endChat(started.id, { tenant: TENANT });
    expect(ended).toMatchObject({ status: "succeeded", output: "You said: and now?" });
    const events = await engine.events(started.id, { tenant: TENANT });
    expect(
      kinds(events).filter((kind) => ["model_call", "user_message", "job_waiting"].includes(kind)),
    ).toEqual(["model_call", "job_waiting", "user_message", "model_call", "job_waiting"]);
    expect(ofKind(events, "model_call")[1]?.data.usage.input).toBeGreaterThan(
      ofKind(events, "model_call")[0]!.data.usage.input,
    );
  });
});
