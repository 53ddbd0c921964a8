// Crash safety of runtime openai-agents with real processes: a worker running an agent through
// the OpenAI Agents SDK is killed with SIGKILL in the middle of a model call, and another
// process takes the job up from its history once the lease runs out. The SDK starts afresh
// there, the recorded steps come back from the history, and no recorded step is repeated: the
// fake OpenAI server is asked again only for the step in flight, and each call runs once.
import { rm } from "node:fs/promises";
import { afterAll, describe, expect, it } from "vitest";
import { ofKind } from "../jobs/helpers.js";
import { finish, history, kill, lines, scene, startWorker, until } from "../jobs/workers.js";
import { FakeModelServer } from "../models/fake-servers/server.js";
import { KEY } from "../models/helpers.js";
import { disposeFixtures, engineFixtures } from "../store/engines.js";

/** Short, so the second worker takes over soon after the first is killed; long enough that a live worker on a loaded 2-core machine renews it in time. */
const LEASE_MS = 2_000;
/** Each test starts two Node processes, which can take seconds each on a busy machine. */
const TIMEOUT_MS = 60_000;

const fixtures = engineFixtures().filter((entry) => entry.label !== "memory");
afterAll(() => disposeFixtures(fixtures), 60_000);

describe.concurrent.each(fixtures)("runtime openai-agents after kill -9 on $label", (fixture) => {
  it(
    "takes up a job whose worker was killed in the middle of the SDK's second model call, repeating no recorded step",
    async () => {
      const server = await FakeModelServer.start("openai-responses", { apiKey: KEY });
      const s = await scene(await fixture.fresh(), "desk/clerk", ["agents-desk"]);
      // The workers reach the fake server as OpenAI, by the standard variables.
      const env = { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: KEY };
      try {
        server.reply(
          { calls: [{ name: "ledger__add", args: { entry: "one" } }] },
          { calls: [{ name: "ledger__add", args: { entry: "two" } }] },
          { text: "filed" },
        );
        const first = startWorker(s, { mode: "run", leaseMs: LEASE_MS, hangAtModelStep: 2 }, env);
        await until(() => lines(s.modelLog).length === 2, "the second model call started", first);
        await kill(first);
        expect(lines(s.ledger)).toEqual([`${s.job}:1.1 1 one`]);
        const job = await finish(startWorker(s, { mode: "work", leaseMs: LEASE_MS }, env));
        expect(job).toMatchObject({ id: s.job, status: "succeeded", output: "filed" });
        // Each call ran once; step 1 came back from the history, step 2 was asked again once.
        expect(lines(s.ledger)).toEqual([`${s.job}:1.1 1 one`, `${s.job}:2.1 1 two`]);
        expect(lines(s.modelLog)).toEqual(["1", "2", "2", "3"]);
        expect(server.requests).toHaveLength(3);
        const events = await history(s);
        // The first worker recorded a step before it died: progress, so the count starts over.
        expect(ofKind(events, "job_claimed").map((entry) => entry.data.attempt)).toEqual([1, 1]);
        expect(ofKind(events, "model_call").map((entry) => [entry.data.step, entry.data.runtime])).toEqual([
          [1, "openai-agents"],
          [2, "openai-agents"],
          [3, "openai-agents"],
        ]);
        expect(ofKind(events, "tool_result").map((entry) => entry.data.callId)).toEqual(["1.1", "2.1"]);
      } finally {
        await server.close();
        await rm(s.dir, { recursive: true, force: true });
      }
    },
    TIMEOUT_MS,
  );
});
