// A form drawn from a JSON Schema: an agent's input_schema (the start-job form) or a plugin's
// admin spec (its config form). Each property gets the control its type asks for, labelled by
// its title (or name) and described by its description; anything else is edited as JSON.
import { useId, useState } from "preact/hooks";

type Schema = Readonly<Record<string, unknown>>;

interface Property {
  readonly key: string;
  readonly schema: Schema;
  readonly required: boolean;
}

type Control = "text" | "textarea" | "number" | "integer" | "boolean" | "enum" | "lines" | "json";

function controlOf(schema: Schema): Control {
  if (Array.isArray(schema.enum)) return "enum";
  switch (schema.type) {
    case "string":
      return typeof schema.maxLength === "number" && schema.maxLength <= 200 ? "text" : "textarea";
    case "integer":
      return "integer";
    case "number":
      return "number";
    case "boolean":
      return "boolean";
    case "array":
      return (schema.items as Schema | undefined)?.type === "string" ? "lines" : "json";
    default:
      return "json";
  }
}

function propertiesOf(schema: Schema, value: Record<string, unknown>): Property[] {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const keys = [...Object.keys(properties), ...Object.keys(value).filter((key) => !(key in properties))];
  return keys.map((key) => ({ key, schema: properties[key] ?? {}, required: required.has(key) }));
}

function shown(control: Control, value: unknown): string {
  if (value === undefined || value === null) return "";
  if (control === "lines") return Array.isArray(value) ? value.join("\n") : "";
  if (control === "json") return JSON.stringify(value, null, 2);
  return String(value);
}

function read(control: Control, text: string, checked: boolean): unknown {
  switch (control) {
    case "boolean":
      return checked;
    case "integer":
    case "number":
      return text.trim() === "" ? undefined : Number(text);
    case "lines":
      return text
        .split("\n")
        .map((line) => line.trim())
        .filter((line) => line !== "");
    case "json":
      return text.trim() === "" ? undefined : JSON.parse(text);
    default:
      return text === "" ? undefined : text;
  }
}

/** A problem the API found with a value sent, at its dotted path (INVALID_INPUT's `data.issues`). */
export interface Issue {
  readonly path: string;
  readonly message: string;
}

/**
 * The field each issue is about: its path's first key, or for a missing property (which JSON
 * Schema reports at the object itself) the property it names; "" for the value as a whole.
 */
function issueField(issue: Issue): string {
  if (issue.path !== "") return issue.path.split(".")[0] ?? "";
  return /required property '([^']+)'/.exec(issue.message)?.[1] ?? "";
}

/** The issues of an INVALID_INPUT answer, or none for any other. */
export function issuesOf(error: { code: string; data: unknown } | undefined): readonly Issue[] {
  if (error?.code !== "INVALID_INPUT") return [];
  const issues = (error.data as { issues?: unknown } | undefined)?.issues;
  return Array.isArray(issues)
    ? issues.filter(
        (issue): issue is Issue => typeof issue?.path === "string" && typeof issue?.message === "string",
      )
    : [];
}

/**
 * A form of the schema's fields, filled with `value`. Its controls are the browser's until it is
 * sent (default values, not bound ones): a page drawn again while someone types keeps what they
 * typed. A new `value` to show takes a new form (a new key).
 */
export function SchemaForm(props: {
  schema: Schema;
  value?: Record<string, unknown>;
  submitLabel: string;
  busy?: boolean;
  /** What the API found wrong with the value last sent: each drawn at its field. */
  issues?: readonly Issue[];
  onSubmit: (value: Record<string, unknown>) => void;
}) {
  const id = useId();
  const initial = props.value ?? {};
  const fields = propertiesOf(props.schema, initial);
  const issues = props.issues ?? [];
  const keys = new Set(fields.map((field) => field.key));
  const unplaced = issues.filter((issue) => !keys.has(issueField(issue)));
  const [problem, setProblem] = useState<string | undefined>();
  return (
    <form
      class="form"
      onSubmit={(event) => {
        event.preventDefault();
        const form = event.currentTarget as HTMLFormElement;
        const value: Record<string, unknown> = {};
        try {
          for (const field of fields) {
            const control = controlOf(field.schema);
            const element = form.elements.namedItem(field.key) as HTMLInputElement | null;
            if (element === null) continue;
            const read_ = read(control, element.value, element.checked);
            if (read_ !== undefined) value[field.key] = read_;
          }
        } catch (error) {
          setProblem(`a JSON field is not JSON: ${error instanceof Error ? error.message : String(error)}`);
          return;
        }
        setProblem(undefined);
        props.onSubmit(value);
      }}
    >
      {fields.map((field) => {
        const control = controlOf(field.schema);
        const fieldId = `${id}-${field.key}`;
        const label = typeof field.schema.title === "string" ? field.schema.title : field.key;
        const description =
          typeof field.schema.description === "string" ? field.schema.description : undefined;
        const hint = description === undefined ? undefined : `${fieldId}-hint`;
        const wrong = issues.filter((issue) => issueField(issue) === field.key);
        const errorId = wrong.length === 0 ? undefined : `${fieldId}-error`;
        const value = initial[field.key] ?? field.schema.default;
        const common = {
          id: fieldId,
          name: field.key,
          "aria-describedby": [hint, errorId].filter((one) => one !== undefined).join(" ") || undefined,
          "aria-invalid": wrong.length === 0 ? undefined : true,
          required: field.required,
        };
        return (
          <div class={`field field-${control}`} key={field.key}>
            {control === "boolean" ? (
              <label for={fieldId}>
                <input type="checkbox" {...common} required={false} defaultChecked={value === true} /> {label}
              </label>
            ) : (
              <label for={fieldId}>
                {label}
                {field.required ? <span aria-hidden="true"> *</span> : null}
              </label>
            )}
            {control === "enum" ? (
              <select {...common}>
                {field.required ? null : <option value="">—</option>}
                {(field.schema.enum as unknown[]).map((option) => (
                  <option
                    key={String(option)}
                    value={String(option)}
                    selected={String(option) === shown(control, value)}
                  >
                    {String(option)}
                  </option>
                ))}
              </select>
            ) : control === "text" ? (
              <input type="text" {...common} defaultValue={shown(control, value)} />
            ) : control === "integer" || control === "number" ? (
              <input
                type="number"
                {...common}
                step={control === "integer" ? 1 : "any"}
                defaultValue={shown(control, value)}
              />
            ) : control === "boolean" ? null : (
              <textarea {...common} rows={control === "json" ? 4 : 3} defaultValue={shown(control, value)} />
            )}
            {hint === undefined ? null : (
              <small id={hint} class="muted">
                {description}
                {control === "lines" ? " (one per line)" : control === "json" ? " (JSON)" : ""}
              </small>
            )}
            {errorId === undefined ? null : (
              <small id={errorId} class="field-error">
                {wrong
                  .map((issue) => `${issue.path === "" ? label : issue.path}: ${issue.message}`)
                  .join("; ")}
              </small>
            )}
          </div>
        );
      })}
      {problem === undefined ? null : (
        <p class="failure" role="alert">
          {problem}
        </p>
      )}
      {unplaced.length === 0 ? null : (
        <p class="field-error">
          {unplaced
            .map((issue) => `${issue.path === "" ? "the input" : issue.path}: ${issue.message}`)
            .join("; ")}
        </p>
      )}
      <button type="submit" disabled={props.busy}>
        {props.submitLabel}
      </button>
    </form>
  );
}
