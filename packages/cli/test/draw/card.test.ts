// Cards drawn for a terminal: plain text, aligned, the same in a log and a pipe.
import { describe, expect, it } from "vitest";
import { drawCard } from "../../src/draw/index.js";

describe("drawCard", () => {
  it("draws text as it is", () => {
    expect(drawCard({ kind: "text", text: "billing\nqueue" })).toBe("billing\nqueue");
  });

  it("aligns key-values by their labels, continuing a value's lines under it", () => {
    const drawn = drawCard({
      kind: "key_values",
      fields: [
        { key: "queue", label: "Queue", value: "billing" },
        { key: "note", label: "Long label", value: "one\ntwo" },
        { key: "data", label: "Data", value: { a: 1 } },
      ],
    });
    expect(drawn).toBe(
      ["Queue       billing", "Long label  one", "            two", 'Data        {"a":1}'].join("\n"),
    );
  });

  it("draws a list of objects under a key-value as a table", () => {
    const drawn = drawCard({
      kind: "key_values",
      fields: [{ key: "rows", label: "Rows", value: [{ id: 1 }, { id: 22, name: "x" }] }],
    });
    expect(drawn).toBe(["Rows", "  id  name", "  --  ----", "  1", "  22  x"].join("\n"));
  });

  it("draws a table with a header, a rule, and cells cut at 60 characters", () => {
    const drawn = drawCard({
      kind: "table",
      title: "People",
      columns: [
        { key: "id", label: "ID" },
        { key: "note", label: "Note" },
      ],
      rows: [
        [1, "x".repeat(70)],
        [2, null],
      ],
      fields: [{ key: "count", label: "Count", value: 2 }],
    });
    expect(drawn).toBe(
      ["Count  2", "", "People", `ID  Note`, `--  ${"-".repeat(60)}`, `1   ${"x".repeat(59)}…`, "2"].join(
        "\n",
      ),
    );
  });

  it("draws a diff as -/+ lines under the two properties' labels", () => {
    const drawn = drawCard({
      kind: "diff",
      before: { key: "old", label: "Before" },
      after: { key: "new", label: "After" },
      lines: [
        { op: "same", text: "a" },
        { op: "removed", text: "b" },
        { op: "added", text: "c" },
        { op: "same", text: "" },
      ],
      fields: [],
    });
    expect(drawn).toBe(["--- Before", "+++ After", "  a", "- b", "+ c", ""].join("\n"));
  });
});
