// Cards: how a job's answer is drawn (spec: results drawn as cards). A pure function of the
// output schema and the answer gives plain data (text, key-values, a table or a diff) that
// the CLI draws in the terminal and the API and console draw their own way. Two schema
// keywords shape it: `x-oz0-order` puts properties first, and `x-oz0-diff: {before, after}`
// names the two properties a diff compares.
import { type DiffLine, lineDiff } from "./diff.js";

/** A property as a card shows it: its name, its label (the schema's `title`, else the name), its value. */
export interface CardField {
  readonly key: string;
  readonly label: string;
  readonly value: unknown;
}

export interface CardColumn {
  readonly key: string;
  readonly label: string;
}

export type Card =
  /** A text answer, or a value no other card fits. */
  | { readonly kind: "text"; readonly text: string }
  /** An object: its properties in order. */
  | { readonly kind: "key_values"; readonly fields: readonly CardField[] }
  /**
   * A list of objects: a row each, a column per property. An object whose one list of objects
   * is the table keeps its other properties in `fields`, and names the list in `title`.
   */
  | {
      readonly kind: "table";
      readonly title: string | null;
      readonly columns: readonly CardColumn[];
      readonly rows: readonly (readonly unknown[])[];
      readonly fields: readonly CardField[];
    }
  /** Two properties compared line by line (`x-oz0-diff`), with the other properties in `fields`. */
  | {
      readonly kind: "diff";
      readonly before: CardColumn;
      readonly after: CardColumn;
      readonly lines: readonly DiffLine[];
      readonly fields: readonly CardField[];
    };

/** A JSON Schema of any type: an answer may be an object, a list or text. */
export type CardSchema = Readonly<Record<string, unknown>>;

/** The schema keywords that shape a card. */
export const CARD_KEYWORDS = { order: "x-oz0-order", diff: "x-oz0-diff" } as const;

/**
 * The card for `value`, an answer that matched `schema` (undefined for a text answer).
 * @example buildCard({ type: "object", "x-oz0-order": ["title"] }, { changes: 3, title: "v2" })
 * // { kind: "key_values", fields: [{ key: "title", … }, { key: "changes", … }] }
 */
export function buildCard(schema: CardSchema | undefined, value: unknown): Card {
  if (typeof value === "string") return { kind: "text", text: value };
  const diff = diffKeys(schema);
  if (diff !== undefined && isRecord(value)) return diffCard(schema, value, diff);
  if (isTable(value)) return tableCard(schema?.items, value, null, []);
  if (isRecord(value)) {
    const keys = orderedKeys(schema, Object.keys(value));
    const lists = keys.filter((key) => isTable(value[key]));
    if (lists.length === 1) {
      const key = lists[0]!;
      const rest = fields(
        schema,
        value,
        keys.filter((other) => other !== key),
      );
      return tableCard(
        propertySchema(schema, key)?.items,
        value[key] as Record<string, unknown>[],
        label(schema, key),
        rest,
      );
    }
    return { kind: "key_values", fields: fields(schema, value, keys) };
  }
  return { kind: "text", text: value === undefined ? "" : JSON.stringify(value, null, 2) };
}

function diffCard(
  schema: CardSchema | undefined,
  value: Record<string, unknown>,
  [before, after]: readonly [string, string],
): Card {
  const keys = orderedKeys(schema, Object.keys(value)).filter((key) => key !== before && key !== after);
  return {
    kind: "diff",
    before: { key: before, label: label(schema, before) },
    after: { key: after, label: label(schema, after) },
    lines: lineDiff(asText(value[before]), asText(value[after])),
    fields: fields(schema, value, keys),
  };
}

function tableCard(
  items: unknown,
  rows: readonly Record<string, unknown>[],
  title: string | null,
  rest: readonly CardField[],
): Card {
  const itemSchema = isRecord(items) ? (items as CardSchema) : undefined;
  const seen: string[] = [];
  for (const row of rows) for (const key of Object.keys(row)) if (!seen.includes(key)) seen.push(key);
  const columns = orderedKeys(itemSchema, seen).map((key) => ({ key, label: label(itemSchema, key) }));
  return {
    kind: "table",
    title,
    columns,
    rows: rows.map((row) => columns.map((column) => row[column.key] ?? null)),
    fields: rest,
  };
}

/** `x-oz0-order` first, then the schema's properties in their order, then any other key of the value. */
function orderedKeys(schema: CardSchema | undefined, present: readonly string[]): string[] {
  const order = stringList(schema?.[CARD_KEYWORDS.order]);
  const declared = isRecord(schema?.properties) ? Object.keys(schema.properties) : [];
  const keys: string[] = [];
  for (const key of [...order, ...declared, ...present]) {
    if (present.includes(key) && !keys.includes(key)) keys.push(key);
  }
  return keys;
}

function fields(
  schema: CardSchema | undefined,
  value: Record<string, unknown>,
  keys: readonly string[],
): CardField[] {
  return keys.map((key) => ({ key, label: label(schema, key), value: value[key] }));
}

function diffKeys(schema: CardSchema | undefined): readonly [string, string] | undefined {
  const diff = schema?.[CARD_KEYWORDS.diff];
  if (!isRecord(diff) || typeof diff.before !== "string" || typeof diff.after !== "string") return undefined;
  return [diff.before, diff.after];
}

function propertySchema(schema: CardSchema | undefined, key: string): CardSchema | undefined {
  const properties = schema?.properties;
  if (!isRecord(properties)) return undefined;
  const property = properties[key];
  return isRecord(property) ? (property as CardSchema) : undefined;
}

function label(schema: CardSchema | undefined, key: string): string {
  const title = propertySchema(schema, key)?.title;
  return typeof title === "string" && title !== "" ? title : key;
}

/** A list of one or more objects: drawn as a table. */
function isTable(value: unknown): value is Record<string, unknown>[] {
  return Array.isArray(value) && value.length > 0 && value.every(isRecord);
}

function asText(value: unknown): string {
  if (value === undefined || value === null) return "";
  return typeof value === "string" ? value : JSON.stringify(value, null, 2);
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
