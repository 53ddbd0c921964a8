// An agent that names a runtime this oz0 does not have never runs on oz0's own loop: install
// and lint refuse it (test/lint/agree.test.ts), and one a store holds from before is refused
// when a job of it starts and when a queued job of it is claimed.
import { isOz0Error } from "@oz0/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { JobEngine } from "../../src/jobs/index.js";
import { DirSource, fixture } from "./dir-source.js";
import { type Harness, harness, TENANT } from "./helpers.js";

const REFUSAL =
  "elsewhere/coder: agent 'coder' names runtime 'remote:nowhere', which this oz0 does not have (its remote runtimes are remote:a2a (an outside agent over A2A), remote:anthropic (an agent at Claude Managed Agents)); its runtimes: pydantic-ai (the default, oz0's own loop), openai-agents, remote:a2a, remote:anthropic, harness:<name>. Leave runtime: out to run the agent on oz0's own loop.";

describe("an agent on a runtime this oz0 does not have", () => {
  let opened: Harness | undefined;
  afterEach(async () => {
    await opened?.close();
    opened = undefined;
  });

  it("is refused when a job of it starts, and no job is made", async () => {
    opened = await harness(["elsewhere"]);
    const error = await opened
      .engine()
      .start({ tenant: TENANT, agent: "elsewhere/coder", input: "hi" })
      .catch((thrown: unknown) => thrown);
    expect(isOz0Error(error, "INVALID_PLUGIN"), String(error)).toBe(true);
    expect((error as Error).message).toBe(REFUSAL);
    expect(await opened.store.db.selectFrom("jobs").select("id").execute()).toEqual([]);
  });

  it("fails a job queued before its agent named the runtime, without running a step on oz0's loop", async () => {
    opened = await harness(["elsewhere-before"]);
    const queued = await opened.engine().start({ tenant: TENANT, agent: "elsewhere/coder", input: "hi" });
    const now = new JobEngine({
      store: opened.store,
      source: await DirSource.load([fixture("elsewhere")]),
      home: opened.home,
    });
    const job = await now.run(queued.id, { tenant: TENANT });
    expect(job.status).toBe("failed");
    expect(job.failure?.message).toBe(REFUSAL);
    expect((await now.events(job.id, { tenant: TENANT })).map((entry) => entry.kind)).not.toContain(
      "model_call",
    );
  });
});
