// A model's regular expression runs under a deadline in a worker: catastrophic backtracking cannot hang the node.
import { callFunction } from "@oz0/sdk/testing";
import { describe, expect, it } from "vitest";
import { DEFAULT_REGEX_TIMEOUT_MS } from "../../src/index.js";
import { call, callError, loadStd } from "../helpers.js";

// Backtracks for longer than the universe: no deadline, however long, sees it finish.
const PATHOLOGICAL = { text: `${"a".repeat(40)}!`, pattern: "(a+)+$" };
// The longest deadline the config takes: a call that must succeed, or must be stopped by
// something other than its deadline, gets it, so that no machine is too slow for the test.
const UNHURRIED = { text: { regexTimeoutMs: 60_000 } };

/** Lets the event loop go round `turns` times: only a main thread that is free to serve can. */
async function serve(turns: number): Promise<void> {
  for (let turn = 0; turn < turns; turn++) await new Promise((resolve) => setTimeout(resolve, 1));
}

describe("a model's regular expression", () => {
  it("is stopped at the deadline when it backtracks catastrophically, instead of hanging the process", async () => {
    const host = await loadStd();
    const started = performance.now();
    const error = await callError(host, "text.search", PATHOLOGICAL, { text: { regexTimeoutMs: 200 } });
    expect(error.code).toBe("LIMIT_EXCEEDED");
    expect(error.data).toEqual({ limit: "regex time", max: 200, unit: "ms" });
    expect(error.message).toContain("ran longer than 200 ms");
    // Never early (timers round to the millisecond); how late depends on the machine's load.
    expect(performance.now() - started).toBeGreaterThanOrEqual(199);
  });

  it(`is stopped after ${DEFAULT_REGEX_TIMEOUT_MS} ms by default, in replace and extract too`, async () => {
    const host = await loadStd();
    const error = await callError(host, "text.replace", { ...PATHOLOGICAL, replacement: "x" });
    expect(error.code).toBe("LIMIT_EXCEEDED");
    expect(error.data).toEqual({ limit: "regex time", max: DEFAULT_REGEX_TIMEOUT_MS, unit: "ms" });
    const extract = await callError(host, "text.extract", PATHOLOGICAL, { text: { regexTimeoutMs: 10 } });
    expect(extract.code).toBe("LIMIT_EXCEEDED");
    expect(extract.data).toEqual({ limit: "regex time", max: 10, unit: "ms" });
  });

  it("runs off the main thread, so the process keeps serving while a regex runs", async () => {
    const host = await loadStd();
    const controller = new AbortController();
    let settled = false;
    const pending = callFunction(host, "text.search", PATHOLOGICAL, {
      call: { signal: controller.signal },
      context: { config: UNHURRIED },
    }).finally(() => {
      settled = true;
    });
    // A regex on this thread would block it for good: these turns would never come.
    await serve(20);
    expect(settled).toBe(false);
    controller.abort(new Error("job cancelled"));
    await expect(pending).rejects.toThrow("job cancelled");
  });

  it("works again right after a regex was stopped, and runs calls side by side", async () => {
    const host = await loadStd();
    await callError(host, "text.search", PATHOLOGICAL, { text: { regexTimeoutMs: 10 } });
    const results = await Promise.all(
      ["a", "b", "c"].map((letter) =>
        call(host, "text.extract", { text: "abcabc", pattern: letter }, UNHURRIED),
      ),
    );
    expect(results).toEqual([
      { status: "ok", matches: ["a", "a"] },
      { status: "ok", matches: ["b", "b"] },
      { status: "ok", matches: ["c", "c"] },
    ]);
  });

  it("is stopped when the call is cancelled", async () => {
    const host = await loadStd();
    const controller = new AbortController();
    const pending = callFunction(host, "text.search", PATHOLOGICAL, {
      call: { signal: controller.signal },
      context: { config: UNHURRIED },
    });
    await serve(5);
    controller.abort(new Error("job cancelled"));
    await expect(pending).rejects.toThrow("job cancelled");
  });

  it("refuses a regex timeout setting outside 10 to 60000 ms when the tool is built", async () => {
    const host = await loadStd();
    const error = await callError(host, "text.count", { text: "x" }, { text: { regexTimeoutMs: 0 } });
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.message).toContain("text.regexTimeoutMs");
  });
});
