// The built-ins and skills through the CLI, on the offline test provider with scripts:
// oz.delegate with delegation.allow and its limits, oz.find_tools and oz.call_tool for
// tool_loading: lazy, oz.propose_skill with skills.propose and the review that opens the pull
// request, and which skills an agent gets.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
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

/** The tool_result data of the call `callId` in `events`. */
function resultOf(events: Awaited<ReturnType<typeof trace>>, callId: string) {
  return ofKind(events, "tool_result").find((entry) => entry.data.callId === callId)?.data;
}

describe("oz.delegate", () => {
  it("starts a child job of each agent delegation.allow permits, by address, and gives its answer to the parent's model", async () => {
    const result = await run("run", "contract/boss", "ticket 7", "--json");
    expect(result.code).toBe(0);
    const job = result.json<RunShape>();
    expect(job.output).toBe("done with help");
    const events = await trace(home, job.id);
    expect(ofKind(events, "child_job_started").map((entry) => entry.data.agent)).toEqual([
      "contract/helper",
      "contract-helpers/expert",
    ]);
    expect(
      ofKind(events, "child_job_finished").map((entry) => [entry.data.status, entry.data.output]),
    ).toEqual([
      ["succeeded", "the helper's answer"],
      ["succeeded", "the expert's answer"],
    ]);
    const children = (await run("job", "search", "--json")).json<{ id: string; parent: string | null }[]>();
    expect(children.filter((child) => child.parent === job.id)).toHaveLength(2);
  });

  it("gives the child's failure, with its kind and flags, to the parent's model", async () => {
    const result = await run("run", "contract/manager", "ticket 7", "--json");
    expect(result.json<RunShape>()).toMatchObject({ status: "succeeded", output: "the quitter failed" });
    const [finished] = ofKind(await trace(home, result.json<RunShape>().id), "child_job_finished");
    expect(finished?.data).toMatchObject({
      status: "failed",
      failure: { kind: "upstream_down", retryable: true, partial: true, person: false },
    });
  });

  it("carries the parent on when a person answers its child's question: oz0 job answer runs the tree up", async () => {
    const started = await run("run", "contract/supervisor", "go", "--json");
    expect(started.code).toBe(2);
    const parent = started.json<RunShape>();
    const jobs = (await run("job", "search", "--json")).json<
      { id: string; parent: string | null; status: string }[]
    >();
    const child = jobs.find((job) => job.parent === parent.id);
    expect(child?.status).toBe("waiting");
    const answered = await run("job", "answer", child!.id, "blue", "--json");
    expect(answered.code).toBe(0);
    expect(answered.json<RunShape>()).toMatchObject({
      id: parent.id,
      status: "succeeded",
      output: "the child is done",
    });
    const [finished] = ofKind(await trace(home, parent.id), "child_job_finished");
    expect(finished?.data).toMatchObject({ status: "succeeded", output: "blue it is" });
  });

  it("sends a delegation to an agent delegation.allow does not permit back to the model", async () => {
    const job = (await run("run", "contract/rogue", "x", "--json")).json<RunShape>();
    expect(job.output).toBe("refused");
    const events = await trace(home, job.id);
    expect(ofKind(events, "child_job_started")).toEqual([]);
    expect(resultOf(events, "1.1")).toMatchObject({ ok: false, error: { code: "INVALID_INPUT" } });
  });

  it("refuses a child job deeper than delegation.max_depth", async () => {
    const job = (await run("run", "contract/deep", "x", "--json")).json<RunShape>();
    expect(job.status).toBe("succeeded");
    const [child] = ofKind(await trace(home, job.id), "child_job_started");
    const childEvents = await trace(home, String(child?.data.job));
    expect(resultOf(childEvents, "1.1")).toMatchObject({
      ok: false,
      error: {
        code: "POLICY_VIOLATION",
        message: "a child job here would be 2 deep; delegation.max_depth is 1",
      },
    });
  });

  it("refuses more child jobs than delegation.max_children", async () => {
    const job = (await run("run", "contract/fanout", "x", "--json")).json<RunShape>();
    const events = await trace(home, job.id);
    expect(ofKind(events, "child_job_started")).toHaveLength(1);
    expect(resultOf(events, "2.1")).toMatchObject({
      ok: false,
      error: {
        code: "POLICY_VIOLATION",
        message: "this job started 1 child jobs; delegation.max_children is 1",
      },
    });
  });
});

describe("tool_loading: lazy", () => {
  it("offers the model oz.find_tools and oz.call_tool in place of the plugin functions", async () => {
    const job = (await run("run", "contract/lazy", "x", "--json")).json<RunShape>();
    expect(job).toMatchObject({ status: "succeeded", output: "noted" });
    const [context] = ofKind(await trace(home, job.id), "context_assembled");
    expect(context?.data.functions).toEqual(["oz__fail", "oz__find_tools", "oz__call_tool"]);
  });

  it("finds the functions the agent may call by words of their name or description", async () => {
    const job = (await run("run", "contract/lazy", "x", "--json")).json<RunShape>();
    const found = resultOf(await trace(home, job.id), "1.1")?.result as { functions: { name: string }[] };
    expect(found.functions.map((fn) => fn.name)).toEqual(["notes__add", "notes__list", "notes__erase"]);
    expect(found.functions[0]).toMatchObject({
      address: "contract/notes.add",
      description: "Add a note to the notebook.",
      input_schema: { type: "object", required: ["text"] },
    });
  });

  it("records and runs a call through oz.call_tool as the real function's", async () => {
    const job = (await run("run", "contract/lazy", "x", "--json")).json<RunShape>();
    const events = await trace(home, job.id);
    const call = ofKind(events, "tool_call").find((entry) => entry.data.callId === "2.1");
    expect(call?.data).toMatchObject({ name: "notes__add", address: "contract/notes.add" });
    expect(resultOf(events, "2.1")).toMatchObject({ ok: true, result: { text: "from the lazy agent" } });
  });

  it("sends a call_tool of a function the agent may not call, or a direct call, back to the model", async () => {
    const job = (await run("run", "contract/lazy", "x", "--json")).json<RunShape>();
    const events = await trace(home, job.id);
    expect(resultOf(events, "3.1")).toMatchObject({
      ok: false,
      error: { code: "NOT_FOUND", message: expect.stringContaining("there is no function notes__nope") },
    });
    expect(resultOf(events, "4.1")).toMatchObject({
      ok: false,
      error: { message: 'call notes__list through oz__call_tool: { "name": "notes__list", "args": { … } }' },
    });
  });
});

describe("oz.propose_skill and skills.propose", () => {
  let proposal: string;
  beforeAll(async () => {
    const job = (await run("run", "contract/proposer", "x", "--json")).json<RunShape>();
    const result = resultOf(await trace(home, job.id), "1.1")?.result as { proposal: string; status: string };
    expect(result.status).toBe("pending");
    proposal = result.proposal;
  });

  it("records the proposal for a person to review, listed by oz0 skill proposals", async () => {
    const listed = await run("skill", "proposals", "--status", "pending", "--json");
    expect(listed.json<{ id: string }[]>().map((entry) => entry.id)).toContain(proposal);
    const text = await run("skill", "proposals");
    expect(text.stdout).toMatch(
      new RegExp(`${proposal} +pending +contract/tone +contract/proposer +Name the next step`),
    );
  });

  it("shows the patch approving it would send, against the skill as installed", async () => {
    const shown = await run("skill", "proposal", proposal);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(
      "opens    a pull request on acme/contract-plugins through gitfake.open_pull_request",
    );
    expect(shown.stdout).toContain(
      [
        "--- a/plugins/contract/skills/tone/SKILL.md",
        "+++ b/plugins/contract/skills/tone/SKILL.md",
        "@@ -3,4 +3,4 @@",
        " description: How replies sound.",
        " ---",
        " Be friendly.",
        "-Be brief.",
        "+Be brief, and name the next step.",
      ].join("\n"),
    );
  });

  it("opens the pull request on approval through the apply function, with the platform-set and fixed arguments", async () => {
    const approved = await run("skill", "approve", proposal, "--base", "develop", "--draft", "--json");
    expect(approved.code).toBe(0);
    const {
      proposal: view,
      address,
      result,
    } = approved.json<{
      proposal: { status: string; decidedBy: string };
      address: string;
      result: { url: string; key: string; received: Record<string, unknown> };
    }>();
    expect(view.status).toBe("approved");
    expect(address).toBe("contract/gitfake.open_pull_request");
    expect(result.key).toBe(`proposal:${proposal}`);
    expect(Object.keys(result.received).sort()).toEqual(
      ["base", "body", "draft", "labels", "patch", "repository", "title"].sort(),
    );
    expect(result.received).toMatchObject({
      repository: "acme/contract-plugins",
      base: "develop",
      draft: true,
      title: "Name the next step in every reply",
      labels: ["skills"],
      patch: expect.stringContaining("+Be brief, and name the next step."),
      body: expect.stringContaining("Customers asked what happens next in 3 of 10 tickets."),
    });
  });

  it("decides a proposal once", async () => {
    const again = await run("skill", "approve", proposal, "--json");
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stderr)).toMatchObject({ error: { code: "PROPOSAL_STATE_CONFLICT" } });
  });

  it("rejects a proposal with a reason, sending nothing", async () => {
    const job = (await run("run", "contract/proposer", "again", "--json")).json<RunShape>();
    const recorded = resultOf(await trace(home, job.id), "1.1")?.result as { proposal: string } | undefined;
    const second = String(recorded?.proposal);
    const rejected = await run("skill", "reject", second, "--reason", "not now", "--json");
    expect(rejected.json()).toMatchObject({
      id: second,
      status: "rejected",
      reason: "not now",
      result: null,
    });
  });
});

describe("skills", () => {
  /** The start-up context parts of one run of `agent`. */
  async function parts(agent: string) {
    const job = (await run("run", `contract/${agent}`, "x", "--json")).json<RunShape>();
    const events = await trace(home, job.id);
    const [assembled] = ofKind(events, "context_assembled");
    return {
      parts: ofKind(events, "context_part_contributed").map((entry) => entry.data),
      system: String(assembled?.data.system),
    };
  }

  it("gives an agent that leaves skills out every skill of its own plugin, its index after the instructions", async () => {
    const { parts: found, system } = await parts("skilled-all");
    expect(found.map((part) => part.source)).toEqual(["instructions", "tool_manual", "skills"]);
    expect(system).toContain("- escalate: When to hand a ticket to a person.\n- tone: How replies sound.");
    expect(system.indexOf("## Skills")).toBeGreaterThan(system.indexOf("You answer questions"));
  });

  it("gives an agent with skills: [] none", async () => {
    const { parts: found, system } = await parts("skilled-none");
    expect(found.map((part) => part.source)).toEqual(["instructions"]);
    expect(system).not.toContain("## Skills");
  });

  it("gives another plugin's skill only when uses: declares it, saying why one is left out", async () => {
    const { parts: found, system } = await parts("skilled-some");
    expect(system).toContain("- tone: How replies sound.\n- contract-helpers/style: How answers are worded.");
    expect(system).not.toContain("secret");
    expect(found.find((part) => part.section_id === "contract-helpers/secret")).toMatchObject({
      retained: false,
      eviction_reason:
        "uses: of contract does not declare skill secret of contract-helpers (uses.contract-helpers.skills lists style)",
    });
  });

  it("leaves the skills index out when it does not fit limits.startup_tokens", async () => {
    const { parts: found } = await parts("tight");
    expect(found.find((part) => part.source === "skills")).toMatchObject({
      retained: false,
      eviction_reason: "budget_exceeded",
    });
  });

  it("refuses an agent that lists more than 64 skills", async () => {
    const dir = join(home, "many-skills");
    await mkdir(dir, { recursive: true });
    const skills = Array.from({ length: 65 }, (_, index) => `s${index}`).join(", ");
    await writeFile(
      join(dir, "plugin.yaml"),
      `name: many-skills\nversion: 1.0.0\nagents:\n  - name: reader\n    input: text\n    output: text\n    skills: [${skills}]\n`,
    );
    const result = await run("plugin", "install", dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("skills");
    expect(result.stderr).toMatch(/at most 64/);
  });
});
