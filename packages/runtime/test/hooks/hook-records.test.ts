// What hooks record from outside a job's run (a person's chat message, a webhook) while a worker
// holds the job: a running job's history is its worker's to write, so the records wait for that
// worker's next write, or for what it does right after the write that ends the run. Each test
// holds the worker where the case needs it with a hook that waits for the test, never for a time.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { event } from "../../src/events/index.js";
import { pluginHookSource } from "../../src/hooks/index.js";
import { type JobEngine, type JobEvent, JobWorker } from "../../src/jobs/index.js";
import type { LanguageModel } from "../../src/models/index.js";
import { sensedWebhook } from "../../src/routines/index.js";
import { openStore, type Store } from "../../src/store/index.js";
import { harness, TENANT, using } from "../jobs/helpers.js";
import { disposeFixtures, engineFixtures } from "../store/engines.js";
import { hookPlugin } from "./helpers.js";

const fixtures = engineFixtures();
afterAll(() => disposeFixtures(fixtures));

/** A slow poll no test could wait out: the worker takes what it is told of. */
const HOUR_MS = 3_600_000;

const answering: LanguageModel = {
  id: "test:answers",
  generate: async () => ({ text: "ok", calls: [], usage: { inputTokens: 1, outputTokens: 1 } }),
};

/** A promise and the function that settles it. */
function signal(): { promise: Promise<void>; fire: () => void } {
  let fire: () => void = () => {};
  const promise = new Promise<void>((resolve) => {
    fire = resolve;
  });
  return { promise, fire };
}

async function until(engine: JobEngine, id: string, status: string): Promise<void> {
  while ((await engine.get(id, TENANT)).status !== status)
    await new Promise((resolve) => setTimeout(resolve, 10));
}

/**
 * The job's events once a hook_error of `hook` is among them: a worker whose write ended the run
 * moves the records in right after it, so the test waits for that write, not for a time.
 */
async function recorded(engine: JobEngine, id: string, hook: string): Promise<JobEvent[]> {
  for (;;) {
    const events = await engine.events(id, { tenant: TENANT });
    if (hookErrors(events, hook).length > 0) return events;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function hookErrors(events: readonly JobEvent[], hook: string): JobEvent[] {
  return events.filter(
    (entry) => entry.kind === "hook_error" && (entry.data as { hook?: string }).hook === hook,
  );
}

describe.each(fixtures)("hook records while a worker holds the job, on $label", (fixture) => {
  let store: Store;
  let worker: JobWorker | undefined;
  beforeAll(async () => {
    store = await openStore(await fixture.fresh());
  });
  afterAll(async () => {
    await worker?.drain();
    await store?.close();
  });

  async function workerWith(plugins: ReturnType<typeof hookPlugin>[]): Promise<JobEngine> {
    await worker?.drain();
    const h = await harness(["helpdesk"], store);
    const engine = h.engine({ hooks: pluginHookSource(plugins), models: using(answering) });
    worker = new JobWorker(engine, { pollMs: HOUR_MS });
    await worker.start();
    return engine;
  }

  it("what post_session_access records of a chat message joins the chat's history with the worker's next write", async () => {
    const running = signal();
    const noted = signal();
    let chat = "";
    const engine = await workerWith([
      hookPlugin("sessions", (host) => {
        host.addHook({
          name: "sessions",
          build: () => ({
            post_session_access: async (p) => {
              if (p.kind !== "chat" || p.entry !== "more") return;
              await running.promise;
              throw new Error("heard while the worker ran the turn");
            },
            // The second turn's model call waits until the message's records were noted.
            pre_llm_call: async (p) => {
              if (p.step < 2) return;
              running.fire();
              await noted.promise;
            },
          }),
        });
      }),
    ]);
    chat = (await engine.start({ tenant: TENANT, agent: "helpdesk/chatty", input: "hi", mode: "chat" })).id;
    await until(engine, chat, "waiting");
    await engine.say(chat, "more", "carol", { tenant: TENANT });
    expect((await engine.get(chat, TENANT)).status).toBe("running");
    expect(hookErrors(await engine.events(chat, { tenant: TENANT }), "post_session_access")).toEqual([]);
    noted.fire();
    await until(engine, chat, "waiting");
    const events = await recorded(engine, chat, "post_session_access");
    const errors = hookErrors(events, "post_session_access");
    expect(errors.map((entry) => entry.data)).toEqual([
      expect.objectContaining({ plugin: "sessions", error: "heard while the worker ran the turn" }),
    ]);
    const message = events.findIndex((entry) => entry.kind === "user_message");
    expect(events.indexOf(errors[0]!)).toBeGreaterThan(message);
  });

  it("what post_sensor_event records while the worker ends the run follows the job's end", async () => {
    const ending = signal();
    const noted = signal();
    const engine = await workerWith([
      hookPlugin("sensors", (host) => {
        host.addHook({
          name: "sensors",
          build: () => ({
            post_sensor_event: () => {
              throw new Error("the event was heard");
            },
            // The end waits, after the run's last write before it, until the webhook's records were noted.
            post_execution: async () => {
              ending.fire();
              await noted.promise;
            },
          }),
        });
      }),
    ]);
    const sensed = await sensedWebhook(engine, TENANT, "helpdesk/nightly", "deploy done");
    if (!sensed.ok) throw sensed.error;
    const started = await engine.start({ tenant: TENANT, agent: "helpdesk/early", input: sensed.event });
    await ending.promise;
    await sensed.handled("started", started.id);
    expect((await engine.get(started.id, TENANT)).status).toBe("running");
    noted.fire();
    await until(engine, started.id, "succeeded");
    const events = await recorded(engine, started.id, "post_sensor_event");
    const errors = hookErrors(events, "post_sensor_event");
    expect(errors).toHaveLength(1);
    expect(events.indexOf(errors[0]!)).toBeGreaterThan(
      events.findIndex((entry) => entry.kind === "job_succeeded"),
    );
  });

  it("what post_sensor_event records while a worker holds the job is kept when the worker lets it go, with the next run", async () => {
    const holding = signal();
    const noted = signal();
    const engine = await workerWith([
      hookPlugin("sensors", (host) => {
        host.addHook({
          name: "sensors",
          build: () => ({
            post_sensor_event: () => {
              throw new Error("heard before the drain");
            },
            pre_llm_call: async () => {
              holding.fire();
              await noted.promise;
            },
          }),
        });
      }),
    ]);
    const sensed = await sensedWebhook(engine, TENANT, "helpdesk/nightly", "deploy done");
    if (!sensed.ok) throw sensed.error;
    const started = await engine.start({ tenant: TENANT, agent: "helpdesk/early", input: sensed.event });
    await holding.promise;
    await sensed.handled("started", started.id);
    // The worker drains with no grace: the job is let go, queued, its records still waiting.
    const draining = worker!.drain(0);
    noted.fire();
    await draining;
    worker = undefined;
    const job = await engine.get(started.id, TENANT);
    if (job.status !== "succeeded") {
      expect(job.status).toBe("queued");
      await engine.run(started.id, { tenant: TENANT });
    }
    expect(
      hookErrors(await recorded(engine, started.id, "post_sensor_event"), "post_sensor_event"),
    ).toHaveLength(1);
  });

  it("what hooks noted for a job whose worker died is written before its end when it is cancelled", async () => {
    await worker?.drain();
    worker = undefined;
    const engine = (await harness(["helpdesk"], store)).engine();
    const started = await engine.start({ tenant: TENANT, agent: "helpdesk/early", input: "held" });
    // A worker claims the job and dies at once: its lease has run out, the job still running.
    const claimed = await engine.jobs.claim({
      job: started.id,
      node: "gone",
      token: "gone#1",
      ttlMs: 0,
      tenant: TENANT,
    });
    expect(claimed?.row.status).toBe("running");
    const noted = event("hook_error", {
      hook: "post_sensor_event",
      plugin: "sensors",
      error: "heard as the worker died",
      handler: "sensors",
      required: false,
    });
    expect(await engine.note(started.id, TENANT, [noted])).toBe(false);
    await engine.cancel(started.id, "cli:erin", { tenant: TENANT });
    const events = await engine.events(started.id, { tenant: TENANT });
    expect(events.slice(-2).map((entry) => entry.kind)).toEqual(["hook_error", "job_cancelled"]);
  });
});
