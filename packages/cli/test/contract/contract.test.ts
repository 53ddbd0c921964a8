// The agent contract through the CLI, on the offline test provider with scripts: input and
// input_schema, output_schema with its two retries and its cards, declared failures and the
// exit codes callers branch on, and tags.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli, contractHome, ofKind, type RunShape, trace } from "./helpers.js";

let home: string;
let cleanup: () => Promise<void>;
let run: ReturnType<typeof cli>;
beforeAll(async () => {
  ({ home, cleanup } = await contractHome());
  run = cli(home);
});
afterAll(() => cleanup());

describe("input and input_schema", () => {
  it("fails a job whose input does not match input_schema with invalid_input before the agent starts", async () => {
    const result = await run("run", "contract/typed", '{ "ticket": "seven" }', "--json");
    expect(result.code).toBe(1);
    const job = result.json<RunShape>();
    expect(job.failure).toEqual({
      kind: "invalid_input",
      message:
        "the input does not match contract/typed's input_schema schemas/ticket.json: ticket: must be integer",
      code: "INVALID_INPUT",
    });
    const events = await trace(home, job.id);
    expect(ofKind(events, "model_call")).toEqual([]);
    expect(ofKind(events, "context_assembled")).toEqual([]);
    expect(events.map((entry) => entry.kind)).toEqual(["job_started", "job_claimed", "job_failed"]);
  });

  it("reads text given to an agent with an input_schema as JSON, and runs the agent when it matches", async () => {
    const result = await run("run", "contract/typed", '{ "ticket": 7 }');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("ticket taken\n");
  });

  it("refuses text that is not JSON for an agent with an input_schema", async () => {
    const result = await run("run", "contract/typed", "ticket seven", "--json");
    expect(result.code).toBe(1);
    expect(result.json<RunShape>().failure).toMatchObject({
      kind: "invalid_input",
      message: expect.stringContaining("(arguments): must be object"),
    });
  });

  it("gives an agent with input: text its text as it is", async () => {
    const result = await run("run", "contract/helper", '{ "not": "parsed" }', "--json");
    expect(result.json<RunShape>()).toMatchObject({ status: "succeeded", output: "the helper's answer" });
  });
});

describe("output_schema", () => {
  it("sends an answer that does not match back to the model, at most twice, and takes the matching one", async () => {
    const result = await run("run", "contract/shaped", "ticket 7", "--json");
    expect(result.code).toBe(0);
    const job = result.json<RunShape>();
    expect(job.output).toEqual({
      reason: "The customer was charged twice.",
      confidence: 0.9,
      queue: "billing",
    });
    const events = await trace(home, job.id);
    expect(ofKind(events, "output_rejected").map((entry) => entry.data.problems)).toEqual([
      "queue: must be equal to one of the allowed values",
      "(arguments): must have required property 'confidence'",
    ]);
    expect(ofKind(events, "model_call")).toHaveLength(3);
  });

  it("fails the job with invalid_output when the answer still does not match after two retries", async () => {
    const result = await run("run", "contract/stubborn", "ticket 7", "--json");
    expect(result.code).toBe(1);
    const job = result.json<RunShape>();
    expect(job.failure).toEqual({
      kind: "invalid_output",
      message: "the answer did not match schemas/verdict.json after 2 retries: confidence: must be <= 1",
    });
    expect(ofKind(await trace(home, job.id), "output_rejected")).toHaveLength(2);
  });

  it("draws a matching answer as key-values, the x-oz0-order properties first, labelled by their titles", async () => {
    const result = await run("run", "contract/shaped", "ticket 7");
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      "Queue       billing\nConfidence  0.9\nWhy         The customer was charged twice.\n",
    );
  });

  it("prints the answer as data with --json, and the card's data with oz0 job card --json", async () => {
    const job = (await run("run", "contract/shaped", "ticket 7", "--json")).json<RunShape>();
    expect(job.output).toEqual({
      reason: "The customer was charged twice.",
      confidence: 0.9,
      queue: "billing",
    });
    const card = await run("job", "card", job.id, "--json");
    expect(card.json()).toEqual({
      kind: "key_values",
      fields: [
        { key: "queue", label: "Queue", value: "billing" },
        { key: "confidence", label: "Confidence", value: 0.9 },
        { key: "reason", label: "Why", value: "The customer was charged twice." },
      ],
    });
    const drawn = await run("job", "card", job.id);
    expect(drawn.stdout).toBe(
      "Queue       billing\nConfidence  0.9\nWhy         The customer was charged twice.\n",
    );
    const [end] = ofKind(await trace(home, job.id), "job_succeeded");
    expect(end?.data.card).toEqual(card.json());
  });

  it("draws the two properties x-oz0-diff names as a diff, line by line", async () => {
    const result = await run("run", "contract/differ", "greet");
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      ["file  greeting.txt", "", "--- Before", "+++ After", "  hello", "- world", "+ there", ""].join("\n"),
    );
  });

  it("draws a list of objects as a table, the x-oz0-order columns first", async () => {
    const result = await run("run", "contract/lister", "who");
    expect(result.stdout).toBe(["ID  Name", "--  ----", "1   ana", "2   bo", ""].join("\n"));
  });

  it("refuses to draw the card of a job that did not succeed", async () => {
    const job = (await run("run", "contract/stubborn", "ticket 7", "--json")).json<RunShape>();
    const result = await run("job", "card", job.id);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`oz0: job ${job.id} has no answer to draw: it is failed.\n`);
  });
});

describe("failures", () => {
  it("ends the job with a declared kind through oz.fail, carrying the kind's retryable, partial and person flags", async () => {
    const result = await run("run", "contract/quitter", "ticket 7", "--json");
    const job = result.json<RunShape>();
    expect(job.status).toBe("failed");
    expect(job.failure).toEqual({
      kind: "upstream_down",
      message: "the ticket system timed out",
      retryable: true,
      partial: true,
      person: false,
    });
  });

  it("exits 3 for a failure kind the agent declares, saying what the flags mean", async () => {
    const result = await run("run", "contract/quitter", "ticket 7");
    expect(result.code).toBe(3);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(
      /oz0: job quitter-[0-9a-z]+ failed: upstream_down: the ticket system timed out \(retryable, partly done\)\n$/,
    );
  });

  it("ends the job as undeclared for a kind the agent does not declare, with exit code 1", async () => {
    const result = await run("run", "contract/wildcard", "ticket 7", "--json");
    expect(result.code).toBe(1);
    expect(result.json<RunShape>().failure).toEqual({
      kind: "undeclared",
      message: "too hard (the agent failed with kind gave_up, which it does not declare)",
      retryable: false,
      partial: false,
      person: false,
    });
  });

  it("exits 1 for the platform's own failure kinds", async () => {
    expect((await run("run", "contract/stubborn", "ticket 7")).code).toBe(1);
  });
});

describe("tags", () => {
  it("stores the agent's tags on its jobs and finds them with oz0 job search --tag", async () => {
    const tagged = (await run("run", "contract/tagged", "hi", "--json")).json<RunShape>();
    const helped = (await run("run", "contract/helper", "hi", "--json")).json<RunShape>();
    const other = (await run("run", "contract/typed", '{ "ticket": 7 }', "--json")).json<RunShape>();
    const hr = (await run("job", "search", "--tag", "hr", "--json")).json<{ id: string; tags: string[] }[]>();
    const ids = hr.map((job) => job.id);
    expect(ids).toContain(tagged.id);
    expect(ids).toContain(helped.id);
    expect(ids).not.toContain(other.id);
    expect(hr.find((job) => job.id === tagged.id)?.tags).toEqual(["hr", "people"]);
    const people = (await run("job", "search", "--tag", "people", "--json")).json<{ id: string }[]>();
    expect(people.map((job) => job.id)).toEqual([tagged.id]);
  });

  it("matches a tag whole, so a tag with '_' or '.' finds only itself", async () => {
    const none = await run("job", "search", "--tag", "h_", "--json");
    expect(none.json()).toEqual([]);
  });

  it("lists the agents with a tag with oz0 catalog --tag", async () => {
    const result = await run("catalog", "--tag", "release", "--json");
    expect(result.json<{ address: string }[]>().map((entry) => entry.address)).toEqual([
      "merge-when-green/changelog",
      "merge-when-green/status-board",
    ]);
  });
});
