// The messages pre_llm_call handlers see across a job's steps: each turned into a hook message
// once, when it is added, so a step's cost does not grow with the job.
import { describe, expect, test } from "vitest";
import { HookMessages } from "../../src/hooks/model.js";
import type { ModelMessage } from "../../src/models/index.js";

const messages: ModelMessage[] = [
  { role: "system", content: "s" },
  { role: "user", content: "u" },
  { role: "assistant", text: "calling", calls: [{ id: "1.1", name: "f", args: {} }] },
  { role: "tool", callId: "1.1", name: "f", content: 1, isError: false },
  { role: "assistant", calls: [{ id: "2.1", name: "f", args: {} }] },
];

describe("hook messages of a job's steps", () => {
  test("a message is turned into a hook message once, not again at every later step", () => {
    const view = new HookMessages();
    const first = view.of(messages.slice(0, 4));
    const second = view.of(messages);
    expect(second[2]).toBe(first[2]);
    expect(second[2]).toMatchObject({ role: "assistant", content: "calling" });
    expect(second[4]).toMatchObject({ role: "assistant", content: null });
    // Each step gets its own list: a handler that changes one changes nothing kept.
    expect(second).not.toBe(first);
    expect(first).toHaveLength(4);
    expect(Object.isFrozen(second[2])).toBe(true);
  });

  test("a message not the one seen at its place is turned again", () => {
    const view = new HookMessages();
    view.of(messages);
    const changed = [...messages];
    changed[2] = { role: "assistant", text: "other", calls: [] };
    expect(view.of(changed)[2]).toMatchObject({ content: "other", calls: [] });
    expect(view.of(messages)[2]).toMatchObject({ content: "calling" });
  });
});
