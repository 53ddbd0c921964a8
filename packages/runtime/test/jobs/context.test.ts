// The start-up context: instructions, system-prompt sections, tool manuals and the skills
// index, in that order, within limits.startup_tokens, each part reported.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, harness, ofKind } from "./helpers.js";

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

describe("the start-up context", () => {
  it("puts the instructions first, then plugins' system-prompt sections, tool manuals and the skills index", async () => {
    const { events } = await h.run("helpdesk/triage", "ticket 7");
    const parts = ofKind(events, "context_part_contributed").map((entry) => [
      entry.data.source,
      entry.data.section_id,
      entry.data.retained,
    ]);
    expect(parts).toEqual([
      ["instructions", "helpdesk/triage", true],
      ["system_prompt:helpdesk", "helpdesk/house-rules", true],
      ["tool_manual", "helpdesk/tickets", true],
      ["tool_manual", "oz", true],
      ["skills", "skills/index", true],
    ]);
    const system = ofKind(events, "context_assembled")[0]!.data.system;
    expect(system.indexOf("You sort support tickets")).toBe(0);
    expect(system).toContain("## House rules\nAnswer in one word when you can.");
    expect(system).toContain(
      "## Tool helpdesk/tickets\nTicket store.\n- tickets__lookup: Look a ticket up by id.",
    );
    expect(system).toContain("- escalation: When and how to escalate a ticket to a person.");
  });

  it("leaves out what does not fit in limits.startup_tokens, saying so", async () => {
    const { events } = await h.run("helpdesk/briefed", "ticket 7");
    const parts = ofKind(events, "context_part_contributed");
    const skills = parts.find((entry) => entry.data.source === "skills");
    expect(skills?.data).toMatchObject({ retained: false, eviction_reason: "budget_exceeded" });
    const kept = parts
      .filter((entry) => entry.data.retained)
      .reduce((sum, entry) => sum + entry.data.token_estimate, 0);
    expect(kept).toBeLessThanOrEqual(150);
    expect(ofKind(events, "context_assembled")[0]?.data.tokens).toBe(kept);
  });

  it("gives an agent with skills: [] no skills index", async () => {
    const { events } = await h.run("helpdesk/fixer", "ticket 7");
    expect(ofKind(events, "context_part_contributed").map((entry) => entry.data.source)).not.toContain(
      "skills",
    );
  });

  it("loads the granted skills of a plugin pattern and reports each ungranted one as left out", async () => {
    const reading = await harness(["helpdesk", "skill-reader"]);
    try {
      const { job, events } = await reading.run("skill-reader/reader", "ticket 7");
      expect(job.status).toBe("succeeded");
      const system = ofKind(events, "context_assembled")[0]!.data.system;
      expect(system).toContain("- helpdesk/escalation: When and how to escalate a ticket to a person.");
      expect(system).not.toContain("helpdesk/refunds");
      const skills = ofKind(events, "context_part_contributed").filter(
        (entry) => entry.data.source === "skills",
      );
      expect(skills.map(({ data }) => [data.section_id, data.retained, data.eviction_reason])).toEqual([
        [
          "helpdesk/refunds",
          false,
          "skills: helpdesk/* names skill refunds of helpdesk, but uses: of skill-reader does not declare it (uses.helpdesk.skills lists escalation)",
        ],
        ["skills/index", true, undefined],
      ]);
    } finally {
      await reading.close();
    }
  });

  it("is recorded once: a resumed job reads the same system prompt", async () => {
    const { events } = await h.run("helpdesk/asker", "ticket 7");
    const job = events[0]!;
    void job;
    const [started] = ofKind(events, "job_started");
    expect(started).toBeDefined();
    const engine = h.engine();
    const [waiting] = await engine.search({ tenant: "default", status: "waiting" });
    await engine.answer(waiting!.id, "billing", "hal", { tenant: "default" });
    await engine.run(waiting!.id, { tenant: "default" });
    const all = await engine.events(waiting!.id, { tenant: "default" });
    expect(ofKind(all, "context_assembled")).toHaveLength(1);
    expect(ofKind(all, "job_claimed")).toHaveLength(2);
  });
});
