// A model's regular expression runs under a deadline in a worker: catastrophic backtracking cannot hang the node.
import { describe, expect, it } from "vitest";
import { DEFAULT_REGEX_TIMEOUT_MS } from "../../src/index.js";
import { call, callError, loadStd } from "../helpers.js";

const PATHOLOGICAL = { text: `${"a".repeat(40)}!`, pattern: "(a+)+$" };

describe("a model's regular expression", () => {
  it("is stopped at the deadline when it backtracks catastrophically, instead of hanging the process", async () => {
    const host = await loadStd();
    const started = performance.now();
    const error = await callError(host, "text.search", PATHOLOGICAL, { text: { regexTimeoutMs: 200 } });
    const elapsed = performance.now() - started;
    expect(error.code).toBe("LIMIT_EXCEEDED");
    expect(error.data).toEqual({ limit: "regex time", max: 200, unit: "ms" });
    expect(error.message).toContain("ran longer than 200 ms");
    expect(elapsed).toBeGreaterThanOrEqual(190);
    expect(elapsed).toBeLessThan(2_000);
  });

  it(`is stopped after ${DEFAULT_REGEX_TIMEOUT_MS} ms by default, in replace and extract too`, async () => {
    const host = await loadStd();
    const started = performance.now();
    const error = await callError(host, "text.replace", { ...PATHOLOGICAL, replacement: "x" });
    expect(error.code).toBe("LIMIT_EXCEEDED");
    expect(performance.now() - started).toBeLessThan(DEFAULT_REGEX_TIMEOUT_MS + 2_000);
    const extract = await callError(host, "text.extract", PATHOLOGICAL, { text: { regexTimeoutMs: 100 } });
    expect(extract.code).toBe("LIMIT_EXCEEDED");
  });

  it("runs off the main thread, so the process keeps serving while a regex runs", async () => {
    const host = await loadStd();
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    await callError(host, "text.search", PATHOLOGICAL, { text: { regexTimeoutMs: 300 } });
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(5);
  });

  it("works again right after a regex was stopped, and runs calls side by side", async () => {
    const host = await loadStd();
    await callError(host, "text.search", PATHOLOGICAL, { text: { regexTimeoutMs: 100 } });
    const results = await Promise.all(
      ["a", "b", "c"].map((letter) => call(host, "text.extract", { text: "abcabc", pattern: letter })),
    );
    expect(results).toEqual([
      { status: "ok", matches: ["a", "a"] },
      { status: "ok", matches: ["b", "b"] },
      { status: "ok", matches: ["c", "c"] },
    ]);
  });

  it("is stopped when the call is cancelled", async () => {
    const host = await loadStd();
    const { callFunction } = await import("@oz0/sdk/testing");
    const controller = new AbortController();
    const pending = callFunction(host, "text.search", PATHOLOGICAL, { call: { signal: controller.signal } });
    setTimeout(() => controller.abort(new Error("job cancelled")), 50);
    await expect(pending).rejects.toThrow("job cancelled");
  });

  it("refuses a regex timeout setting outside 10 to 60000 ms when the tool is built", async () => {
    const host = await loadStd();
    const error = await callError(host, "text.count", { text: "x" }, { text: { regexTimeoutMs: 0 } });
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.message).toContain("text.regexTimeoutMs");
  });
});
