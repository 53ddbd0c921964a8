// Keys stay out of everything oz0 prints or records: a message that might carry one (a
// server's error text, a cause) is scrubbed before it goes anywhere, and lists show a key
// only as a hint such as `sk-…abcd`.

const REDACTED = "[redacted]";

/** `text` with every occurrence of each secret replaced. */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const secret of secrets) {
    // A very short "secret" would blank ordinary words; real keys are long.
    if (secret === undefined || secret.length < 8) continue;
    out = out.replaceAll(secret, REDACTED);
  }
  return out;
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
