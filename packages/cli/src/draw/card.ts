// Draws a card (a job's answer as the runtime shaped it) for a terminal: text as it is,
// key-values as aligned lines, a table with a header and a rule, a diff as -/+ lines. Plain
// text without colour, so it reads the same in a log, a pipe and a test.
import type { Card, CardField } from "@oz0/runtime";

/** The widest a table cell or a value on one line gets before it is cut with "…". */
const MAX_CELL = 60;

/**
 * The card as lines of text.
 * @example drawCard({ kind: "key_values", fields: [{ key: "pr", label: "PR", value: 12 }] }) // "PR  12"
 */
export function drawCard(card: Card): string {
  switch (card.kind) {
    case "text":
      return card.text;
    case "key_values":
      return drawFields(card.fields).join("\n");
    case "table": {
      const lines = drawFields(card.fields);
      if (lines.length > 0) lines.push("");
      if (card.title !== null) lines.push(card.title);
      lines.push(
        ...drawTable(
          card.columns.map((column) => column.label),
          card.rows.map((row) => row.map(cell)),
        ),
      );
      return lines.join("\n");
    }
    case "diff": {
      const lines = drawFields(card.fields);
      if (lines.length > 0) lines.push("");
      lines.push(`--- ${card.before.label}`, `+++ ${card.after.label}`);
      for (const line of card.lines) {
        lines.push(`${line.op === "same" ? " " : line.op === "removed" ? "-" : "+"} ${line.text}`.trimEnd());
      }
      return lines.join("\n");
    }
  }
}

/** Each field on its own line, labels aligned; a list of objects under its label as a table. */
function drawFields(fields: readonly CardField[]): string[] {
  const width = Math.max(0, ...fields.map((field) => field.label.length));
  const lines: string[] = [];
  for (const field of fields) {
    const value = field.value;
    if (isRows(value)) {
      const columns = [...new Set(value.flatMap((row) => Object.keys(row)))];
      lines.push(field.label);
      lines.push(
        ...drawTable(
          columns,
          value.map((row) => columns.map((column) => cell(row[column]))),
        ).map((line) => `  ${line}`),
      );
      continue;
    }
    const text = typeof value === "string" ? value : (JSON.stringify(value) ?? "");
    const [first = "", ...rest] = text.split("\n");
    lines.push(`${field.label.padEnd(width)}  ${first}`.trimEnd());
    for (const more of rest) lines.push(`${" ".repeat(width)}  ${more}`.trimEnd());
  }
  return lines;
}

function drawTable(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const widths = header.map((title, index) =>
    Math.max(title.length, ...rows.map((row) => row[index]?.length ?? 0)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((text, index) => text.padEnd(widths[index] ?? 0))
      .join("  ")
      .trimEnd();
  return [line(header), line(widths.map((width) => "-".repeat(width))), ...rows.map(line)];
}

/** One value in one table cell: text as it is, anything else as JSON, on one line. */
function cell(value: unknown): string {
  const text =
    value === null || value === undefined ? "" : typeof value === "string" ? value : JSON.stringify(value);
  const flat = text.replaceAll("\n", " ");
  return flat.length > MAX_CELL ? `${flat.slice(0, MAX_CELL - 1)}…` : flat;
}

function isRows(value: unknown): value is Record<string, unknown>[] {
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    value.every((item) => typeof item === "object" && item !== null && !Array.isArray(item))
  );
}
