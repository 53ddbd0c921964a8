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
