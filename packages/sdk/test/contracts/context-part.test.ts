import { describe, expect, test } from "vitest";
import { ContextPart } from "../../src/contracts/index.js";

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("ContextPart", () => {
  test("gets a UUID v4 partId at construction, new for every part", () => {
    const part = new ContextPart({ content: "Remember this fact", source: "memory" });
    expect(part.partId).toMatch(UUID_V4);
    expect(new ContextPart({ content: "Remember this fact", source: "memory" }).partId).not.toBe(part.partId);
  });

  test("carries its partId into the observability dict", () => {
    const part = new ContextPart({ content: "Remember this fact", source: "memory" });
    expect(part.toObservabilityDict().part_id).toBe(part.partId);
  });

  test("uses the context_part_contributed event's field names, without the content", () => {
    const part = new ContextPart({
      content: "x".repeat(600),
      source: "memory:episodic",
      sectionId: "memory/episode-42",
      mechanism: "memory_read",
      cause: "dp_intent",
      causeType: "memory",
      tokenEstimate: 150,
    });
    expect(part.toObservabilityDict()).toEqual({
      part_id: part.partId,
      source: "memory:episodic",
      section_id: "memory/episode-42",
      mechanism: "memory_read",
      cause: "dp_intent",
      cause_type: "memory",
      token_estimate: 150,
    });
  });

  test("estimates about one token per four characters when not told", () => {
    expect(new ContextPart({ content: "a".repeat(401), source: "skills" }).tokenEstimate).toBe(101);
  });
});
