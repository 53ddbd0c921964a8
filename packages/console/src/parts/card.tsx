// A job's answer drawn as its card (the runtime's buildCard: text, key-values, a table, or a
// diff with before and after), the way the CLI draws it in a terminal.
import type { Schemas } from "../api";

type Field = { key: string; label: string; value: unknown };
export type Card =
  | { kind: "text"; text: string }
  | { kind: "key_values"; fields: Field[] }
  | {
      kind: "table";
      title: string | null;
      columns: { key: string; label: string }[];
      rows: unknown[][];
      fields: Field[];
    }
  | {
      kind: "diff";
      before: { key: string; label: string };
      after: { key: string; label: string };
      lines: { op: "same" | "removed" | "added"; text: string }[];
      fields: Field[];
    };

export function cardOf(value: unknown): Card | undefined {
  const kind = (value as { kind?: unknown } | undefined)?.kind;
  return kind === "text" || kind === "key_values" || kind === "table" || kind === "diff"
    ? (value as Card)
    : undefined;
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return "";
  return typeof value === "string" ? value : JSON.stringify(value);
}

function Fields(props: { fields: Field[] }) {
  if (props.fields.length === 0) return null;
  return (
    <dl class="fields">
      {props.fields.map((field) => (
        <div key={field.key}>
          <dt>{field.label}</dt>
          <dd>{cell(field.value)}</dd>
        </div>
      ))}
    </dl>
  );
}

export function CardView(props: { card: Card }) {
  const { card } = props;
  switch (card.kind) {
    case "text":
      return <pre class="card-text">{card.text}</pre>;
    case "key_values":
      return <Fields fields={card.fields} />;
    case "table":
      return (
        <div class="card-table">
          <Fields fields={card.fields} />
          <div class="scroll">
            <table>
              {card.title === null ? null : <caption>{card.title}</caption>}
              <thead>
                <tr>
                  {card.columns.map((column) => (
                    <th key={column.key} scope="col">
                      {column.label}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {card.rows.map((row, index) => (
                  <tr key={index}>
                    {row.map((value, column) => (
                      <td key={card.columns[column]?.key}>{cell(value)}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      );
    case "diff":
      return (
        <div class="card-diff">
          <Fields fields={card.fields} />
          <p class="muted">
            {card.before.label} → {card.after.label}
          </p>
          <figure aria-label={`diff of ${card.before.label} and ${card.after.label}`}>
            <pre class="diff">
              {card.lines.map((line, index) => (
                <span key={index} class={`diff-${line.op}`}>
                  {line.op === "added" ? "+ " : line.op === "removed" ? "- " : "  "}
                  {line.text}
                  {"\n"}
                </span>
              ))}
            </pre>
          </figure>
        </div>
      );
  }
}

export type { Schemas };
