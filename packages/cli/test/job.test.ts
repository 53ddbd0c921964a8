import type { JobEvent, JobView } from "@oz0/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drawTrace } from "../src/commands/job.js";
import { homeWithPlugins, LAB, type RunShape } from "./jobs-helpers.js";
import { oz0 } from "./run-cli.js";

let home: string;
let cleanup: () => Promise<void>;
let triage: string;
beforeAll(async () => {
  ({ home, cleanup } = await homeWithPlugins());
  const ran = await oz0(["run", "support-triage/triage", "ticket 7", "--json", "--home", home]);
  triage = ran.json<RunShape>().id;
});
afterAll(() => cleanup());

const run = (args: string[], lab = false) =>
  oz0([...args, "--home", home, ...(lab ? ["--tenant", LAB] : [])]);

interface TraceEvent {
  seq: number;
  kind: string;
  at: number;
  data: Record<string, unknown>;
}

describe("oz0 job get", () => {
  it("shows the job by address, with its status, input and output", async () => {
    const result = await run(["job", "get", triage]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`job ${triage}\n  agent    support-triage/triage\n  status   succeeded`);
    expect(result.stdout).toContain('  output   "billing"');
    const json = (await run(["job", "get", triage, "--json"])).json<Record<string, unknown>>();
    expect(json).toMatchObject({
      id: triage,
      agent: "support-triage/triage",
      status: "succeeded",
      output: "billing",
    });
  });

  it("does not find a job of another tenant", async () => {
    const result = await run(["job", "get", triage], true);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`oz0: there is no job ${triage}; oz0 job search lists the tenant's jobs.\n`);
  });
});

describe("oz0 job trace", () => {
  it("names the agent runtime: the job's on its started line, and another runtime's on each step it took", async () => {
    const result = await run(["job", "trace", triage]);
    expect(result.stdout).toMatch(
      /started {6}support-triage\/triage · input "ticket 7" · by [^\n]* · runtime oz0\n/,
    );
    // oz0's own steps are the usual case and say nothing more.
    expect(result.stdout).not.toContain(" · on ");
    const step = (runtime: string): JobEvent =>
      ({
        seq: 3,
        at: 20,
        kind: "model_call",
        data: {
          step: 1,
          runtime,
          model: "test:m",
          calls: [],
          text: "hi",
          usage: { input: 1, output: 1 },
          ms: 1,
        },
      }) as JobEvent;
    const started = {
      seq: 1,
      at: 0,
      kind: "job_started",
      data: { agent: "p/a", mode: "run", input: "x", runtime: "scripted" },
    } as JobEvent;
    const drawn = drawTrace({ id: "j", agent: "p/a", status: "succeeded", createdAt: 0 } as JobView, [
      started,
      step("scripted"),
    ]);
    expect(drawn).toContain('started      p/a · input "x" · runtime scripted');
    expect(drawn).toContain("model        step 1 · on scripted · test:m · 1 ms");
  });

  it("shows a harness job's steps on harness:<name> and what its session reported", () => {
    const events = [
      {
        seq: 1,
        at: 0,
        kind: "job_started",
        data: { agent: "p/a", mode: "run", input: "x", runtime: "harness:mock" },
      },
      {
        seq: 2,
        at: 5,
        kind: "harness_update",
        data: { runtime: "harness:mock", update: "plan", data: { entries: [{ content: "note" }] } },
      },
      {
        seq: 3,
        at: 9,
        kind: "model_call",
        data: {
          step: 1,
          runtime: "harness:mock",
          model: "harness:mock",
          calls: [{ id: "1.1", name: "audit__note", args: { line: "opening" } }],
          usage: { input: 0, output: 0 },
          cost_usd: 0.01,
          ms: 0,
        },
      },
    ] as JobEvent[];
    const drawn = drawTrace({ id: "j", agent: "p/a", status: "succeeded", createdAt: 0 } as JobView, events);
    expect(drawn).toContain("runtime harness:mock");
    expect(drawn).toContain('harness      harness:mock plan {"entries":[{"content":"note"}]}');
    expect(drawn).toContain(
      'model        step 1 · on harness:mock · harness:mock · 0 ms · 0+0 tokens · $0.01 → audit__note {"line":"opening"}',
    );
  });

  it("draws a readable timeline of the steps, with durations, tokens and results", async () => {
    const result = await run(["job", "trace", triage]);
    expect(result.code).toBe(0);
    const lines = result.stdout.split("\n");
    expect(lines[0]).toMatch(
      new RegExp(
        `^job ${triage} · support-triage/triage · succeeded · 3 model calls, 2 tool calls, \\d+ tokens · \\d+ ms$`,
      ),
    );
    expect(result.stdout).toMatch(/ {3}1 +\+0ms {2}started {6}support-triage\/triage · input "ticket 7"/);
    expect(result.stdout).toMatch(
      /model {8}step 1 · test:scripts\/triage\.yaml · [\d.]+ ms · \d+\+\d+ tokens → tickets__lookup \{"id":7\}/,
    );
    expect(result.stdout).toMatch(/tool result {2}2\.1 ok · [\d.]+ ms → \{"id":7,"queue":"billing"\}/);
    expect(result.stdout).toContain('succeeded    → "billing"');
  });

  it("shows the arguments each call ran with, on its tool call line and in its tool_call event", async () => {
    const result = await run(["job", "trace", triage]);
    expect(result.stdout).toMatch(
      /tool call {4}2\.1 support-triage\/tickets\.assign \{"id":7,"queue":"billing"\} · key /,
    );
    const events = (await run(["job", "trace", triage, "--json"])).json<TraceEvent[]>();
    const calls = events.filter((entry) => entry.kind === "tool_call").map((entry) => entry.data);
    expect(calls).toMatchObject([{ args: { id: 7 } }, { args: { id: 7, queue: "billing" } }]);
  });

  it("prints the events in order, each with seq and kind, with --json", async () => {
    const events = (await run(["job", "trace", triage, "--json"])).json<TraceEvent[]>();
    expect(events.map((entry) => entry.seq)).toEqual(events.map((_, index) => index + 1));
    const kinds = events.map((entry) => entry.kind);
    expect(kinds[0]).toBe("job_started");
    expect(kinds.at(-1)).toBe("job_succeeded");
    for (const kind of [
      "job_claimed",
      "context_part_contributed",
      "model_call",
      "tool_call",
      "tool_result",
    ]) {
      expect(kinds).toContain(kind);
    }
  });
});

describe("oz0 job search", () => {
  it("finds jobs by agent address and status", async () => {
    const found = (
      await run(["job", "search", "--agent", "support-triage/triage", "--status", "succeeded", "--json"])
    ).json<RunShape[]>();
    expect(found.map((job) => job.id)).toContain(triage);
    const none = (
      await run(["job", "search", "--agent", "support-triage/triage", "--status", "failed", "--json"])
    ).json<RunShape[]>();
    expect(none).toEqual([]);
  });

  it("checks the agent's address against its owner", async () => {
    const result = await run(["job", "search", "--agent", "clash-a/asker"], true);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe("oz0: clash-a/asker is not an agent of clash-a: asker is helpdesk's\n");
  });

  it("refuses a tool's address for --agent, saying it is not an agent", async () => {
    const result = await run(["job", "search", "--agent", "support-triage/tickets"]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe(
      "oz0: support-triage/tickets is a tool, not an agent or a flow; --agent takes the address of the agent or flow whose jobs to list\n",
    );
  });

  it("refuses --agent in a tenant that does not exist", async () => {
    const result = await oz0(["job", "search", "--agent", "a/b", "--home", home, "--tenant", "nope"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^oz0: tenant nope does not exist/);
  });

  it("still finds the jobs of an agent that is no longer installed, by its address", async () => {
    const result = await run(["job", "search", "--agent", "support-triage/retired", "--json"]);
    expect(result.code).toBe(0);
    expect(result.json()).toEqual([]);
  });

  it("refuses a --limit that is not a whole number of 1 or more, in the one error shape", async () => {
    for (const limit of ["abc", "-1", "0", "1.5", "0x10", ""]) {
      const result = await run(["job", "search", "--limit", limit, "--json"]);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe("");
      expect(JSON.parse(result.stderr)).toEqual({
        error: {
          code: "INVALID_INPUT",
          message: `--limit ${limit}: it takes a whole number of 1 or more (how many jobs to list), such as 20; oz0 job search --help shows its usage`,
          data: {
            issues: [
              {
                path: "--limit",
                message: `--limit ${limit}: it takes a whole number of 1 or more (how many jobs to list), such as 20`,
              },
            ],
          },
          side: "user",
          status: 422,
          retryable: false,
        },
      });
    }
    const two = (await run(["job", "search", "--limit", "2", "--json"])).json<RunShape[]>();
    expect(two.length).toBeLessThanOrEqual(2);
  });

  it("finds the jobs started in a period with --since and --until, a time or a while back", async () => {
    const ids = async (...period: string[]) =>
      (await run(["job", "search", "--agent", "support-triage/triage", ...period, "--json"]))
        .json<RunShape[]>()
        .map((job) => job.id);
    expect(await ids("--since", "1h")).toContain(triage);
    expect(await ids("--since", "2000-01-01", "--until", "1h")).not.toContain(triage);
    expect(await ids("--since", "2000-01-01", "--until", "2000-01-02T00:00:00Z")).toEqual([]);
  });

  it("refuses a --since or --until it cannot read, and a --since not before --until", async () => {
    for (const option of ["--since", "--until"]) {
      const result = await run(["job", "search", option, "yesterday"]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`${option} yesterday: it takes a time such as 2026-12-01`);
    }
    const backwards = await run([
      "job",
      "search",
      "--since",
      "2026-02-01",
      "--until",
      "2026-01-01",
      "--json",
    ]);
    expect(backwards.code).toBe(1);
    expect(JSON.parse(backwards.stderr)).toMatchObject({
      error: {
        code: "INVALID_INPUT",
        message: expect.stringContaining(
          "since (2026-02-01T00:00:00.000Z) must be before until (2026-01-01T00:00:00.000Z)",
        ),
      },
    });
  });
});

describe("the command line's own errors", () => {
  it("come in the one error shape with --json: an unknown option, a missing argument, an unknown command", async () => {
    const unknown = await run(["job", "search", "--bogus", "--json"]);
    expect(unknown.code).toBe(1);
    expect(JSON.parse(unknown.stderr)).toEqual({
      error: {
        code: "INVALID_INPUT",
        message: "unknown option '--bogus'; oz0 job search --help shows its usage",
        data: { issues: [{ path: "--bogus", message: "unknown option '--bogus'" }] },
        side: "user",
        status: 422,
        retryable: false,
      },
    });
    const missing = await run(["--json", "job", "get"]);
    expect(JSON.parse(missing.stderr)).toMatchObject({
      error: {
        code: "INVALID_INPUT",
        message: "missing required argument 'id'; oz0 job get --help shows its usage",
      },
    });
    const command = await run(["jobs", "--json"]);
    expect(JSON.parse(command.stderr)).toMatchObject({ error: { code: "INVALID_INPUT" } });
  });

  it("print one line in text, without commander's own copy", async () => {
    const result = await run(["job", "search", "--bogus"]);
    expect(result.stderr).toBe("oz0: unknown option '--bogus'; oz0 job search --help shows its usage\n");
  });
});

describe("oz0 job cancel", () => {
  it("cancels a queued job, recording who did", async () => {
    // A job stays queued only on a store where no worker runs: a home that stays embedded.
    const idle = await homeWithPlugins({ embedded: true });
    const here = (args: string[]) => oz0([...args, "--home", idle.home]);
    const started = (
      await here(["run", "support-triage/triage", "ticket 7", "--no-wait", "--json"])
    ).json<RunShape>();
    const result = await here(["job", "cancel", started.id]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`^job ${started.id} cancelled by cli:`));
    const trace = (await here(["job", "trace", started.id, "--json"])).json<TraceEvent[]>();
    expect(trace.at(-1)).toMatchObject({
      kind: "job_cancelled",
      data: { by: expect.stringMatching(/^cli/) },
    });
    await idle.cleanup();
  });

  it("refuses to cancel a job that has ended", async () => {
    const result = await run(["job", "cancel", triage]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `oz0: job ${triage} has already ended (succeeded); there is nothing to cancel.\n`,
    );
  });
});

describe("oz0 job answer", () => {
  it("answers a job's question and runs it on to its answer", async () => {
    const asked = await run(["run", "helpdesk/asker", "ticket 7", "--json"], true);
    expect(asked.code).toBe(2);
    const job = asked.json<RunShape>();
    expect(job.status).toBe("waiting");
    const answered = await run(["job", "answer", job.id, "billing"], true);
    expect(answered.code).toBe(0);
    expect(answered.stdout).toBe("assigned as asked\n");
    const trace = (await run(["job", "trace", job.id, "--json"], true)).json<TraceEvent[]>();
    expect(trace.find((entry) => entry.kind === "answer_received")?.data).toMatchObject({
      answer: "billing",
    });
  });

  it("refuses an answer for a job that asked nothing", async () => {
    const result = await run(["job", "answer", triage, "billing"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("is not waiting for an answer to a question (oz.ask_user)");
  });
});

describe("oz0 job resume", () => {
  it("refuses to resume a job that has ended", async () => {
    const result = await run(["job", "resume", triage]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`oz0: job ${triage} has ended: it is succeeded.\n`);
  });
});
