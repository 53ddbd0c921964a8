// What runtime openai-agents does with an error that is neither a stop of the job nor a stop
// from outside: the job fails once with kind internal, naming the SDK, and is not run again.
import { describe, expect, it } from "vitest";
import { OPENAI_AGENTS_RUNTIME } from "../../src/runtimes/openai-agents/index.js";
import { type RuntimeSession, RuntimeStop } from "../../src/runtimes/types.js";

function session(callModel: RuntimeSession["callModel"], signal = new AbortController().signal) {
  const failed: { kind: string; message: string }[] = [];
  const made: RuntimeSession = {
    job: "j1",
    agent: "desk/clerk",
    runtime: "openai-agents",
    opening: [
      { role: "system", content: "You file." },
      { role: "user", content: "file it" },
    ],
    functions: [],
    outputSchema: undefined,
    recordedSteps: 0,
    signal,
    step: async () => true,
    callModel,
    callFunction: async () => ({ ok: true, result: null }),
    finish: async () => undefined,
    fail: async (failure) => {
      failed.push(failure);
    },
    options: {},
    callRemote: async () => ({ ok: true, result: null }),
    toolUseResult: async () => undefined,
    checkpoint: async () => false,
    ask: async () => "",
    secret: async () => undefined,
    providerKey: async () => undefined,
    model: undefined,
    chat: false,
    recordStep: async () => {
      throw new Error("not a harness");
    },
    streamText: () => {},
    note: async () => {},
  };
  return { made, failed };
}

describe("runtime openai-agents on an error", () => {
  it("fails the job with kind internal when the SDK's run throws something other than a stop", async () => {
    const { made, failed } = session(async () => {
      throw new Error("the reply could not be read");
    });
    await OPENAI_AGENTS_RUNTIME.run(made);
    expect(failed).toEqual([
      { kind: "internal", message: "the OpenAI Agents SDK stopped: the reply could not be read" },
    ]);
  });

  it("lets a stop of the job, and an error after a stop from outside, go out as they are", async () => {
    const stop = new RuntimeStop("j1");
    const stopped = session(async () => {
      throw stop;
    });
    await expect(OPENAI_AGENTS_RUNTIME.run(stopped.made)).rejects.toBe(stop);
    const outside = new AbortController();
    outside.abort(new Error("lost the lease"));
    const lost = session(async () => {
      throw outside.signal.reason;
    }, outside.signal);
    await expect(OPENAI_AGENTS_RUNTIME.run(lost.made)).rejects.toThrow();
    expect([...stopped.failed, ...lost.failed]).toEqual([]);
  });
});
