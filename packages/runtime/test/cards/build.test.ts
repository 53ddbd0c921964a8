// Cards (spec: results drawn as cards): a matching answer becomes text, key-values, a table or
// a diff, shaped by x-oz0-order and x-oz0-diff.
import { describe, expect, it } from "vitest";
import { buildCard } from "../../src/cards/index.js";

const verdict = {
  type: "object",
  properties: {
    reason: { type: "string", title: "Why" },
    confidence: { type: "number" },
    queue: { type: "string", title: "Queue" },
  },
  "x-oz0-order": ["queue", "confidence"],
};

describe("buildCard", () => {
  it("draws a text answer as text", () => {
    expect(buildCard(undefined, "billing")).toEqual({ kind: "text", text: "billing" });
    expect(buildCard({ type: "string" }, "billing")).toEqual({ kind: "text", text: "billing" });
  });

  it("shows the properties x-oz0-order names first, then the schema's order, then any other", () => {
    const card = buildCard(verdict, { extra: 1, reason: "twice", confidence: 0.9, queue: "billing" });
    expect(card).toEqual({
      kind: "key_values",
      fields: [
        { key: "queue", label: "Queue", value: "billing" },
        { key: "confidence", label: "confidence", value: 0.9 },
        { key: "reason", label: "Why", value: "twice" },
        { key: "extra", label: "extra", value: 1 },
      ],
    });
  });

  it("leaves out a property x-oz0-order names that the answer does not have", () => {
    const card = buildCard(verdict, { queue: "bugs" });
    expect(card).toEqual({ kind: "key_values", fields: [{ key: "queue", label: "Queue", value: "bugs" }] });
  });

  it("compares the two properties x-oz0-diff names line by line, keeping the others as fields", () => {
    const schema = {
      type: "object",
      properties: {
        file: { type: "string" },
        before: { type: "string", title: "Old" },
        after: { type: "string" },
      },
      "x-oz0-diff": { before: "before", after: "after" },
    };
    expect(buildCard(schema, { file: "a.txt", before: "one\ntwo\n", after: "one\nthree\n" })).toEqual({
      kind: "diff",
      before: { key: "before", label: "Old" },
      after: { key: "after", label: "after" },
      lines: [
        { op: "same", text: "one" },
        { op: "removed", text: "two" },
        { op: "added", text: "three" },
      ],
      fields: [{ key: "file", label: "file", value: "a.txt" }],
    });
  });

  it("compares structured values of a diff as JSON text", () => {
    const schema = { type: "object", "x-oz0-diff": { before: "old", after: "new" } };
    const card = buildCard(schema, { old: { a: 1 }, new: { a: 2 } });
    expect(card.kind === "diff" && card.lines.filter((line) => line.op !== "same")).toEqual([
      { op: "removed", text: '  "a": 1' },
      { op: "added", text: '  "a": 2' },
    ]);
  });

  it("draws a list of objects as a table, columns in the items' order", () => {
    const schema = {
      type: "array",
      items: { type: "object", properties: { name: { title: "Name" }, id: {} }, "x-oz0-order": ["id"] },
    };
    expect(
      buildCard(schema, [
        { name: "ana", id: 1 },
        { id: 2, name: "bo", extra: true },
      ]),
    ).toEqual({
      kind: "table",
      title: null,
      columns: [
        { key: "id", label: "id" },
        { key: "name", label: "Name" },
        { key: "extra", label: "extra" },
      ],
      rows: [
        [1, "ana", null],
        [2, "bo", true],
      ],
      fields: [],
    });
  });

  it("draws an object whose one list of objects is the table, titled by it, the rest as fields", () => {
    const schema = {
      type: "object",
      properties: { pulls: { title: "Pull requests", items: { properties: { number: {} } } }, open: {} },
    };
    const card = buildCard(schema, { open: 2, pulls: [{ number: 12 }, { number: 13 }] });
    expect(card).toEqual({
      kind: "table",
      title: "Pull requests",
      columns: [{ key: "number", label: "number" }],
      rows: [[12], [13]],
      fields: [{ key: "open", label: "open", value: 2 }],
    });
  });

  it("keeps key-values for an object with two lists of objects", () => {
    const card = buildCard(undefined, { a: [{ x: 1 }], b: [{ y: 2 }] });
    expect(card.kind).toBe("key_values");
  });

  it("draws any other value as JSON text", () => {
    expect(buildCard({ type: "array" }, [1, 2])).toEqual({ kind: "text", text: "[\n  1,\n  2\n]" });
    expect(buildCard(undefined, 42)).toEqual({ kind: "text", text: "42" });
    expect(buildCard(undefined, [])).toEqual({ kind: "text", text: "[]" });
  });
});
