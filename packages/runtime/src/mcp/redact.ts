// Secrets an operator gave an MCP server (env and header values) stay out of everything oz0
// shows or records: a server's results, its errors and its stderr pass through a redactor
// before they reach a job's history, a trace or a message. A server that prints its own
// environment (a debugging tool does) shows `[redacted]` where a secret was.

/** What a secret is replaced with. */
export const REDACTED = "[redacted]";

/**
 * Values shorter than this are not treated as secrets: replacing a two-letter "secret" would
 * blank ordinary words and numbers in every result. Real keys and tokens are far longer.
 */
export const MIN_SECRET_LENGTH = 6;

/** Replaces secrets in text and inside JSON values. */
export interface Redactor {
  text(text: string): string;
  /** A copy of `value` with every string redacted (keys too); other values as they are. */
  json<T>(value: T): T;
}

/**
 * A redactor for `secrets`. Each is replaced as written and as it appears inside a JSON string
 * (escaped), so a server that answers `JSON.stringify(process.env)` gives nothing away.
 * @example redactorOf(["s3cr3t-token"]).text("token=s3cr3t-token") // "token=[redacted]"
 */
export function redactorOf(secrets: Iterable<string>): Redactor {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (secret.length < MIN_SECRET_LENGTH) continue;
    forms.add(secret);
    forms.add(JSON.stringify(secret).slice(1, -1));
  }
  // Longest first, so a secret that contains another is replaced whole.
  const ordered = [...forms].sort((a, b) => b.length - a.length);
  const text = (input: string): string => {
    let out = input;
    for (const form of ordered) if (out.includes(form)) out = out.replaceAll(form, REDACTED);
    return out;
  };
  const json = <T>(value: T): T => (ordered.length === 0 ? value : (deep(value, text) as T));
  return { text, json };
}

/** A redactor that changes nothing: for a server with no secrets. */
export const NO_SECRETS: Redactor = redactorOf([]);

function deep(value: unknown, text: (input: string) => string): unknown {
  if (typeof value === "string") return text(value);
  if (Array.isArray(value)) return value.map((item) => deep(item, text));
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [text(key), deep(item, text)]));
  }
  return value;
}
