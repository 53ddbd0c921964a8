// Line diffs for diff cards, and the unified patches skill proposals send.
import { describe, expect, it } from "vitest";
import { lineDiff, splitLines, unifiedPatch } from "../../src/cards/index.js";

describe("lineDiff", () => {
  it("keeps common lines and marks the removed and added ones, in order", () => {
    expect(lineDiff("a\nb\nc\n", "a\nc\nd\n")).toEqual([
      { op: "same", text: "a" },
      { op: "removed", text: "b" },
      { op: "same", text: "c" },
      { op: "added", text: "d" },
    ]);
  });

  it("diffs empty texts", () => {
    expect(lineDiff("", "")).toEqual([]);
    expect(lineDiff("", "x")).toEqual([{ op: "added", text: "x" }]);
    expect(lineDiff("x", "")).toEqual([{ op: "removed", text: "x" }]);
  });

  it("reads CRLF line ends as line ends", () => {
    expect(splitLines("a\r\nb\r\n")).toEqual(["a", "b"]);
  });
});

describe("unifiedPatch", () => {
  it("creates a file that did not exist", () => {
    expect(unifiedPatch("skills/tone/SKILL.md", undefined, "one\ntwo\n")).toBe(
      [
        "diff --git a/skills/tone/SKILL.md b/skills/tone/SKILL.md",
        "new file mode 100644",
        "--- /dev/null",
        "+++ b/skills/tone/SKILL.md",
        "@@ -0,0 +1,2 @@",
        "+one",
        "+two",
        "",
      ].join("\n"),
    );
  });

  it("changes a file with three lines of context around each change, in one hunk when they are close", () => {
    const before = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14"].join("\n");
    const after = before.replace("2", "two").replace("13", "thirteen");
    expect(unifiedPatch("f.txt", `${before}\n`, `${after}\n`)).toBe(
      [
        "diff --git a/f.txt b/f.txt",
        "--- a/f.txt",
        "+++ b/f.txt",
        "@@ -1,5 +1,5 @@",
        " 1",
        "-2",
        "+two",
        " 3",
        " 4",
        " 5",
        "@@ -10,5 +10,5 @@",
        " 10",
        " 11",
        " 12",
        "-13",
        "+thirteen",
        " 14",
        "",
      ].join("\n"),
    );
  });

  it("is empty when nothing changes", () => {
    expect(unifiedPatch("f.txt", "same\n", "same\n")).toBe("");
  });
});
