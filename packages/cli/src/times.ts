// A time given as an option (`--since`, `--until`): a date or a time in ISO 8601, or a while back
// from now (`90m`, `12h`, `7d`), read as the epoch milliseconds the API takes.
import { invalidInput } from "./errors.js";

/**
 * `text` as epoch milliseconds, or INVALID_INPUT naming the option and what it takes.
 * @example await readTime("12h", "--since") // twelve hours ago
 */
export async function readTime(text: string, option: string): Promise<number> {
  if (/^\d+[mhdw]$/.test(text.trim())) {
    const { parseDuration } = await import("@oz0/runtime");
    return Date.now() - parseDuration(text, option);
  }
  const at = /^\d{4}-\d{2}-\d{2}/.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(at)) {
    throw await invalidInput(
      `${option} ${text}: it takes a time such as 2026-12-01 or 2026-12-01T09:00:00Z, or a while back such as 90m, 12h or 7d`,
      option.replace(/^--/, ""),
      "a time or a duration",
    );
  }
  return at;
}
