// The audit trail of the start-up context (spec §7, context_part_contributed): every part has
// a part_id, a UUID v4, and one event with the spec's fields, whether it was kept or left out.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Harness, harness, ofKind } from "./helpers.js";

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

describe("context_part_contributed", () => {
  test("gives every part its own part_id, a UUID v4", async () => {
    const { events } = await h.run("helpdesk/triage", "ticket 7");
    const ids = ofKind(events, "context_part_contributed").map((entry) => entry.data.part_id);
    expect(ids.length).toBe(5);
    for (const id of ids) expect(id).toMatch(UUID_V4);
    expect(new Set(ids).size).toBe(ids.length);
  });

  test("records a retained part with agent_id, timestamp, part_id, source, section_id, mechanism, cause, cause_type, token_estimate and retained", async () => {
    const before = Date.now() / 1000;
    const { events } = await h.run("helpdesk/triage", "ticket 7");
    const [instructions] = ofKind(events, "context_part_contributed");
    expect(Object.keys(instructions!.data).sort()).toEqual(
      [
        "agent_id",
        "timestamp",
        "part_id",
        "source",
        "section_id",
        "mechanism",
        "cause",
        "cause_type",
        "token_estimate",
        "retained",
      ].sort(),
    );
    expect(instructions!.data).toMatchObject({
      agent_id: "helpdesk/triage",
      source: "instructions",
      section_id: "helpdesk/triage",
      mechanism: "agent_definition",
      cause: "helpdesk/triage",
      cause_type: "agent",
      retained: true,
    });
    expect(instructions!.data.timestamp).toBeGreaterThanOrEqual(before - 1);
    expect(instructions!.data.timestamp).toBeLessThan(Date.now() / 1000 + 1);
  });

  test("records an evicted part with retained false and eviction_reason budget_exceeded", async () => {
    const { events } = await h.run("helpdesk/briefed", "ticket 7");
    const evicted = ofKind(events, "context_part_contributed").filter((entry) => !entry.data.retained);
    expect(evicted.length).toBeGreaterThan(0);
    for (const entry of evicted) {
      expect(entry.data).toMatchObject({ agent_id: "helpdesk/briefed", eviction_reason: "budget_exceeded" });
      expect(entry.data.part_id).toMatch(UUID_V4);
    }
  });

  test("names what brought each part in: the agent, a plugin's section, a tool's manual", async () => {
    const { events } = await h.run("helpdesk/triage", "ticket 7");
    const causes = ofKind(events, "context_part_contributed").map((entry) => [
      entry.data.cause,
      entry.data.cause_type,
    ]);
    expect(causes).toEqual([
      ["helpdesk/triage", "agent"],
      ["helpdesk", "plugin"],
      ["helpdesk/tickets", "tool"],
      ["oz", "tool"],
      ["helpdesk/triage", "agent"],
    ]);
  });
});
