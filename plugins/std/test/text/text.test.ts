// The text tool: the spec's examples for each operation, code-point positions, and the list and size bounds.
import { describe, expect, it } from "vitest";
import { MAX_LISTED, MAX_OUTPUT_CHARS, MAX_TEXT_CHARS } from "../../src/text/index.js";
import { callError as callErrorStd, call as callStd, loadStd, type StdHost } from "../helpers.js";

// A regex deadline no pattern here comes near on any machine, however loaded: these tests are
// about results; regex.test.ts is about the deadline.
const UNHURRIED = { text: { regexTimeoutMs: 60_000 } };
const call = (host: StdHost, name: string, args: Record<string, unknown>) =>
  callStd(host, name, args, UNHURRIED);
const callError = (host: StdHost, name: string, args: Record<string, unknown>) =>
  callErrorStd(host, name, args, UNHURRIED);

describe("text.count", () => {
  it("counts characters, words and lines, as the spec's example", async () => {
    const host = await loadStd();
    expect(await call(host, "text.count", { text: "Hello world" })).toEqual({
      characters: 11,
      words: 2,
      lines: 1,
    });
  });

  it("counts an emoji as one character, and lines as splitlines does", async () => {
    const host = await loadStd();
    expect(await call(host, "text.count", { text: "😀 ok\r\nsecond line\n" })).toEqual({
      characters: 18,
      words: 4,
      lines: 2,
    });
    expect(await call(host, "text.count", { text: "" })).toEqual({ characters: 0, words: 0, lines: 0 });
  });

  it(`refuses text longer than ${MAX_TEXT_CHARS} characters`, async () => {
    const host = await loadStd();
    const error = await callError(host, "text.count", { text: "a".repeat(MAX_TEXT_CHARS + 1) });
    expect(error.code).toBe("INVALID_INPUT");
  });
});

describe("text.search", () => {
  it("finds every match of a regex with its positions and groups, as the spec's example", async () => {
    const host = await loadStd();
    expect(
      await call(host, "text.search", { text: "Error: 404, Error: 500", pattern: "Error: (\\d+)" }),
    ).toEqual({
      status: "ok",
      count: 2,
      matches: [
        { match: "Error: 404", start: 0, end: 10, groups: ["404"] },
        { match: "Error: 500", start: 12, end: 22, groups: ["500"] },
      ],
    });
  });

  it("gives named groups, null for a group that took no part, and positions in code points", async () => {
    const host = await loadStd();
    const result = await call(host, "text.search", {
      text: "😀 id=7; 😀 id=x",
      pattern: "id=(?<num>\\d)|id=(x)",
    });
    expect(result).toEqual({
      status: "ok",
      count: 2,
      matches: [
        { match: "id=7", start: 2, end: 6, groups: ["7", null], named: { num: "7" } },
        { match: "id=x", start: 10, end: 14, groups: [null, "x"], named: { num: null } },
      ],
    });
  });

  it("takes the flags i, m, s and u", async () => {
    const host = await loadStd();
    const found = (await call(host, "text.search", { text: "Ab\nab", pattern: "^ab$", flags: "im" })) as {
      count: number;
    };
    expect(found.count).toBe(2);
    const error = await callError(host, "text.search", { text: "a", pattern: "a", flags: "ii" });
    expect(error.message).toContain("flags: 'ii' is not a set of flags");
    expect((await callError(host, "text.search", { text: "a", pattern: "a", flags: "g" })).code).toBe(
      "INVALID_INPUT",
    );
  });

  it(`lists at most ${MAX_LISTED} matches, counts them all, and says the list was truncated`, async () => {
    const host = await loadStd();
    const result = (await call(host, "text.search", { text: "a".repeat(1500), pattern: "a" })) as {
      count: number;
      matches: unknown[];
      truncated?: boolean;
    };
    expect(result.count).toBe(1500);
    expect(result.matches).toHaveLength(MAX_LISTED);
    expect(result.truncated).toBe(true);
  });

  it("refuses a pattern that does not compile, saying why", async () => {
    const host = await loadStd();
    const error = await callError(host, "text.search", { text: "x", pattern: "(a" });
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.message).toMatch(/^pattern: not a valid regular expression: .*Unterminated group/);
  });
});

describe("text.replace", () => {
  it("replaces every match, as the spec's example", async () => {
    const host = await loadStd();
    expect(
      await call(host, "text.replace", { text: "Hello world", pattern: "world", replacement: "earth" }),
    ).toEqual({ status: "ok", result: "Hello earth" });
  });

  it("inserts groups with $1, $<name> and $&", async () => {
    const host = await loadStd();
    expect(
      await call(host, "text.replace", {
        text: "2026-04-11",
        pattern: "(?<y>\\d+)-(\\d+)-(\\d+)",
        replacement: "$3/$2/$<y> ($&)",
      }),
    ).toEqual({ status: "ok", result: "11/04/2026 (2026-04-11)" });
  });

  it(`refuses a result longer than ${MAX_OUTPUT_CHARS} characters`, async () => {
    const host = await loadStd();
    const error = await callError(host, "text.replace", {
      text: "a".repeat(100_000),
      pattern: "a",
      replacement: "b".repeat(100),
    });
    expect(error.code).toBe("LIMIT_EXCEEDED");
    expect(error.data).toEqual({ limit: "output length", max: MAX_OUTPUT_CHARS, unit: "characters" });
  });
});

describe("text.extract", () => {
  it("lists the text of every match, as the spec's example", async () => {
    const host = await loadStd();
    expect(
      await call(host, "text.extract", { text: "Call 123-456 or 789-012", pattern: "\\d{3}-\\d{3}" }),
    ).toEqual({
      status: "ok",
      matches: ["123-456", "789-012"],
    });
  });

  it("returns an empty list when nothing matches", async () => {
    const host = await loadStd();
    expect(await call(host, "text.extract", { text: "none", pattern: "\\d" })).toEqual({
      status: "ok",
      matches: [],
    });
  });
});

describe("text.split", () => {
  it("splits on a literal delimiter, keeping empty parts", async () => {
    const host = await loadStd();
    expect(await call(host, "text.split", { text: "a,b,,c", delimiter: "," })).toEqual({
      status: "ok",
      result: ["a", "b", "", "c"],
      count: 4,
    });
    expect(await call(host, "text.split", { text: "a.b", delimiter: "." })).toEqual({
      status: "ok",
      result: ["a", "b"],
      count: 2,
    });
  });

  it("splits on runs of whitespace when no delimiter is given", async () => {
    const host = await loadStd();
    expect(await call(host, "text.split", { text: "  one two\n\tthree " })).toEqual({
      status: "ok",
      result: ["one", "two", "three"],
      count: 3,
    });
  });

  it("refuses an empty delimiter", async () => {
    const host = await loadStd();
    const error = await callError(host, "text.split", { text: "abc", delimiter: "" });
    expect(error.message).toContain("delimiter: an empty delimiter splits nothing");
  });

  it(`lists at most ${MAX_LISTED} parts and says the list was truncated`, async () => {
    const host = await loadStd();
    const result = (await call(host, "text.split", { text: "x,".repeat(1200), delimiter: "," })) as {
      result: string[];
      count: number;
      truncated?: boolean;
    };
    expect(result.result).toHaveLength(MAX_LISTED);
    expect(result.count).toBe(1201);
    expect(result.truncated).toBe(true);
  });
});

describe("text.truncate", () => {
  it("cuts to max_length with an ellipsis and truncated: true, as the spec's example", async () => {
    const host = await loadStd();
    const result = (await call(host, "text.truncate", { text: "a".repeat(200), max_length: 50 })) as {
      result: string;
    };
    expect(result).toEqual({ status: "ok", result: `${"a".repeat(49)}…`, truncated: true });
    expect([...result.result]).toHaveLength(50);
  });

  it("leaves a short text whole, with truncated: false", async () => {
    const host = await loadStd();
    expect(await call(host, "text.truncate", { text: "short", max_length: 5 })).toEqual({
      status: "ok",
      result: "short",
      truncated: false,
    });
  });

  it("takes another ellipsis, and never splits an emoji", async () => {
    const host = await loadStd();
    expect(await call(host, "text.truncate", { text: "abcdefgh", max_length: 6, ellipsis: "..." })).toEqual({
      status: "ok",
      result: "abc...",
      truncated: true,
    });
    expect(await call(host, "text.truncate", { text: "😀😀😀😀", max_length: 3 })).toEqual({
      status: "ok",
      result: "😀😀…",
      truncated: true,
    });
  });
});
