// The pieces every page is made of: a titled panel (a landmark region), a loading or failed
// panel's note, JSON shown as it is, times, and a job's status.
import type { ComponentChildren } from "preact";
import { useId, useState } from "preact/hooks";
import type { ApiError } from "../api";
import type { Loaded } from "../load";

export function Panel(props: { title: string; children: ComponentChildren; actions?: ComponentChildren }) {
  const id = useId();
  return (
    <section class="panel" aria-labelledby={id}>
      <header class="panel-head">
        <h2 id={id}>{props.title}</h2>
        {props.actions}
      </header>
      {props.children}
    </section>
  );
}

/** A panel's body once its one request answered: the failure, "Loading…", or `children(data)`. */
export function Show<T>(props: { loaded: Loaded<T>; children: (data: T) => ComponentChildren }) {
  const { loaded } = props;
  if (loaded.error !== undefined) return <Failure error={loaded.error} />;
  if (loaded.data === undefined) return <p class="muted">Loading…</p>;
  return <>{props.children(loaded.data)}</>;
}

export function Failure(props: { error: ApiError | Error }) {
  const code = "code" in props.error ? props.error.code : undefined;
  return (
    <p class="failure" role="alert">
      {code === undefined ? null : <strong>{code}: </strong>}
      {props.error.message}
    </p>
  );
}

export function Json(props: { value: unknown; label?: string }) {
  const text = props.value === undefined ? "" : JSON.stringify(props.value, null, 2);
  if (props.label === undefined) return <pre class="json">{text}</pre>;
  return (
    <figure aria-label={props.label}>
      <pre class="json">{text}</pre>
    </figure>
  );
}

export function When(props: { at: number | null | undefined }) {
  if (props.at === null || props.at === undefined) return <span class="muted">—</span>;
  const date = new Date(props.at);
  return <time dateTime={date.toISOString()}>{date.toLocaleString()}</time>;
}

export function Status(props: { status: string }) {
  return <span class={`status status-${props.status}`}>{props.status}</span>;
}

export function Empty(props: { children: ComponentChildren }) {
  return <p class="muted">{props.children}</p>;
}

/**
 * A disclosure whose body is drawn only once opened: a button, not a <details> (each of which
 * costs the browser a shadow tree), so a trace of thousands of calls stays cheap to draw.
 */
export function Fold(props: { summary: string; open?: boolean; children: () => ComponentChildren }) {
  const [open, setOpen] = useState(props.open ?? false);
  return (
    <div class="fold">
      <button type="button" class="fold-toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
        {props.summary}
      </button>
      {open ? props.children() : null}
    </div>
  );
}

export interface Column<T> {
  readonly head: string;
  readonly cell: (row: T) => ComponentChildren;
  /** A number column, drawn right-aligned. */
  readonly numeric?: boolean;
}

/** A table of `rows`, one column each of `columns`, scrolled sideways on a narrow screen. */
export function Table<T>(props: {
  columns: readonly (Column<T> | false)[];
  rows: readonly T[];
  rowKey: (row: T) => string | number;
  label?: string;
  foot?: ComponentChildren;
}) {
  const columns = props.columns.filter((column): column is Column<T> => column !== false);
  return (
    <div class="scroll">
      <table aria-label={props.label}>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.head} scope="col" class={column.numeric ? "num" : undefined}>
                {column.head}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((row) => (
            <tr key={props.rowKey(row)}>
              {columns.map((column) => (
                <td key={column.head} class={column.numeric ? "num" : undefined}>
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
        {props.foot === undefined ? null : <tfoot>{props.foot}</tfoot>}
      </table>
    </div>
  );
}

/**
 * What a panel's changes share: run one, then read the panel again; a refusal is kept to show
 * (`error`) until the next change succeeds.
 */
export function useChange(reload: () => void): {
  error: ApiError | undefined;
  change: (run: () => Promise<unknown>) => Promise<boolean>;
} {
  const [error, setError] = useState<ApiError | undefined>();
  const change = async (run: () => Promise<unknown>) => {
    try {
      await run();
      setError(undefined);
      reload();
      return true;
    } catch (failure) {
      setError(failure as ApiError);
      return false;
    }
  };
  return { error, change };
}

/** A labelled form field: the label names the control inside, which takes the id. */
export function Field(props: { id: string; label: string; children: ComponentChildren }) {
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      {props.children}
    </div>
  );
}

/** A refusal to show, or nothing. */
export function Refusal(props: { error: ApiError | undefined }) {
  return props.error === undefined ? null : <Failure error={props.error} />;
}

/** A labelled choice among `options` ([value, label] pairs), told to `onChange` as it changes. */
export function Choice<T extends string>(props: {
  id: string;
  label: string;
  value: T;
  options: readonly (readonly [T, string])[];
  onChange: (value: T) => void;
}) {
  return (
    <Field id={props.id} label={props.label}>
      <select
        id={props.id}
        value={props.value}
        onChange={(event) => props.onChange((event.currentTarget as HTMLSelectElement).value as T)}
      >
        {props.options.map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
    </Field>
  );
}
