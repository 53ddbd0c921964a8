// Secrets stay out of everything oz0 prints, records or exports: one redactor, built from the
// secret values a tenant has (model keys, MCP servers' secrets, plugin config secrets), replaces
// each wherever it appears, as written and as it appears inside a JSON string. A job's events
// pass it before they are stored, so its trace, `oz0 job get`, the OTLP spans and whatever a
// surface draws from them show `[redacted]` where a model or a tool repeated a key. Lists show a
// key only as a hint such as `sk-…abcd`.

/** What a secret is replaced with. */
export const REDACTED = "[redacted]";

/**
 * Values shorter than this are not treated as secrets: replacing a two-letter "secret" would
 * blank ordinary words and numbers in every result. Real keys and tokens are far longer.
 */
export const MIN_SECRET_LENGTH = 6;

/** Replaces secrets in text and inside JSON values. */
export interface Redactor {
  /** Whether there is nothing to replace: every call returns its input as it is. */
  readonly empty: boolean;
  text(text: string): string;
  /** A copy of `value` with every string redacted (keys too); other values as they are. */
  json<T>(value: T): T;
  /**
   * Redacts text that arrives in pieces (a model's streamed answer) before it reaches `write`:
   * what might be the start of a secret is held back until the next piece shows whether it is.
   * `end()` lets out what is held back.
   */
  stream(write: (text: string) => void): { write(piece: string): void; end(): void };
}

/**
 * A redactor for `secrets`. Each is replaced as written and as it appears inside a JSON string
 * (escaped), so a server that answers `JSON.stringify(process.env)` gives nothing away.
 * @example redactorOf(["s3cr3t-token"]).text("token=s3cr3t-token") // "token=[redacted]"
 */
export function redactorOf(secrets: Iterable<string | undefined>): Redactor {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (secret === undefined || secret.length < MIN_SECRET_LENGTH) continue;
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
  const stream = (write: (text: string) => void) => {
    if (ordered.length === 0) return { write, end: () => {} };
    let held = "";
    return {
      write(piece: string) {
        held += piece;
        const cut = safeCut(held, ordered);
        if (cut > 0) write(text(held.slice(0, cut)));
        held = held.slice(cut);
      },
      end() {
        if (held !== "") write(text(held));
        held = "";
      },
    };
  };
  return { empty: ordered.length === 0, text, json, stream };
}

/** A redactor that changes nothing: for a tenant or a server with no secrets. */
export const NO_SECRETS: Redactor = redactorOf([]);

/**
 * How much of `text` can go out now: up to where a secret may begin that the text so far does
 * not complete, and never through the middle of one it does.
 */
function safeCut(text: string, forms: readonly string[]): number {
  let cut = text.length;
  for (const form of forms) {
    for (let length = Math.min(form.length - 1, text.length); length > 0; length--) {
      if (text.endsWith(form.slice(0, length))) {
        cut = Math.min(cut, text.length - length);
        break;
      }
    }
  }
  // A whole secret that the cut would split stays behind with its end.
  for (let moved = true; moved; ) {
    moved = false;
    for (const form of forms) {
      const at = text.lastIndexOf(form, cut - 1);
      if (at !== -1 && at < cut && at + form.length > cut) {
        cut = at;
        moved = true;
      }
    }
  }
  return cut;
}

function deep(value: unknown, text: (input: string) => string): unknown {
  if (typeof value === "string") return text(value);
  if (Array.isArray(value)) return value.map((item) => deep(item, text));
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [text(key), deep(item, text)]));
  }
  return value;
}

/**
 * A hint that tells keys apart without giving one away: its vendor prefix and last four
 * characters (`sk-…abcd`, `sk-ant-…wxyz`), or nothing for a key too short to hide.
 * @example keyHint("sk-proj-0123456789abcdef") // "sk-proj-…cdef"
 */
export function keyHint(key: string): string | undefined {
  if (key.length < 16) return undefined;
  const prefix = /^([a-z]{2,4}-(?:[a-z]{2,5}-)?)/.exec(key)?.[1] ?? "";
  return `${prefix}…${key.slice(-4)}`;
}
